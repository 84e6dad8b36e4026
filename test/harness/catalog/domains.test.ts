/**
 * Domains instead of samples (issue 32): the chars domain spans printable ASCII and
 * beyond, its edges hold every printable ASCII character, and a seed replays the values.
 * Pairs of dimensions: every pair of values covered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BEYOND_ASCII, CHARS_DOMAIN, PRINTABLE_ASCII } from '../../../harness/catalog/slices/domains.js';
import { pairwise } from '../../../suites/support/slice-pairs.js';

describe('The chars domain', () => {
  it('its edges hold every printable ASCII character and every character beyond ASCII listed', () => {
    expect(PRINTABLE_ASCII).toHaveLength(95);
    expect(CHARS_DOMAIN.edges['every-printable-ascii']).toBe(PRINTABLE_ASCII);
    for (const c of BEYOND_ASCII) expect(CHARS_DOMAIN.edges['beyond-ascii']).toContain(c);
  });

  it('draws non-empty strings, the same ones for the same seed', () => {
    const draw = (seed: number) => fc.sample(CHARS_DOMAIN.arbitrary(), { seed, numRuns: 50 });
    const drawn = draw(42);
    expect(drawn).toEqual(draw(42));
    expect(drawn.every((s) => s.length > 0)).toBe(true);
    expect(drawn.some((s) => /[^\x20-\x7e]/.test(s))).toBe(true);
    expect(drawn.some((s) => /[\x20-\x7e]/.test(s))).toBe(true);
  });
});

describe('Pairs of dimensions', () => {
  const pairsCovered = (combos: Array<Record<string, string>>, dims: ReadonlyArray<readonly [string, readonly string[]]>) => {
    for (let i = 0; i < dims.length; i++) {
      for (let j = i + 1; j < dims.length; j++) {
        for (const a of dims[i]![1]) for (const b of dims[j]![1]) {
          expect(combos.some((c) => c[dims[i]![0]] === a && c[dims[j]![0]] === b), `${dims[i]![0]}=${a} with ${dims[j]![0]}=${b}`).toBe(true);
        }
      }
    }
  };

  it('two dimensions: every combination', () => {
    const dims = [['position', ['first', 'later']], ['actor', ['owner', 'guest', 'application']]] as const;
    const combos = pairwise(dims);
    expect(combos).toHaveLength(6);
    pairsCovered(combos, dims);
  });

  it('three dimensions: every pair, in fewer runs than every combination', () => {
    const dims = [['a', ['1', '2', '3']], ['b', ['x', 'y', 'z']], ['c', ['p', 'q']]] as const;
    const combos = pairwise(dims);
    expect(combos.length).toBeLessThan(18);
    pairsCovered(combos, dims);
  });
});

describe('the chars domain beside long example values', () => {
  // A test's examples run first (OAUTH-STATE-ECHO's 1,400-character state); fast-check asks the
  // arbitrary whether it could have made such a value. With a nested string arbitrary as a unit,
  // that question backtracked without end and kept a run busy for minutes (the kill matrix hung).
  it('answers whether it could have made a 1,400-character state at once', () => {
    const long = 'x'.repeat(40) + '&state=forged#frag?q=1+2%2B%25/' + '\u00fc\u{1F510}'.repeat(20) + 'y'.repeat(1300);
    const arbitrary = CHARS_DOMAIN.arbitrary();
    expect(typeof arbitrary.canShrinkWithoutContext(long)).toBe('boolean');
    expect(typeof arbitrary.canShrinkWithoutContext(PRINTABLE_ASCII.repeat(10))).toBe('boolean');
  }, 10_000);
});
