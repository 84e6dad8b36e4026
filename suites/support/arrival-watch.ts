/**
 * A target whose webhooks never arrive is one finding, not minutes of waits. Every wait for
 * an expected delivery of a run goes through one watch (per capture server, so per run):
 * - while the target has delivered something in the run, a wait is what its caller asked for;
 * - when the first expected delivery has not arrived within its wait and nothing at all has
 *   reached the capture server in the run, the target is *silent*: the reason is recorded, the
 *   waits in progress end, and every later wait is shortened to SILENT_WAIT_MS;
 * - a shortened wait that ends empty asks the capture server again: when anything arrived
 *   meanwhile, the silence is lifted and the wait goes on for the rest of its full time, so
 *   a target that delivers is never judged by a shortened wait.
 * Only the time changes: a delivery that does not come fails or blocks its test as before,
 * and the failure says the wait was shortened and why.
 */
import type { CaptureClientLike, Delivery, Inbox, Target } from '../../harness/contracts.js';
import { CaptureClient } from '../../harness/wire/capture/client.js';
import { LockconfError } from '../../harness/run/errors.js';

/**
 * A wait once the target is known to be silent: long enough for a late first delivery to come
 * (as long as the quiet window against any target). Whatever it shows, a shortened wait that
 * ends empty is judged only after the capture server says nothing at all came in the run.
 */
export const SILENT_WAIT_MS = 500;

function noteOf(silence: Silence): string {
  return ` (the wait was shortened to ${SILENT_WAIT_MS} ms: ${silence.reason})`;
}

export interface Silence {
  /** Why the waits are shortened: the first expected delivery, and how long it was waited for. */
  reason: string;
  /** Harness clock, epoch ms. */
  since: number;
}

/** What a wait says when it ended empty. */
export interface EmptyWait {
  /** How long it waited, in ms. */
  waitedMs: number;
  /** Set when the wait was shortened because the target is silent. */
  shortened: Silence | null;
}

export type Attempt<T> = (timeoutMs: number, signal: AbortSignal) => Promise<T | null>;

export class ArrivalWatch {
  #heard = false;
  #silence: Silence | null = null;
  readonly #declared = new Set<() => void>();

  /** `anyArrived`: has anything reached the capture server in this run (null: cannot tell). */
  constructor(private readonly anyArrived: () => Promise<boolean | null>) {}

  get silence(): Silence | null {
    return this.#silence;
  }

  /** Something arrived from the target: it is not silent. */
  heard(): void {
    this.#heard = true;
    this.#silence = null;
  }

  /** A note for failure messages: '' unless the waits are shortened. */
  note(shortened: Silence | null = this.#silence): string {
    return shortened ? noteOf(shortened) : '';
  }

