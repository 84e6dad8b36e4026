/**
 * One sample value per character class (the `chars` slices, harness/catalog/slices/dimensions.ts
 * CHARS) for values the service sends or returns unchanged: each holds letters,
 * digits and dashes, the unique `tag`, and the characters of its own class only
 * (so a fault on one class breaks that slice alone).
 */
import { randomBytes } from 'node:crypto';

/** A short unique tag (letters and digits). */
export function sampleTag(): string {
  return randomBytes(4).toString('hex');
}

/** The sample of class `cls`, built around `tag`; `max` bounds the long sample (a lock name's 100 characters, say). */
export function charSample(cls: string, tag: string, max = 300): string {
  switch (cls) {
    case 'percent': return `lc-${tag}-100%-%41%zz`;
    case 'plus': return `lc-${tag}-a+b++c`;
    case 'ampersand': return `lc-${tag}-a&b&&c`;
    case 'equals-hash': return `lc-${tag}-a=b#c==`;
    case 'space': return `lc-${tag} a  b c`;
    case 'blanks': return `  lc-${tag}-padded  `;
    case 'non-ascii': return `lc-${tag}-Tür«Süd»-日本-🔒`;
    case 'long': return `lc-${tag}-`.padEnd(max, 'x');
    case 'empty': return ''; // no characters at all (the tag too): a value the application may choose where the spec sets no length
    default: throw new Error(`suite error: no sample for the character class ${cls}`);
  }
}
