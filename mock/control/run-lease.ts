/**
 * One run per target at a time (docs/control-protocol-extensions.md, "POST /lease"):
 * the lease a conformance run takes before its first test, renews while it runs and
 * gives back at the end, and the count of POST /reset calls GET /fixtures reports
 * (`resets`), by which a run against a target without the lease sees that someone
 * else reset the target under it.
 *
 * The lease runs on real time, never on the mock's clock: the tests move that clock
 * by months, which must not end a run's lease.
 */

export interface LeaseHeld {
  runId: string;
  /** Epoch ms (real time) after which the lease is free again. */
  expiresAt: number;
}

export type LeaseAnswer = { taken: true; lease: LeaseHeld } | { taken: false; heldBy: string; expiresAt: number };

export class RunCoordination {
  #lease: LeaseHeld | null = null;
  #resets = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The lease still held, or null (an expired lease is free). */
  held(): LeaseHeld | null {
    if (this.#lease && this.#lease.expiresAt <= this.#now()) this.#lease = null;
    return this.#lease ? { ...this.#lease } : null;
  }

  /** Takes the lease for `runId`, or renews it when `runId` already holds it. */
  take(runId: string, ttlMs: number): LeaseAnswer {
    const current = this.held();
    if (current && current.runId !== runId) return { taken: false, heldBy: current.runId, expiresAt: current.expiresAt };
    this.#lease = { runId, expiresAt: this.#now() + ttlMs };
    return { taken: true, lease: { ...this.#lease } };
  }

  /** Gives the lease back: true when `runId` held it or nobody did; false (and who) when another run holds it. */
  release(runId: string): { released: true } | { released: false; heldBy: string; expiresAt: number } {
    const current = this.held();
    if (current && current.runId !== runId) return { released: false, heldBy: current.runId, expiresAt: current.expiresAt };
    this.#lease = null;
    return { released: true };
  }

  /** Counts a POST /reset. */
  countReset(): void {
    this.#resets++;
  }

  /** POST /reset calls since the mock started. */
  get resets(): number {
    return this.#resets;
  }
}
