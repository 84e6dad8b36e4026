/**
 * Slices of two or more dimensions at once (issue 32: "a test of the combination of two
 * dimensions draws pairs, not one dimension at a time"): every pair of values of every two
 * of the dimensions is covered by at least one slice. Two dimensions: every combination.
 * More: a greedy cover of the pairs (each pick covers the most uncovered pairs; ties to the
 * first in declaration order, so the cover is the same on every run).
 */
import type { SuiteContext } from './context.js';

type Combination = Record<string, string>;

function product(dims: ReadonlyArray<readonly [string, readonly string[]]>): Combination[] {
  return dims.reduce<Combination[]>((acc, [dim, values]) => acc.flatMap((c) => values.map((v) => ({ ...c, [dim]: v }))), [{}]);
}

function pairsOf(c: Combination, dims: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < dims.length; i++) for (let j = i + 1; j < dims.length; j++) out.push(`${dims[i]}=${c[dims[i]!]}|${dims[j]}=${c[dims[j]!]}`);
  return out;
}

/** Combinations of the given dimensions' values that cover every pair (pairwise coverage). */
export function pairwise(dims: ReadonlyArray<readonly [string, readonly string[]]>): Combination[] {
  const all = product(dims);
  if (dims.length <= 2) return all;
  const names = dims.map(([d]) => d);
  const uncovered = new Set(all.flatMap((c) => pairsOf(c, names)));
  const chosen: Combination[] = [];
  while (uncovered.size > 0) {
    let best = all[0]!;
    let gain = -1;
    for (const c of all) {
      const g = pairsOf(c, names).filter((p) => uncovered.has(p)).length;
      if (g > gain) { best = c; gain = g; }
    }
    for (const p of pairsOf(best, names)) uncovered.delete(p);
    chosen.push(best);
  }
  return chosen;
}

/** Runs fn once per combination of the declared values of `dims` (pairwise), each a slice of the test's requirement over every one of them. */
export async function eachSlicePair(t: SuiteContext, dims: readonly string[], fn: (slice: Combination) => Promise<void>): Promise<void> {
  for (const slice of pairwise(dims.map((d) => [d, t.slices(d)] as const))) await t.slice(slice, () => fn(slice));
}
