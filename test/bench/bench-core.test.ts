import { describe, expect, test } from 'vitest';
import { runLoad } from '../../bench/load.js';
import { atLeast, atMost, metric } from '../../bench/result.js';
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

  test('the table shows name, value, unit, goal and a missed goal', () => {
    const table = renderTable([metric('fast.rate', 1234.5, 'req/s', atLeast(500)), metric('slow.p95', 42, 'ms', atMost(20))]);
    expect(table.split('\n')[0]).toMatch(/^name\s+value\s+unit\s+goal\s+ok$/);
    expect(table).toMatch(/fast\.rate\s+1235\s+req\/s\s+≥ 500\s+ok/);
    expect(table).toMatch(/slow\.p95\s+42\s+ms\s+≤ 20\s+MISSED/);
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
