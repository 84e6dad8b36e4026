/**
 * The grading recording of one mock: the events of every client, bounded, and
 * the probes lockconf has armed (the mock playing the adversary once).
 */
import type { GradedEvent, GradingRecording } from './recording.js';

/** What lockconf's probes can ask the mock to do to a client's next request. */
export type ProbeKind = 'api-401' | 'refresh-refused' | 'answer-201' | 'answer-204' | 'refresh-in-flight' | 'answer' | 'token-error';
export const PROBE_KINDS: readonly ProbeKind[] = ['api-401', 'refresh-refused', 'answer-201', 'answer-204', 'refresh-in-flight', 'answer', 'token-error'];

/** The successful answers an `answer` probe may give an API write instead of 200: every 2xx a plain request may get (RFC 9110 §15.3; 206 answers a range request only). */
export const PROBE_ANSWER_STATUSES: readonly number[] = [200, 201, 202, 203, 204, 205];
/** What an armed `api-401` probe may answer instead (`status`): 401 (the default), or a server error the call meets. */
export const PROBE_REFUSAL_STATUSES: readonly number[] = [401, 500, 503];
/** What an armed `token-error` probe answers the next token request: a redirect (to /error), an OAuth 400, a server error. */
export const PROBE_TOKEN_ERROR_STATUSES: readonly number[] = [302, 400, 500, 503];
/** The answers that carry no body whatever the probe asks (RFC 9110 §15.3.5, §15.3.6). */
export const BODILESS_STATUSES: readonly number[] = [204, 205];

/** What an armed `answer` probe answers: a status of PROBE_ANSWER_STATUSES, the body kept or none. */
export interface ProbeAnswer {
  status: number;
  empty: boolean;
}

/** How long a held refresh waits for a second one (a bound, never a verdict: a client that sends none is simply released). */
export const REFRESH_HOLD_MS = 1500;

/** Oldest events are dropped past this many (a long session must not grow without bound). */
export const MAX_EVENTS = 20_000;

/** Gradings remembered (a grading is a range of the recording; the oldest are forgotten). */
const MAX_GRADINGS = 100;

/**
 * One grading: the events recorded from its start (the mock's start, the end of the
 * previous grading, or a clear) to its end (the start of the next). A `--client` run
 * judges one grading only, so evidence older than the grading never passes or fails a rule.
 */
interface Grading {
  id: number;
  /** Events with seq > fromSeq belong to it… */
  fromSeq: number;
  /** …up to and with toSeq (null while it is the current grading). */
  toSeq: number | null;
}

/** The grading named is not the current one: another grading started since (409). */
export class GradingSuperseded extends Error {}

type NewEvent = GradedEvent extends infer E ? (E extends GradedEvent ? Omit<E, 'seq'> : never) : never;

export class GradingStore {
  readonly #events: GradedEvent[] = [];
  /** Armed probes, each with the endpoint it waits for (null: the next matching request). */
  readonly #armed = new Map<ProbeKind, string | null>();
  /** Where the armed 401 lands: after the next refresh only, and after how many API calls it lets through. */
  #api401At: { afterRefresh: boolean; refreshed: boolean; skip: number; status: number } = { afterRefresh: false, refreshed: false, skip: 0, status: 401 };
  #tokenError = 500;
  /** The answer of the armed `answer` probe. */
  #answer: ProbeAnswer | null = null;
  /** Releases the refresh held by a refresh-in-flight probe (null: none held). */
  #releaseHeld: (() => void) | null = null;
  #seq = 0;
  #tick = 0;
  #dropped = 0;
  readonly #gradings: Grading[] = [{ id: 1, fromSeq: 0, toSeq: null }];

  constructor(private readonly max = MAX_EVENTS) {}

  /** The id of the grading in progress (events recorded now belong to it). */
  get gradingId(): number {
    return this.#current().id;
  }

