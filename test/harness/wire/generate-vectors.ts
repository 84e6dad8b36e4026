/**
 * Generates suites/vectors/signatures.json, the published X-Signature test
 * vectors. The expected values are computed here with node:crypto directly (not
 * with harness/wire/signature.ts), so the vectors check the verifier rather than
 * echo it. test/harness/signature-vectors.test.ts rebuilds the vectors and
 * compares them with the committed file, so the file cannot rot.
 *
 *   npx tsx test/harness/wire/generate-vectors.ts            # rewrite the file
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VECTORS_PATH = fileURLToPath(new URL('../../../suites/vectors/signatures.json', import.meta.url));

export interface SignatureVector {
  name: string;
  apiKey: string;
  /** The t value as sent (digits in the samples, or whatever the header carries: the HMAC covers it as sent). */
  timestamp: string;
  /** The exact body text (UTF-8), or bodyBase64 for bytes that are not text. */
  body?: string;
  bodyBase64?: string;
  header: string;
  nowMs: number;
  toleranceMs: number;
  valid: boolean;
  /** The verdict a verifier reports (harness/wire/signature.ts codes). */
  code: 'ok' | 'missing' | 'malformed' | 'no-timestamp' | 'no-signature' | 'mismatch' | 'stale' | 'future' | 'timestamp-unreadable';
  /** The encoding of the v element that matched, or null when none did. */
  encoding: 'hex' | 'base64' | null;
  /** HMAC-SHA256(apiKey, timestamp + "." + body) in lower-case hex: the value a correct signer produces. */
  expectedSignature: string;
  why: string;
}

export interface VectorFile {
  description: string;
  vectors: SignatureVector[];
}

const KEY = 'k3y-for-lockconf-signature-vectors';
const OTHER_KEY = 'a-different-api-key-of-another-app';
const NOW = 1_718_000_000_000; // 2024-06-10T06:13:20Z, epoch ms
const TOL = 300_000;
const T = String(NOW - 1_500); // sent 1.5 s before the receiver checks

const BODY = '{"LockID":"A1B2C3D4E5F6","EventType":"operation","Event":"unlock","Device":"lock","User":{"UserID":"2f1c6a8e-5b7d-4c3a-9e21-0d4b8f6a7c15","FirstName":"Ada","LastName":"Lovelace"}}';
const BODY_PRETTY = JSON.stringify(JSON.parse(BODY), null, 2);
const UNICODE_BODY =
  '{"LockID":"0FE1D2C3B4A5","EventType":"configuration","Event":"lock_name_changed","Lock":{"Name":"Café Zürich 🔐 東京の玄関 — Ωmega"},"User":{"FirstName":"Zoë","LastName":"Nguyễn"}}';
/** Not valid UTF-8 (a lone 0xff and a truncated sequence): the HMAC covers bytes, not text. */
const BINARY_BODY = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xe2, 0x82, 0x22, 0x7d]);

function mac(key: string, t: string, body: string | Buffer): Buffer {
  return createHmac('sha256', key).update(`${t}.`, 'utf8').update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body).digest();
}
const hex = (key: string, t: string, body: string | Buffer) => mac(key, t, body).toString('hex');
const b64 = (key: string, t: string, body: string | Buffer) => mac(key, t, body).toString('base64');

type Spec = Omit<SignatureVector, 'apiKey' | 'nowMs' | 'toleranceMs' | 'expectedSignature' | 'timestamp'> &
  Partial<Pick<SignatureVector, 'apiKey' | 'nowMs' | 'toleranceMs' | 'timestamp'>>;

function vector(spec: Spec): SignatureVector {
  const apiKey = spec.apiKey ?? KEY;
  const timestamp = spec.timestamp ?? T;
  const bytes = spec.bodyBase64 !== undefined ? Buffer.from(spec.bodyBase64, 'base64') : Buffer.from(spec.body ?? '', 'utf8');
  return {
    name: spec.name,
    apiKey,
    timestamp,
    ...(spec.bodyBase64 !== undefined ? { bodyBase64: spec.bodyBase64 } : { body: spec.body ?? '' }),
    header: spec.header,
    nowMs: spec.nowMs ?? NOW,
    toleranceMs: spec.toleranceMs ?? TOL,
    valid: spec.valid,
    code: spec.code,
    encoding: spec.encoding,
    expectedSignature: hex(apiKey, timestamp, bytes),
    why: spec.why,
  };
}

