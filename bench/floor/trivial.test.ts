/** The bare vitest floor of bench/benchmarks/full-run.ts: one trivial test, nothing of lockconf loaded. */
import { expect, it } from 'vitest';

it('adds', () => {
  expect(1 + 1).toBe(2);
});
