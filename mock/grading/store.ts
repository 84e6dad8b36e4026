/**
 * The grading recording of one mock: the events of every client, bounded, and
 * the probes lockconf has armed (the mock playing the adversary once).
 */
import type { GradedEvent, GradingRecording } from './recording.js';

/** What lockconf's probes can ask the mock to do to a client's next request. */
export type ProbeKind = 'api-401' | 'refresh-refused' | 'answer-201' | 'answer-204';
export const PROBE_KINDS: readonly ProbeKind[] = ['api-401', 'refresh-refused', 'answer-201', 'answer-204'];

/** Oldest events are dropped past this many (a long session must not grow without bound). */
export const MAX_EVENTS = 20_000;

type NewEvent = GradedEvent extends infer E ? (E extends GradedEvent ? Omit<E, 'seq'> : never) : never;

export class GradingStore {
  readonly #events: GradedEvent[] = [];
  /** Armed probes, each with the endpoint it waits for (null: the next matching request). */
  readonly #armed = new Map<ProbeKind, string | null>();
  #seq = 0;
  #tick = 0;
  #dropped = 0;

  constructor(private readonly max = MAX_EVENTS) {}

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
  arm(kind: ProbeKind, endpoint: string | null = null): void {
    this.#armed.set(kind, endpoint);
  }

  /** True once per arming: the probe fires on the next matching request (of its endpoint, when armed with one). */
  take(kind: ProbeKind, endpoint: string | null = null): boolean {
    if (!this.#armed.has(kind)) return false;
    const wanted = this.#armed.get(kind);
    if (wanted !== null && wanted !== endpoint) return false;
    return this.#armed.delete(kind);
  }

  /** Drops every armed probe that has not fired. */
  disarm(): void {
    this.#armed.clear();
  }

  clear(): void {
    this.#events.length = 0;
    this.#armed.clear();
    this.#dropped = 0;
  }

  snapshot(clientId?: string): GradingRecording {
    const clients = [...new Set(this.#events.map((e) => e.clientId).filter((c): c is string => c !== null))];
    const events = clientId === undefined ? [...this.#events] : this.#events.filter((e) => e.clientId === clientId || e.type === 'mark');
    return { grading: true, clients, events, dropped: this.#dropped };
  }
}
