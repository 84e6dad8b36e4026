/**
 * The mock's one clock. Every expiry and timestamp in the mock reads it, so the
 * control protocol (POST /_control/clock) can move time for all of them at once.
 */
export class Clock {
  #offsetMs = 0;
  readonly #realNow: () => number;

  constructor(realNow: () => number = Date.now) {
    this.#realNow = realNow;
  }

  /** Current time in epoch milliseconds. */
  now(): number {
    return this.#realNow() + this.#offsetMs;
  }

  /** Current time in whole epoch seconds (JWT iat/exp). */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advanceMs must be a finite number ≥ 0');
    this.#offsetMs += ms;
    return this.now();
  }

  /** How far the clock runs ahead of real time (control bounds it). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  reset(): number {
    this.#offsetMs = 0;
    return this.now();
  }
}
