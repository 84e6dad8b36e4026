/**
 * Adversarial probes of a webhook receiver (issue 34): the ways a delivery can
 * differ from a genuine one by one byte, one element or one character, each a
 * domain with named edges and draws from the run's seed (the values are declared
 * as slices in harness/catalog/slices/receiver.ts). The same seed draws the same
 * positions: a run is replayed with --seed. Pure functions of text: the suites
 * (suites/receiver/probes.test.ts) sign, send and judge what they build here.
 */
import fc from 'fast-check';

/** An index in [0, count) drawn from the run's seed, one per probe (the salt names it): the same seed, the same index. */
export function drawIndex(seed: number, salt: string, count: number): number {
  if (count <= 0) throw new Error(`no position to draw for ${salt}`);
  let h = 0x811c9dc5; // FNV-1a of the salt: each probe draws from a stream of its own
  for (const ch of salt) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return fc.sample(fc.nat({ max: count - 1 }), { seed: (seed ^ h) | 0, numRuns: 1 })[0]!;
}

/** The positions of a JSON text by what they hold: ASCII characters inside strings, digits of numbers, every ASCII character. */
export interface JsonPositions {
  insideString: number[];
  numberDigit: number[];
  ascii: number[];
}

/**
 * Classifies every character of a JSON text. Only ASCII characters are offered:
 * one byte each in UTF-8, so changing one changes exactly one byte of the body
 * (a byte inside a multi-byte sequence would make the body invalid UTF-8, another probe).
 */
export function jsonPositions(text: string): JsonPositions {
  const out: JsonPositions = { insideString: [], numberDigit: [], ascii: [] };
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const ascii = ch.charCodeAt(0) < 0x80;
    if (ascii) out.ascii.push(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      else if (ascii && /[A-Za-z0-9]/.test(ch)) out.insideString.push(i);
    } else if (ch === '"') inString = true;
    else if (/[0-9]/.test(ch)) out.numberDigit.push(i);
  }
  return out;
}

/** One byte changed: the character at `index` with its lowest bit flipped (a digit stays a digit, a letter a letter). */
export function flipByte(text: string, index: number): string {
  const code = text.charCodeAt(index);
  if (code >= 0x80) throw new Error(`position ${index} is not an ASCII character`);
  return text.slice(0, index) + String.fromCharCode(code ^ 1) + text.slice(index + 1);
}

/** A body with one byte changed at the position of a `body-byte` slice; the position is part of the probe (recorded). */
export function bodyByteProbe(body: string, slice: string, seed: number): { body: string; position: number; was: string; now: string } {
  const at = jsonPositions(body);
  const pick = (list: number[]) => list[drawIndex(seed, `body-byte=${slice}`, list.length)]!;
  const positions: Record<string, () => number> = {
    first: () => 0,
    last: () => body.length - 1,
    'inside-string': () => pick(at.insideString),
    'digit-of-number': () => pick(at.numberDigit),
    drawn: () => pick(at.ascii),
  };
  const position = positions[slice];
  if (!position) throw new Error(`unknown body-byte slice: ${slice}`);
  const index = position();
  const changed = flipByte(body, index);
  return { body: changed, position: index, was: body[index]!, now: changed[index]! };
}

/** The bytes a `body-surround` slice adds around the JSON text after signing. */
export function surroundProbe(body: string, slice: string): string {
  const added: Record<string, string> = { 'leading-blank': ` ${body}`, 'trailing-newline': `${body}\n` };
  const out = added[slice];
  if (out === undefined) throw new Error(`unknown body-surround slice: ${slice}`);
  return out;
}

/** The body signed and the body sent of a `normalization` slice: the same text, in NFC and NFD. */
export function normalizationProbe(body: string, slice: string): { signed: string; sent: string } {
  const nfc = body.normalize('NFC');
  const nfd = body.normalize('NFD');
  if (nfc === nfd) throw new Error('the body has no character whose normalization forms differ');
  if (slice === 'signed-nfc-sent-nfd') return { signed: nfc, sent: nfd };
  if (slice === 'signed-nfd-sent-nfc') return { signed: nfd, sent: nfc };
  throw new Error(`unknown normalization slice: ${slice}`);
}

/** A genuine body in a `raw-layout` slice's layout (signed as it is): `otherSerializer` is a JSON text no JSON.stringify writes. */
export function rawLayoutBody(body: string, slice: string, otherSerializer: string): string {
  const layouts: Record<string, () => string> = {
    'other-serializer': () => otherSerializer,
    'leading-whitespace': () => `\n \t${body}`,
    'trailing-whitespace': () => `${body}\r\n`,
    'nfd-text': () => body.normalize('NFD'),
  };
  const layout = layouts[slice];
  if (!layout) throw new Error(`unknown raw-layout slice: ${slice}`);
  return layout();
}

/** Another hex digit of the same case: the lowest bit flipped. */
function otherHexDigit(c: string): string {
  return (parseInt(c, 16) ^ 1).toString(16);
}

/**
 * v (lower-case hex) changed as a `v-alteration` slice says, in a way every decoder of v sees (a character changed
 * or the last dropped, or whole bytes appended), or cut to a prefix of the real signature (half of it, one byte
 * short, one hex digit: a receiver comparing only the bytes it got takes them); `position` is the character's index
 * where the change begins (recorded).
 */
