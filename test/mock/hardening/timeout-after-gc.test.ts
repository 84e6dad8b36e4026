/**
 * Finding 2: the delivery timeout fires after a garbage collection. The
 * deliveries run in a child process started with --expose-gc (only this test
 * needs the flag), against a receiver that answers and then drips its body for
 * ever, so only the delivery's own timeout can end them.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./fixtures/timeout-after-gc.ts', import.meta.url));

describe('Delivery: the timeout always fires', () => {
  it('every delivery to a dripping receiver times out, with forced garbage collections while it waits', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', SCRIPT], { timeout: 25_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { total: number; timedOut: number; settled: boolean; elapsedMs: number };
    expect(result.settled).toBe(true);
    expect(result.timedOut).toBe(result.total);
    // 12 deliveries, 8 at a time, 300 ms each: two rounds, far below the 10 s cap.
    expect(result.elapsedMs).toBeLessThan(5_000);
  });
});
