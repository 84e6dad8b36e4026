/**
 * A bounded load loop: `total` operations, at most `concurrency` in flight,
 * each timed. It stops by itself after the last operation; the first failure
 * stops the others and is rethrown, so a broken target never loops on.
 */
import { performance } from 'node:perf_hooks';

export interface LoadResult {
  /** Milliseconds per operation, in completion order. */
  latencies: number[];
  elapsedMs: number;
}

export async function runLoad(opts: {
  total: number;
  concurrency: number;
  /** One operation; `worker` lets an operation keep per-worker state (a token chain). */
  op: (index: number, worker: number) => Promise<void>;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let failure: unknown = null;
  const started = performance.now();
  const worker = async (id: number): Promise<void> => {
    while (failure === null) {
      const index = next++;
      if (index >= opts.total) return;
      const t0 = performance.now();
      try {
        await opts.op(index, id);
      } catch (err) {
        failure ??= err;
        return;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency, opts.total));
  await Promise.all(Array.from({ length: workers }, (_, id) => worker(id)));
  if (failure !== null) throw failure;
  return { latencies, elapsedMs: performance.now() - started };
}

/** Times one async call. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}
