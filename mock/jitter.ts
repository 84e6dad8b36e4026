/**
 * Jitter (`lockconf mock --jitter [seed]`, the mock option `jitter: { seed }`): a legal
 * implementation that is neither in order nor quick. Each webhook delivery waits a
 * random time before it is sent, so the deliveries of one event fan out in a random
 * order, and each request to the OAuth endpoints and the API is answered after a
 * random delay. The spec fixes neither order nor speed, so a conformance run must
 * judge the mock the same with jitter as without.
 *
 * The delays come from a seeded generator (mulberry32): the same seed draws the same
 * sequence of delays, so a failing round can be run again with its seed. (Tests that
 * run side by side draw from the sequence in the order their requests arrive.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

export interface JitterOptions {
  /** Seed of the generator (an integer; printed at start-up so a round can be replayed). */
  seed: number;
  /** Longest wait before a webhook delivery is sent (default 300 ms). */
  maxDeliveryDelayMs?: number;
  /** Longest delay before an OAuth or API request is answered (default 25 ms). */
  maxAnswerDelayMs?: number;
}

export const DEFAULT_MAX_DELIVERY_DELAY_MS = 300;
export const DEFAULT_MAX_ANSWER_DELAY_MS = 25;
/** Upper bound of either delay, whatever the options ask (a jittered mock stays usable). */
const MAX_DELAY_MS = 5_000;

/** mulberry32: a small, fast, seedable 32-bit generator; uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function bound(value: number | undefined, fallback: number, name: string): number {
  const ms = value ?? fallback;
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) throw new RangeError(`jitter.${name} must be an integer from 0 to ${MAX_DELAY_MS}`);
  return ms;
}

export class Jitter {
  readonly seed: number;
  readonly maxDeliveryDelayMs: number;
  readonly maxAnswerDelayMs: number;
  // Two streams: how many requests were answered does not shift the delivery delays.
  readonly #deliveries: () => number;
  readonly #answers: () => number;

  constructor(opts: JitterOptions) {
    if (!Number.isInteger(opts.seed) || opts.seed < 0 || opts.seed > 2 ** 32 - 1) throw new RangeError('jitter.seed must be an integer from 0 to 4294967295');
    this.seed = opts.seed;
    this.maxDeliveryDelayMs = bound(opts.maxDeliveryDelayMs, DEFAULT_MAX_DELIVERY_DELAY_MS, 'maxDeliveryDelayMs');
    this.maxAnswerDelayMs = bound(opts.maxAnswerDelayMs, DEFAULT_MAX_ANSWER_DELAY_MS, 'maxAnswerDelayMs');
    this.#deliveries = mulberry32(opts.seed);
    this.#answers = mulberry32(opts.seed ^ 0x5bd1e995);
  }

  /** How long the next webhook delivery waits before it is sent, 0 to maxDeliveryDelayMs. */
  deliveryDelayMs(): number {
    return Math.floor(this.#deliveries() * (this.maxDeliveryDelayMs + 1));
  }

  /** How long the next OAuth or API request waits before it is handled, 0 to maxAnswerDelayMs. */
  answerDelayMs(): number {
    return Math.floor(this.#answers() * (this.maxAnswerDelayMs + 1));
  }

  describe(): string {
    return `jitter on (seed ${this.seed}): deliveries wait 0-${this.maxDeliveryDelayMs} ms each (random order), OAuth and API answers 0-${this.maxAnswerDelayMs} ms`;
  }
}

/** A random seed for `--jitter` without one. */
export function randomJitterSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** One hook for a whole scope (the OAuth server, the API): every request waits its random delay first. */
export function delayAnswers(app: FastifyInstance, jitter: Jitter): void {
  app.addHook('onRequest', async () => {
    const ms = jitter.answerDelayMs();
    if (ms > 0) await sleep(ms);
  });
}