  #current(): Grading {
    return this.#gradings[this.#gradings.length - 1]!;
  }

  /**
   * Ends the current grading and starts the next; with `closes`, only when the current one is
   * that grading (else GradingSuperseded: another run ended it first). Returns the new id and the ended one's.
   */
  startGrading(closes?: number): { gradingId: number; previous: number } {
    const current = this.#current();
    if (closes !== undefined && closes !== current.id) throw new GradingSuperseded(`grading ${closes} is over: grading ${current.id} started since`);
    current.toSeq = this.#seq;
    this.#gradings.push({ id: current.id + 1, fromSeq: this.#seq, toSeq: null });
    if (this.#gradings.length > MAX_GRADINGS) this.#gradings.shift();
    return { gradingId: current.id + 1, previous: current.id };
  }

  add(event: NewEvent): void {
    this.#seq += 1;
    this.#events.push({ ...event, seq: this.#seq } as GradedEvent);
    if (this.#events.length > this.max) {
      this.#events.shift();
      this.#dropped += 1;
    }
  }

  /** The next tick of the recorder's one counter (arrivals and completions). */
  tick(): number {
    this.#tick += 1;
    return this.#tick;
  }

  /** Arms a probe; with `endpoint` (the spec's name, `GET /users/me`), it waits for a request to that endpoint. */
  arm(kind: ProbeKind, endpoint: string | null = null, answer: ProbeAnswer | null = null, at: { afterRefresh?: boolean; skip?: number; status?: number } = {}): void {
    this.#armed.set(kind, endpoint);
    if (kind === 'answer') this.#answer = answer;
    if (kind === 'token-error') this.#tokenError = at.status ?? 500;
    if (kind === 'api-401') this.#api401At = { afterRefresh: at.afterRefresh ?? false, refreshed: false, skip: at.skip ?? 0, status: at.status ?? 401 };
  }

  /** A refresh grant succeeded: an armed 401 waiting for one may land on the next API call. */
  refreshed(): void {
    this.#api401At.refreshed = true;
  }

  /**
   * True once per arming: the armed 401 lands on this API call (of `endpoint`). Armed with afterRefresh, only
   * once a refresh has succeeded since; with skip, after that many API calls have gone through.
   */
  takeApi401(endpoint: string | null): boolean {
    if (!this.#armed.has('api-401')) return false;
    const at = this.#api401At;
    if (at.afterRefresh && !at.refreshed) return false;
    const wanted = this.#armed.get('api-401');
    if (wanted !== null && wanted !== endpoint) return false;
    if (at.skip > 0) {
      at.skip -= 1;
      return false;
    }
    return this.take('api-401', endpoint);
  }

  /** The status the armed `api-401` probe answers (401 unless armed with another of PROBE_REFUSAL_STATUSES). */
  api401Status(): number {
    return this.#api401At.status;
  }

  /** The status of the armed `token-error` probe, once per arming (null: none armed). */
  takeTokenError(): number | null {
    const status = this.#tokenError;
    return this.take('token-error') ? status : null;
  }

  /** The armed `answer` probe's answer, once per arming (null: none armed). */
  takeAnswer(): ProbeAnswer | null {
    const answer = this.#answer;
    if (!answer || !this.take('answer')) return null;
    this.#answer = null;
    return answer;
  }

  /** True once per arming: the probe fires on the next matching request (of its endpoint, when armed with one). */
  take(kind: ProbeKind, endpoint: string | null = null): boolean {
    if (!this.#armed.has(kind)) return false;
    const wanted = this.#armed.get(kind);
    if (wanted !== null && wanted !== endpoint) return false;
    return this.#armed.delete(kind);
  }

  /** Drops every armed probe that has not fired (and releases a held refresh). */
  disarm(): void {
    this.#armed.clear();
    this.releaseHeld();
  }

  /**
   * Holds a refresh until another refresh arrives (releaseHeld) or `ms` pass: two refreshes of the client
   * are then in flight at once whatever the machine's speed, if the client sends two.
   */
  async holdRefresh(ms = REFRESH_HOLD_MS): Promise<void> {
    this.releaseHeld();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.releaseHeld(), ms);
      timer.unref();
      this.#releaseHeld = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Releases the held refresh, if any. */
  releaseHeld(): void {
    const release = this.#releaseHeld;
    this.#releaseHeld = null;
    release?.();
  }

  /** Forgets the recording; a cleared recording starts a new grading (the one in progress has lost its evidence). */
  clear(): void {
    this.#events.length = 0;
    this.#armed.clear();
    this.#dropped = 0;
    this.startGrading();
  }

  /**
   * The recording (of one client, with `clientId`): every event, or with `gradingId` the events of
   * that grading only; null for a grading this store does not know (never started, or forgotten).
   */
  snapshot(clientId?: string): GradingRecording;
  snapshot(clientId: string | undefined, gradingId: number | undefined): GradingRecording | null;
  snapshot(clientId?: string, gradingId?: number): GradingRecording | null {
    const grading = gradingId === undefined ? null : this.#gradings.find((g) => g.id === gradingId);
    if (grading === undefined) return null;
    const inGrading = (e: GradedEvent) => !grading || (e.seq > grading.fromSeq && (grading.toSeq === null || e.seq <= grading.toSeq));
    const held = this.#events.filter(inGrading);
    const clients = [...new Set(held.map((e) => e.clientId).filter((c): c is string => c !== null))];
    const events = clientId === undefined ? held : held.filter((e) => e.clientId === clientId || e.type === 'mark');
    return { grading: true, gradingId: grading?.id ?? this.gradingId, clients, events, dropped: this.#dropped };
  }
}
