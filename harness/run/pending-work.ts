/**
 * What a test's harness is waiting for, at every moment: the requests to the target
 * not yet answered (harness/wire/http.ts inFlight()), the deliveries an inbox waits
 * for, the quiet windows it keeps. When a test does not finish within its timeout,
 * this says why (issues 35/36): a request the target never answered or a delivery
 * never heard is the target's failure; a wait on anything else (the control
 * interface, the harness's own quiet window, or nothing at all: the machine was busy)
 * says nothing about the target, so the test is an error of the run (not tested, the
 * verdict `incomplete`), never a failure. The CLI runs every test that did not finish
 * again alone at full strictness first (harness/commands/confirm-timeouts.ts).
 */

/** What one wait is for. `request`, `delivery`: the target owes it; the others it does not. */
export type PendingKind = 'request' | 'delivery' | 'control' | 'quiet-window';

export interface PendingItem {
  kind: PendingKind;
  /** "GET /api/locks", "1 delivery (lock-event) to inbox ab12". Never a secret: no query, no header. */
  what: string;
  /** When the wait started (performance.now()). */
  since: number;
}

/** The request a client has sent and not yet seen answered. */
export interface InFlightRequest {
  method: string;
  url: string;
  since: number;
}

/** What the test was waiting for when it ran out of time, as the reports say it. */
export interface Unfinished {
  /** How long the test had run (ms). */
  afterMs: number;
  /** True when something the target owes was outstanding: the test failed. False: an error of the run. */
  owed: boolean;
  /** One line per wait, longest first; [] when the harness waited on nothing. */
  waitingFor: string[];
}

const OWED: ReadonlySet<PendingKind> = new Set(['request', 'delivery']);

/** The waits of one test. */
export class PendingWork {
  readonly #items = new Set<PendingItem>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Runs fn, listed as a wait of `kind` until it settles. */
  async track<T>(kind: PendingKind, what: string, fn: () => Promise<T>): Promise<T> {
    const item: PendingItem = { kind, what, since: this.#now() };
    this.#items.add(item);
    try {
      return await fn();
    } finally {
      this.#items.delete(item);
    }
  }

  items(): PendingItem[] {
    return [...this.#items];
  }

  now(): number {
    return this.#now();
  }
}

/** "GET http://127.0.0.1:4010/api/locks?x=1" → "GET http://127.0.0.1:4010/api/locks" (a query may hold a code). */
export function requestLine(method: string, url: string): string {
  try {
    const u = new URL(url);
    return `${method.toUpperCase()} ${u.origin}${u.pathname}`;
  } catch {
    return `${method.toUpperCase()} (a malformed URL)`;
  }
}

/**
 * The requests in flight, as waits: those to the control interface (controlUrl) are
 * the harness setting the scene, owed by no requirement.
 */
export function requestWaits(inFlight: readonly InFlightRequest[], controlUrl: string | null | undefined): PendingItem[] {
  return inFlight.map((r) => ({
    kind: controlUrl && r.url.startsWith(controlUrl) ? 'control' : 'request',
    what: requestLine(r.method, r.url),
    since: r.since,
  }));
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

const DESCRIBE: Record<PendingKind, (what: string, waited: string) => string> = {
  request: (what, waited) => `the target's answer to ${what} (sent ${waited} before, no answer yet)`,
  delivery: (what, waited) => `${what} (waited for ${waited}, not heard yet)`,
  control: (what, waited) => `the control interface's answer to ${what} (sent ${waited} before; the control protocol is no requirement of the spec)`,
  'quiet-window': (what, waited) => `the harness's own quiet window, ${what} (${waited} into it)`,
};

/** What a test that ran `afterMs` and did not finish was waiting for. */
export function unfinished(items: readonly PendingItem[], now: number, afterMs: number): Unfinished {
  const sorted = [...items].sort((a, b) => a.since - b.since);
  return {
    afterMs: Math.round(afterMs),
    owed: sorted.some((i) => OWED.has(i.kind)),
    waitingFor: sorted.map((i) => DESCRIBE[i.kind](i.what, seconds(now - i.since))),
  };
}

/** The reason a test that did not finish is reported with (keeps the words confirm.ts and the reports look for). */
export function unfinishedReason(u: Unfinished): string {
  const head = `the test did not finish (timeout after ${seconds(u.afterMs)})`;
  if (u.owed) return `${head}: the harness was waiting for ${u.waitingFor.join('; ')}`;
  const on = u.waitingFor.length ? `only on what the target owes nothing for: ${u.waitingFor.join('; ')}` : 'on nothing from the target (the machine was busy with the harness\'s own work)';
  return `${head} while the harness waited ${on}. An error of the run, not a finding about the target: run it again on a less loaded machine`;
}
