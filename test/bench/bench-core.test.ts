import { describe, expect, test } from 'vitest';
import { runLoad } from '../../bench/load.js';
import { atLeast, atMost, compared, metric } from '../../bench/result.js';
import { mask } from '../../bench/safe-error.js';
import { percentile, summarize } from '../../bench/stats.js';
import { renderTable } from '../../bench/table.js';

describe('bench core', () => {
  test('nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(summarize([3, 1, 2])).toMatchObject({ count: 3, p50: 2, max: 3, mean: 2 });
  });

  test('goals decide ok; a missing figure misses its goal', () => {
    expect(metric('a', 10, 'x', atLeast(10)).ok).toBe(true);
    expect(metric('a', 9, 'x', atLeast(10)).ok).toBe(false);
    expect(metric('a', 21, 'x', atMost(20)).ok).toBe(false);
    expect(metric('a', Number.NaN, 'x', atMost(20)).ok).toBe(false);
    expect(metric('a', Number.NaN, 'x', null).ok).toBe(true);
  });

  test('the table shows each figure, its reference, the ratio, the goal and a missed goal', () => {
    const table = renderTable([
      compared('tokens.rate', { value: 3000, unit: 'req/s' }, { value: 600, unit: 'req/s', what: 'peer' }, atLeast(3)),
      compared('run.wall', { value: 20, unit: 's' }, { value: 4, unit: 's', what: 'one test' }, atMost(4)),
      metric('context.p50', 1.5, 'ms', null),
    ]);
    expect(table.split('\n')[0]).toMatch(/^name\s+figure\s+reference\s+ratio\s+goal\s+ok$/);
    expect(table).toMatch(/tokens\.rate\s+3000 req\/s\s+600 req\/s \(peer\)\s+5\.00×\s+≥ 3×\s+ok/);
    expect(table).toMatch(/run\.wall\s+20 s\s+4 s \(one test\)\s+5\.00×\s+≤ 4×\s+MISSED/);
    expect(table).toMatch(/context\.p50\s+1\.50 ms\s+—\s+—\s+—/);
  });

  test('a load loop runs exactly its count and stops at the first failure', async () => {
    const seen: number[] = [];
    const done = await runLoad({ total: 25, concurrency: 4, op: async (i) => void seen.push(i) });
    expect(done.latencies).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    let calls = 0;
    await expect(
      runLoad({
        total: 1000,
        concurrency: 2,
        op: async (i) => {
          calls++;
          if (i === 3) throw new Error('boom');
        },
      }),
    ).rejects.toThrow('boom');
    expect(calls).toBeLessThan(10);
  });

  test('token-like strings are masked in printable errors', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMzQ1Njc4In0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWc';
    const text = mask(`POST /oauth/access_token answered 400 for ${jwt} and k3Jd8fP2qLm9xZ7vB4nT6wR1yH5sA0cE`);
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain('k3Jd8fP2');
    expect(text).toContain('POST /oauth/access_token answered 400');
  });
});
