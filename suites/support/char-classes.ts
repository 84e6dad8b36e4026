/**
 * The character classes of a value the spec says is returned or sent unchanged
 * (the slice dimension `chars`, harness/catalog/slices/dimensions.ts): one fixed
 * example of each, always sent, so no class is left to a generator's chance.
 */
export const CHAR_CLASS_EXAMPLES: Readonly<Record<string, string>> = {
  percent: 'p%41%2525%zz%',
  plus: 'a+b++c+',
  ampersand: 'a&b&&c&',
  'equals-hash': 'k=v#frag=1#',
  space: 'a b  c',
  blanks: '  padded-both-ends \t ',
  'non-ascii': 'ünïcødé-状态-🔒',
  empty: '',
  long: Array.from({ length: 1500 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789-._~'[i % 40]).join(''),
};

/** The example of a class (an unknown class is a suite error). */
export function charClassExample(cls: string): string {
  const example = CHAR_CLASS_EXAMPLES[cls];
  if (example === undefined) throw new Error(`no example for the character class ${cls}`);
  return example;
}
