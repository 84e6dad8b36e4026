/**
 * Domains instead of samples (issue 32): a dimension whose values are classes of an
 * unbounded set (characters, here) is also a domain: a fast-check generator over the
 * whole set, drawn from with the run's seed (suites/support/property.ts records what
 * was drawn in conformance.json `inputs` and replays it with --seed), and named edge
 * values sent on every run, so no part of the set is left to chance that a sample list
 * would miss.
 */
import fc from 'fast-check';

/** Every printable ASCII character, U+0020 to U+007E, once each. */
export const PRINTABLE_ASCII: string = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).join('');

/**
 * Characters beyond ASCII a careless implementation mangles: no-break space, Latin-1,
 * a combining mark, zero-width joiner, a right-to-left mark, a line separator, a CJK
 * character, the replacement character, an emoji outside the BMP (a surrogate pair)
 * and a family emoji joined by ZWJ.
 */
export const BEYOND_ASCII: readonly string[] = ['\u00a0', '\u00e9', '\u00df', 'e\u0301', '\u200d', '\u200f', '\u2028', '\u72b6', '\ufffd', '\u{1F512}', '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}'];

/** A domain: its generator and its named edge values. */
export interface Domain {
  /** The dimension whose classes it spans. */
  dimension: string;
  /** Named edge values, sent on every run before anything is drawn. */
  edges: Readonly<Record<string, string>>;
  /** The generator over the whole domain. */
  arbitrary(): fc.Arbitrary<string>;
}

/**
 * The `chars` domain: any non-empty string of printable ASCII and beyond (one value a
 * spec returns unchanged, where it puts no limit on its characters). Edges: every
 * printable ASCII character in one value, and every character of BEYOND_ASCII.
 */
export const CHARS_DOMAIN: Domain = {
  dimension: 'chars',
  edges: {
    'every-printable-ascii': PRINTABLE_ASCII,
    'beyond-ascii': BEYOND_ASCII.join(''),
  },
  arbitrary: () => fc.string({
    unit: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constantFrom(...BEYOND_ASCII) },
      // Any code point past Latin-1's controls (no surrogate halves). A mapped integer, not a nested string
      // arbitrary: fast-check then never tries to tokenize a long example string into these units, which
      // backtracks without end (a 1,400-character example state kept one run busy for minutes).
      { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0x2ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)) },
    ),
    minLength: 1,
    maxLength: 300,
  }),
};
