/**
 * The leak scan of a run's files (test/harness/report/full-run.test.ts): every place a
 * known secret shows up, each file read once for all of them. A full run writes thousands
 * of files and obtains over a thousand tokens and codes: searching each file once per
 * secret (text.includes) is tokens × files; here it is one pass a file.
 */

/** The characters a token-shaped secret is made of (the same URL-encoded: all unreserved). */
const TOKEN_CHARS = /^[A-Za-z0-9._~-]+$/;
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The three UTF-16 units of `text` at `at`, seven bits of each, as an index into a 2 MB filter. */
function filterIndex(text: string, at: number): number {
  return ((text.charCodeAt(at) & 0x7f) << 14) | ((text.charCodeAt(at + 1) & 0x7f) << 7) | (text.charCodeAt(at + 2) & 0x7f);
}

/**
 * A scanner for `secrets` (value → what it is): `scan(text)` names what of them `text`
 * holds, as `text.includes(value) || text.includes(encodeURIComponent(value))` would for
 * each, and "a JWT-shaped string" for any JWT it holds.
 *
 * One pass over the text for every token-shaped value (URL-encoding leaves it as it is): at
 * each position, the values that start with the next three characters are compared in full
 * (a bit filter of those starts passes over nearly every position without a lookup). The other values (a password with a
 * blank, anything shorter than three) are few: looked for as they are and URL-encoded.
 */
export function secretScanner(secrets: ReadonlyMap<string, string>): (text: string) => string[] {
  const values = [...secrets.keys()].filter((v) => v !== '');
  const tokenShaped = (v: string) => v.length >= 3 && TOKEN_CHARS.test(v);
  const others = values.filter((v) => !tokenShaped(v));
  const byStart = new Map<string, string[]>();
  const filter = new Uint8Array(1 << 21); // a start no value has is passed over without a lookup
  for (const v of values.filter(tokenShaped)) {
    byStart.set(v.slice(0, 3), [...(byStart.get(v.slice(0, 3)) ?? []), v]);
    filter[filterIndex(v, 0)] = 1;
  }
  return (text) => {
    const found = new Set<string>();
    if (byStart.size > 0) {
      for (let i = 0; i + 3 <= text.length; i++) {
        if (filter[filterIndex(text, i)] === 0) continue;
        const candidates = byStart.get(text.slice(i, i + 3));
        if (candidates) for (const v of candidates) if (text.startsWith(v, i)) found.add(v);
      }
    }
    for (const v of others) if (text.includes(v) || text.includes(encodeURIComponent(v))) found.add(v);
    const kinds = [...found].map((v) => secrets.get(v)!);
    if (JWT_SHAPE.test(text)) kinds.push('a JWT-shaped string');
    return kinds;
  };
}

/**
 * Whether a text holds one of `codes` where a value stands: a JSON string ("123456"), one
 * inside a JSON string (\"123456\") or a form field (=123456). One regular expression of
 * every code, one pass per text: the same as the three includes per code.
 */
export function codeScanner(codes: Iterable<string>): (text: string) => boolean {
  const list = [...codes].filter((c) => c !== '').map(escapeRegExp);
  if (list.length === 0) return () => false;
  const alt = `(?:${list.join('|')})`;
  const re = new RegExp(`"${alt}"|\\\\"${alt}\\\\"|=${alt}`);
  return (text) => re.test(text);
}