export function buildVectors(): VectorFile {
  const sig = hex(KEY, T, BODY);
  const wrong = hex(KEY, T, BODY.replace('unlock', 'lock'));
  const stale = String(NOW - 6 * 60_000);
  const fresh = String(NOW - (4 * 60_000 + 59_000));
  const future = String(NOW + 6 * 60_000);
  const seconds = String(Math.floor(NOW / 1000) - 2);
  const decimalSeconds = `${Math.floor(NOW / 1000) - 2}.500`;
  const pretty = hex(KEY, T, BODY_PRETTY);

  const vectors: Spec[] = [
    { name: 'hex-lower', body: BODY, header: `t=${T},v=${sig}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'HMAC-SHA256 over "t.body" keyed with the API key, lower-case hex.' },
    { name: 'hex-upper', body: BODY, header: `t=${T},v=${sig.toUpperCase()}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'The spec does not fix the text encoding; upper-case hex is the same bytes.' },
    { name: 'base64', body: BODY, header: `t=${T},v=${b64(KEY, T, BODY)}`, valid: true, code: 'ok', encoding: 'base64',
      why: 'Standard base64 (with padding) of the same 32-byte HMAC.' },
    { name: 'base64-url-safe', body: BODY, header: `t=${T},v=${mac(KEY, T, BODY).toString('base64url')}`, valid: true, code: 'ok', encoding: 'base64',
      why: 'URL-safe base64 without padding of the same HMAC.' },
    { name: 'unicode-body', body: UNICODE_BODY, header: `t=${T},v=${hex(KEY, T, UNICODE_BODY)}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'Emoji, accents and CJK: the HMAC covers the UTF-8 bytes of the body exactly as sent.' },
    { name: 'empty-body', body: '', header: `t=${T},v=${hex(KEY, T, '')}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'An empty body signs the payload string "t." alone.' },
    { name: 'non-utf8-bytes', bodyBase64: BINARY_BODY.toString('base64'), header: `t=${T},v=${hex(KEY, T, BINARY_BODY)}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'The body bytes are not valid UTF-8: a verifier must hash the raw bytes, not a decoded-and-re-encoded string.' },
    { name: 'whitespace-compact-body-pretty-signature', body: BODY, header: `t=${T},v=${pretty}`, valid: false, code: 'mismatch', encoding: null,
      why: 'The signature was made over the same JSON with different spacing: a verifier must use the exact body bytes, never re-serialise.' },
    { name: 'whitespace-pretty-body-own-signature', body: BODY_PRETTY, header: `t=${T},v=${pretty}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'The indented body with the signature over exactly those bytes.' },
    { name: 'whitespace-pretty-body-compact-signature', body: BODY_PRETTY, header: `t=${T},v=${sig}`, valid: false, code: 'mismatch', encoding: null,
      why: 'The converse: the compact body\'s signature does not verify the indented body.' },
    { name: 'several-v-wrong-first', body: BODY, header: `t=${T},v=${wrong},v=${sig}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'Several v elements: the signature is valid when any one of them matches.' },
    { name: 'several-v-right-first', body: BODY, header: `t=${T},v=${sig},v=${wrong}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'Several v elements, the matching one first.' },
    { name: 'several-v-none-right', body: BODY, header: `t=${T},v=${wrong},v=${hex(OTHER_KEY, T, BODY)}`, valid: false, code: 'mismatch', encoding: null,
      why: 'Several v elements and none matches.' },
    { name: 'reversed-element-order', body: BODY, header: `v=${sig},t=${T}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'Element order is not fixed: v before t.' },
    { name: 'unknown-prefix-ignored', body: BODY, header: `t=${T},v0=${wrong},scheme=hmac-sha256,v=${sig}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'Elements with other prefixes are ignored.' },
    { name: 'whitespace-around-elements', body: BODY, header: ` t=${T} ,  v=${sig} `, valid: true, code: 'ok', encoding: 'hex',
      why: 'Spaces around elements are tolerated.' },
    { name: 'timestamp-in-seconds', timestamp: seconds, body: BODY, header: `t=${seconds},v=${hex(KEY, seconds, BODY)}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'The samples use epoch milliseconds; a 10-digit t is read as epoch seconds (the HMAC covers t as sent).' },
    { name: 'timestamp-decimal-seconds', timestamp: decimalSeconds, body: BODY, header: `t=${decimalSeconds},v=${hex(KEY, decimalSeconds, BODY)}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'The form of t is not fixed: decimal epoch seconds are read for freshness; the HMAC covers t exactly as sent.' },
    { name: 'timestamp-unreadable', timestamp: 'yesterday', body: BODY, header: `t=yesterday,v=${hex(KEY, 'yesterday', BODY)}`, valid: false, code: 'timestamp-unreadable', encoding: 'hex',
      why: 'The signature matches over t as sent, but t cannot be read as a time, so its age cannot be checked.' },
    { name: 'wrong-key', body: BODY, header: `t=${T},v=${hex(OTHER_KEY, T, BODY)}`, valid: false, code: 'mismatch', encoding: null,
      why: 'Keyed with another secret instead of the API key.' },
    { name: 'signature-over-body-alone', body: BODY, header: `t=${T},v=${createHmac('sha256', KEY).update(BODY, 'utf8').digest('hex')}`, valid: false, code: 'mismatch', encoding: null,
      why: 'The HMAC covers the body alone, without "t." in front.' },
    { name: 'body-tampered', body: BODY.replace('unlock', 'unlatch'), header: `t=${T},v=${sig}`, valid: false, code: 'mismatch', encoding: null,
      why: 'The body was changed after signing.' },
    { name: 'timestamp-tampered', body: BODY, header: `t=${Number(T) + 1},v=${sig}`, valid: false, code: 'mismatch', encoding: null,
      why: 'The timestamp was changed after signing (it is part of the signed payload).' },
    { name: 'stale-6-minutes', timestamp: stale, body: BODY, header: `t=${stale},v=${hex(KEY, stale, BODY)}`, valid: false, code: 'stale', encoding: 'hex',
      why: 'A correct signature whose timestamp is 6 minutes old, beyond the recommended 5-minute tolerance: rejected.' },
    { name: 'fresh-4m59s', timestamp: fresh, body: BODY, header: `t=${fresh},v=${hex(KEY, fresh, BODY)}`, valid: true, code: 'ok', encoding: 'hex',
      why: 'A timestamp 4 minutes 59 seconds old is inside the 5-minute tolerance.' },
    { name: 'future-6-minutes', timestamp: future, body: BODY, header: `t=${future},v=${hex(KEY, future, BODY)}`, valid: false, code: 'future', encoding: 'hex',
      why: 'A timestamp 6 minutes ahead of the receiver\'s clock, beyond the tolerance.' },
    { name: 'missing-t', body: BODY, header: `v=${sig}`, valid: false, code: 'no-timestamp', encoding: null,
      why: 'Without t the payload string cannot be formed.' },
    { name: 'missing-v', body: BODY, header: `t=${T}`, valid: false, code: 'no-signature', encoding: null,
      why: 'No signature element.' },
    { name: 'duplicate-t', body: BODY, header: `t=${T},t=${Number(T) + 5},v=${sig}`, valid: false, code: 'malformed', encoding: null,
      why: 'Two t elements: which one was signed is ambiguous.' },
    { name: 'semicolon-separators', body: BODY, header: `t=${T};v=${sig}`, valid: false, code: 'no-signature', encoding: null,
      why: 'Elements are comma-separated; with semicolons the header is a single t element (holding the rest of the header) and no v element.' },
    { name: 'empty-header', body: BODY, header: '', valid: false, code: 'missing', encoding: null,
      why: 'An empty X-Signature is as good as none.' },
  ];
  return {
    description:
      'X-Signature test vectors for the Lock Access Service (lockconf). payload_string = timestamp + "." + body bytes; ' +
      'signature = HMAC-SHA256(key = apiKey, payload_string). "body" is the exact UTF-8 text, "bodyBase64" the exact bytes when they are not text. ' +
      'A vector is valid when the header verifies at nowMs with toleranceMs; "code" and "encoding" are what lockconf\'s verifier reports; ' +
      '"expectedSignature" is the correct signature in lower-case hex. Generated by test/harness/wire/generate-vectors.ts.',
    vectors: vectors.map(vector),
  };
}

export function vectorsJson(): string {
  return `${JSON.stringify(buildVectors(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(VECTORS_PATH, vectorsJson());
  console.log(`wrote ${VECTORS_PATH}`);
}