export function alteredV(v: string, slice: string, seed: number): { v: string; position: number } {
  const at = (i: number) => ({ v: v.slice(0, i) + otherHexDigit(v[i]!) + v.slice(i + 1), position: i });
  const cut = (length: number) => ({ v: v.slice(0, length), position: length });
  const alterations: Record<string, () => { v: string; position: number }> = {
    'first-char': () => at(0),
    'last-char': () => at(v.length - 1),
    'drawn-char': () => at(1 + drawIndex(seed, 'v-alteration=drawn-char', v.length - 2)), // inside: the edges are slices of their own
    'last-char-dropped': () => cut(v.length - 1),
    'prefix-half': () => cut(v.length / 2),
    'prefix-one-byte-short': () => cut(v.length - 2),
    'prefix-one-digit': () => cut(1),
    // A whole byte (two hex digits): a lenient hex decoder ignores one trailing odd digit, and would read the real signature.
    'byte-appended': () => ({ v: `${v}00`, position: v.length }),
    // The real signature, then as many bytes again: a receiver comparing only the first 32 bytes it got takes it.
    'signature-doubled': () => ({ v: `${v}${v}`, position: v.length }),
  };
  const alter = alterations[slice];
  if (!alter) throw new Error(`unknown v-alteration slice: ${slice}`);
  return alter();
}

/** The key of a `wrong-key` slice: another secret a receiver holds, or the API key one character off (drawn from the seed, recorded). */
export function wrongKey(
  slice: string,
  secrets: { apiKey: string; clientSecret: string | null; header: string | null; token: string | null },
  seed: number,
): { key: string; position?: number } | null {
  const changed = (i: number) => ({ key: flipChar(secrets.apiKey, i), position: i });
  const keys: Record<string, () => { key: string; position?: number } | null> = {
    'client-secret': () => (secrets.clientSecret ? { key: secrets.clientSecret } : null),
    'webhook-token': () => (secrets.token ? { key: secrets.token } : null),
    'custom-header-name': () => (secrets.header ? { key: secrets.header } : null),
    'empty-key': () => ({ key: '' }),
    'api-key-first-char': () => changed(0),
    'api-key-last-char': () => changed(secrets.apiKey.length - 1),
    'api-key-drawn-char': () => changed(secrets.apiKey.length > 2 ? 1 + drawIndex(seed, 'wrong-key=api-key-drawn-char', secrets.apiKey.length - 2) : 0),
  };
  const make = keys[slice];
  if (!make) throw new Error(`unknown wrong-key slice: ${slice}`);
  const out = make();
  return out && out.key === secrets.apiKey ? null : out;
}

/** One character of a key changed: a letter or digit to another of its kind (the lowest bit flipped), anything else to "x". */
export function flipChar(key: string, index: number): string {
  const ch = key[index]!;
  const flipped = /[A-Za-z0-9]/.test(ch) && /[A-Za-z0-9]/.test(String.fromCharCode(ch.charCodeAt(0) ^ 1)) ? String.fromCharCode(ch.charCodeAt(0) ^ 1) : ch === 'x' ? 'y' : 'x';
  return key.slice(0, index) + flipped + key.slice(index + 1);
}

/** A body whose own times (timeStamp, Timestamp) are as a `body-time` slice says: both, or only one, at `freshMs`. */
export function bodyTimes(payload: Record<string, unknown>, slice: string, freshMs: number): Record<string, unknown> {
  const { timeStamp: _s, Timestamp: _t, ...rest } = payload;
  if (slice === 'fresh-timeStamp') return { ...rest, timeStamp: freshMs };
  if (slice === 'fresh-Timestamp') return { ...rest, Timestamp: freshMs };
  if (slice === 'fresh-both') return { ...rest, Timestamp: freshMs, timeStamp: freshMs };
  throw new Error(`unknown body-time slice: ${slice}`);
}

/** The X-Signature of an `element-breach` slice, from the right t and v. */
export function breachedHeader(t: string, v: string, slice: string): string | null {
  if (slice === 'no-header') return null; // no X-Signature at all
  const headers: Record<string, string> = { 'no-t': `v=${v}`, 'no-v': `t=${t}`, 'empty-v': `t=${t},v=` };
  const header = headers[slice];
  if (header === undefined) throw new Error(`unknown element-breach slice: ${slice}`);
  return header;
}

/** The X-Signature of a `stale-disguise` slice: the signed (old) t and its v, a fresh t beside them. */
export function disguisedHeader(oldT: string, v: string, freshT: string, slice: string): string {
  if (slice === 'fresh-t-after') return `t=${oldT},v=${v},t=${freshT}`;
  if (slice === 'fresh-t-before') return `t=${freshT},t=${oldT},v=${v}`;
  throw new Error(`unknown stale-disguise slice: ${slice}`);
}

/** Where the last member of a JSON object text begins (its comma) and its key, or null: the object's top level only. */
export function lastMember(text: string): { comma: number; key: string } | null {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let comma = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 1) comma = i;
  }
  if (comma < 0) return null;
  const key = /^\s*,\s*"((?:[^"\\]|\\.)*)"/.exec(text.slice(comma))?.[1];
  return key === undefined ? null : { comma, key };
}

/** The body signed and the body sent of a `body-key` slice: one member added after signing, repeating a key (JSON.parse keeps the last) or a new one. */
export function bodyKeyProbe(payload: Record<string, unknown>, slice: string): { signed: string; sent: string } {
  const signed = JSON.stringify(payload);
  const add = (key: string, value: unknown) => `${signed.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;
  if (slice === 'key-repeated') return { signed, sent: add('Event', payload.Event === 'lock' ? 'unlock' : 'lock') };
  if (slice === 'key-added') return { signed, sent: add('Origin', 'keypad') };
  throw new Error(`unknown body-key slice: ${slice}`);
}