  /**
   * Runs attempt (a wait that resolves null when nothing came within its time, and stops when
   * its signal aborts) for at most timeoutMs, shortened while the target is silent.
   */
  async wait<T>(what: string, timeoutMs: number, attempt: Attempt<T>): Promise<{ value: T } | EmptyWait> {
    const start = Date.now();
    const fullDeadline = start + timeoutMs;
    let shortened: Silence | null = null;
    for (;;) {
      const silence = this.#heard ? null : this.#silence;
      if (silence) shortened = silence;
      const deadline = silence ? Math.min(fullDeadline, Math.max(Date.now(), silence.since) + SILENT_WAIT_MS) : fullDeadline;
      const remaining = Math.max(0, deadline - Date.now());
      const outcome = await this.#raceDeclaration(silence === null && !this.#heard, (signal) => attempt(remaining, signal));
      if (outcome.kind === 'value') {
        this.heard();
        return { value: outcome.value };
      }
      if (outcome.kind === 'declared') continue; // another wait found the target silent: this one is shortened too
      const waitedMs = Date.now() - start;
      if (this.#heard || timeoutMs === 0) return { waitedMs, shortened: null };
      const arrived = await this.anyArrived().catch(() => null);
      if (arrived !== false) {
        if (arrived) this.heard();
        // Something came (or we cannot tell): the rest of the full wait, as for any target.
        if (shortened && fullDeadline > Date.now()) { shortened = null; continue; }
        return { waitedMs, shortened: null };
      }
      if (!silence) this.#declare({ reason: `the target has delivered nothing in this run: its first expected delivery (${what}) did not arrive within ${timeoutMs} ms`, since: Date.now() });
      return { waitedMs, shortened: shortened ?? (silence ? silence : null) };
    }
  }

  #declare(silence: Silence): void {
    if (this.#silence || this.#heard) return;
    this.#silence = silence;
    for (const wake of [...this.#declared]) wake();
  }

  /** The attempt, ended early (aborted) when silence is declared meanwhile and `listen` is set. */
  async #raceDeclaration<T>(listen: boolean, run: (signal: AbortSignal) => Promise<T | null>): Promise<{ kind: 'value'; value: T } | { kind: 'empty' } | { kind: 'declared' }> {
    const abort = new AbortController();
    let wake: (() => void) | null = null;
    const declared = new Promise<'declared'>((resolve) => {
      wake = () => resolve('declared');
      if (listen) this.#declared.add(wake);
    });
    const running = run(abort.signal);
    running.catch(() => {}); // ended by the declaration: its rejection (aborted) is nobody's
    try {
      const got = await Promise.race([running, declared]);
      if (got === 'declared') return { kind: 'declared' };
      return got === null ? { kind: 'empty' } : { kind: 'value', value: got };
    } finally {
      if (wake) this.#declared.delete(wake);
      abort.abort();
    }
  }
}

/** One watch per capture server, so per run (a unit test's own run gets its own); by its control URL and token. */
const watches = new Map<string, ArrivalWatch>();
const looseWatches = new WeakMap<object, ArrivalWatch>();

/**
 * The run's watch. Each test has a capture client of its own; the run's capture server is
 * the one every test shares, and whether anything reached it in the run is asked of it.
 */
export function arrivalWatch(target: Pick<Target, 'setup'>, capture: CaptureClientLike): ArrivalWatch {
  const server = target.setup?.capture;
  if (!server) {
    // A bare context (a unit test's fake): one watch per capture client, asking it when it can tell.
    let watch = looseWatches.get(capture);
    if (!watch) {
      const all = (capture as { allDeliveries?: (after?: number) => Promise<Delivery[]> }).allDeliveries;
      watch = new ArrivalWatch(async () => (typeof all === 'function' ? (await all.call(capture, 0)).length > 0 : null));
      looseWatches.set(capture, watch);
    }
    return watch;
  }
  const key = `${server.controlUrl} ${server.token}`;
  let watch = watches.get(key);
  if (!watch) {
    const client = new CaptureClient(server);
    watch = new ArrivalWatch(async () => (await client.call('GET', '/deliveries?after=0&limit=1') as { deliveries: unknown[] }).deliveries.length > 0);
    watches.set(key, watch);
  }
  return watch;
}

/** An ERR_DELIVERY_TIMEOUT of a watched wait: how long it waited, and why it was shortened. */
export class ArrivalTimeout extends LockconfError {
  constructor(message: string, readonly waitedMs: number, readonly shortened: Silence | null) {
    super('ERR_DELIVERY_TIMEOUT', message);
  }
}

/** What a failed wait adds to its caller's message: '' unless the watch shortened it (then how, and why). */
export function shortenedNote(err: unknown): string {
  return err instanceof ArrivalTimeout && err.shortened ? noteOf(err.shortened) : '';
}

function isTimeout(err: unknown): boolean {
  return err instanceof LockconfError && err.code === 'ERR_DELIVERY_TIMEOUT';
}

/** The inbox with its waits (waitFor) going through the run's watch; everything else is the inbox's own. */
export function watchedInbox(inbox: Inbox, watch: ArrivalWatch): Inbox {
  const waitFor: Inbox['waitFor'] = async (n, opts = {}) => {
    const timeoutMs = opts.timeoutMs ?? 10_000;
    const what = opts.what ?? `${n} deliver${n === 1 ? 'y' : 'ies'} to inbox ${inbox.id}`;
    let timedOut: LockconfError | null = null;
    const got = await watch.wait(what, timeoutMs, async (ms, signal) => {
      try {
        return await inbox.waitFor(n, { ...opts, timeoutMs: ms, signal });
      } catch (err) {
        if (!isTimeout(err)) throw err;
        timedOut = err as LockconfError;
        return null;
      }
    });
    if ('value' in got) return got.value;
    const said = (timedOut as LockconfError | null)?.message ?? `inbox ${inbox.id}: waited ${got.waitedMs} ms for ${n} deliver${n === 1 ? 'y' : 'ies'}`;
    throw new ArrivalTimeout(`${said}${watch.note(got.shortened)}`, got.waitedMs, got.shortened);
  };
  const watched: Inbox = {
    id: inbox.id,
    url: inbox.url,
    setResponse: (response) => inbox.setResponse(response),
    deliveries: () => inbox.deliveries(),
    waitFor,
    collectFor: (windowMs) => inbox.collectFor(windowMs),
  };
  if (inbox.doorUrl) watched.doorUrl = (door) => inbox.doorUrl!(door);
  return watched;
}
