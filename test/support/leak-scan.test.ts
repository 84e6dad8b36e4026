/**
 * The leak scan (leak-scan.ts) finds what searching the text once per secret finds:
 * every value, as it is or URL-encoded, wherever it lies (inside a longer run of token
 * characters too), and every SMS code where a value stands.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { codeScanner, secretScanner } from './leak-scan.js';

const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/;

/** What the scan replaced: text.includes per secret. */
function naive(text: string, secrets: ReadonlyMap<string, string>): string[] {
  const kinds = [...secrets].filter(([v]) => text.includes(v) || text.includes(encodeURIComponent(v))).map(([, kind]) => kind);
  if (JWT_SHAPE.test(text)) kinds.push('a JWT-shaped string');
  return kinds;
}

const tokenChar = fc.constantFrom(...'abcXYZ019._~-');
const token = fc.string({ unit: tokenChar, minLength: 3, maxLength: 12 });
const other = fc.string({ unit: fc.constantFrom(...'ab9 !&%é"'), minLength: 3, maxLength: 8 });

describe('secretScanner', () => {
  test('names the secrets text.includes finds, for any text made of them and other characters', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.oneof(token, other), { minLength: 1, maxLength: 8 }), fc.array(fc.oneof(fc.string({ unit: fc.constantFrom(...'abcXYZ019._~- "=/%'), maxLength: 6 }), fc.nat()), { maxLength: 12 }), (values, parts) => {
      const secrets = new Map(values.map((v, i) => [v, `secret ${i}`]));
      const text = parts.map((p) => (typeof p === 'number' ? (p % 2 ? encodeURIComponent(values[p % values.length]!) : values[p % values.length]!) : p)).join('');
      expect(secretScanner(secrets)(text).sort()).toEqual(naive(text, secrets).sort());
    }), { numRuns: 500 });
  });

  test('finds a token inside a longer run of token characters, and a JWT-shaped string', () => {
    const secrets = new Map([['tok3nValue', 'access token'], ['pass word', 'password']]);
    expect(secretScanner(secrets)('x=abc.tok3nValue.def')).toEqual(['access token']);
    expect(secretScanner(secrets)('pass%20word')).toEqual(['password']);
    expect(secretScanner(secrets)('eyJhbGci.eyJzdWIi.c2lnbmF0')).toEqual(['a JWT-shaped string']);
    expect(secretScanner(secrets)('tok3nValu')).toEqual([]);
  });
});

describe('codeScanner', () => {
  test('finds a code as a JSON string, inside a JSON string or as a form field, as the three includes did', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.stringMatching(/^\d{6}$/), { minLength: 1, maxLength: 5 }), fc.string({ unit: fc.constantFrom(...'0123456789"\\= x'), maxLength: 40 }), (codes, noise) => {
      const text = `${noise}${codes[0]}${noise}`;
      const expected = codes.some((c) => text.includes(`"${c}"`) || text.includes(`\\"${c}\\"`) || text.includes(`=${c}`));
      expect(codeScanner(codes)(text)).toBe(expected);
    }), { numRuns: 500 });
    expect(codeScanner(['123456'])('{"code":"123456"}')).toBe(true);
    expect(codeScanner(['123456'])('code=1234567')).toBe(true);
    expect(codeScanner(['123456'])('"1234567"')).toBe(false);
    expect(codeScanner([])('"123456"')).toBe(false);
  });
});
