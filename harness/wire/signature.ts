/**
 * X-Signature (spec: Events › Signature): "comma-separated elements of the form
 * prefix=value. Prefix t is the timestamp; prefix v is the signature", an
 * HMAC-SHA256 keyed with the API key over `${t}.${body}`.
 *
 * What the spec leaves open is accepted and reported rather than guessed: the
 * text encoding of v (hex in either case, base64 standard or url-safe) and the
 * form of t. The HMAC covers t exactly as received, whatever its form; only the
 * freshness check reads it as a time (epoch milliseconds as in the samples,
 * epoch seconds for 10 digits or fewer, decimal seconds, or ISO 8601). The body
 * is hashed as the exact bytes received.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { diagnoseMismatch } from './signature-diagnosis.js';

export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

export interface ParsedSignature {
  t: string | null;
  v: string[];
  elements: Array<[string, string]>;
  problems: string[];
}

export type SignatureEncoding = 'hex' | 'base64';
/** `timestamp-unreadable`: the signature matches, but t cannot be read as a time, so its age is unknown. */
export type SignatureVerdictCode = 'ok' | 'missing' | 'malformed' | 'no-timestamp' | 'no-signature' | 'mismatch' | 'stale' | 'future' | 'timestamp-unreadable';
export type TimestampUnit = 'ms' | 's' | 'iso';

export interface SignatureVerdict {
  ok: boolean;
  code: SignatureVerdictCode;
  encoding: SignatureEncoding | null;
  timestampMs: number | null;
  ageMs: number | null;
  detail: string;
  /** How t was read: epoch milliseconds, epoch seconds (10 digits or fewer, or decimal), or ISO 8601; null when unread. */
  timestampUnit: TimestampUnit | null;
}

const DUPLICATE_T = 't appears more than once';

/** Split on commas; each element is prefix=value (split at the first "="; base64 values may end in "="). */
export function parseSignatureHeader(header: string): ParsedSignature {
  const out: ParsedSignature = { t: null, v: [], elements: [], problems: [] };
  for (const raw of header.split(',')) {
    const element = raw.trim();
    if (element === '') {
      out.problems.push('empty element');
      continue;
    }
    const eq = element.indexOf('=');
    if (eq <= 0) {
      out.problems.push(`element without "prefix=": ${JSON.stringify(element.slice(0, 40))}`);
      continue;
    }
    const prefix = element.slice(0, eq).trim();
    const value = element.slice(eq + 1).trim();
    out.elements.push([prefix, value]);
    if (prefix === 't') {
      if (out.t !== null) out.problems.push(DUPLICATE_T);
      else out.t = value;
    } else if (prefix === 'v') {
      out.v.push(value);
    }
    // other prefixes are ignored (room for future schemes)
  }
  return out;
}

/** The HMAC over `${timestamp}.` and the body's bytes (a string body as UTF-8; bytes as they are, no copy). */
function hmac(apiKey: string, timestamp: string, body: string | Uint8Array): Buffer {
  const mac = createHmac('sha256', apiKey).update(`${timestamp}.`, 'utf8');
  return (typeof body === 'string' ? mac.update(body, 'utf8') : mac.update(body)).digest();
}

/** HMAC-SHA256 over `${timestamp}.${body}` keyed with the API key, as lower-case hex (default) or standard base64. */
export function computeSignature(apiKey: string, timestamp: string, body: string | Uint8Array, encoding: SignatureEncoding = 'hex'): string {
  return hmac(apiKey, timestamp, body).toString(encoding);
}

/** A header value as the service would send it. */
export function signatureHeader(apiKey: string, timestamp: string, body: string | Uint8Array, encoding: SignatureEncoding = 'hex'): string {
  return `t=${timestamp},v=${computeSignature(apiKey, timestamp, body, encoding)}`;
}

/** The 32 bytes a v value stands for, and its encoding; null when it is neither hex nor base64 of 32 bytes. */
export function decodeSignatureValue(value: string): { bytes: Buffer; encoding: SignatureEncoding } | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return { bytes: Buffer.from(value, 'hex'), encoding: 'hex' };
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (/^[A-Za-z0-9+/]{43}$/.test(b64)) {
    const bytes = Buffer.from(b64, 'base64');
    if (bytes.length === 32) return { bytes, encoding: 'base64' };
  }
  return null;
}

/**
 * t as a time in epoch ms, or null when it is not one lockconf can read: digits
 * (10 or fewer are epoch seconds, more are milliseconds), decimal epoch seconds
 * ("1700000000.123"), or an ISO 8601 date-time with a zone.
 */
export function timestampToMs(t: string): { ms: number; unit: TimestampUnit } | null {
  if (/^\d+$/.test(t)) return t.length <= 10 ? { ms: Number(t) * 1000, unit: 's' } : { ms: Number(t), unit: 'ms' };
  const decimal = /^(\d+)\.(\d+)$/.exec(t);
  if (decimal) {
    const value = Number(t);
    return decimal[1]!.length <= 10 ? { ms: Math.round(value * 1000), unit: 's' } : { ms: Math.round(value), unit: 'ms' };
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(t)) {
    const ms = Date.parse(t);
    if (Number.isFinite(ms)) return { ms, unit: 'iso' };
  }
  return null;
}

export interface VerifyInput {
  header: string | null | undefined;
  body: string | Uint8Array;
  apiKey: string;
  nowMs: number;
  toleranceMs?: number;
  /** Secrets a target may have keyed the HMAC with by mistake, by name, for the diagnosis of a mismatch. */
  otherKeys?: Readonly<Record<string, string>>;
}

/**
 * The verdict on an X-Signature header. The common case (one t of digits, a hex v
 * that matches, within tolerance) is settled in one pass; anything else is read in
 * full, with its diagnosis (verifySignatureInFull, which reaches the same verdict for
 * every input).
 */
export function verifySignature(opts: VerifyInput): SignatureVerdict {
  return verifyWellFormed(opts) ?? verifySignatureInFull(opts);
}

/** verifySignature with no shortcut: every header parsed, every problem named. */
export function verifySignatureInFull(opts: VerifyInput): SignatureVerdict {
  const tolerance = opts.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  const base = { encoding: null, timestampMs: null, ageMs: null, timestampUnit: null } as const;
  const verdict = (code: SignatureVerdictCode, detail: string, extra: Partial<SignatureVerdict> = {}): SignatureVerdict => ({
    ok: code === 'ok',
    code,
    ...base,
    ...extra,
    detail,
  });

  if (opts.header === null || opts.header === undefined || opts.header.trim() === '') {
    return verdict('missing', 'no X-Signature header');
  }
  const parsed = parseSignatureHeader(opts.header);
  if (parsed.t === null || parsed.t === '') return verdict('no-timestamp', `no t element${problemsText(parsed)}`);
  // A duplicated t cannot be checked: which one was signed is ambiguous, whatever v says.
  if (parsed.problems.includes(DUPLICATE_T)) return verdict('malformed', parsed.problems.join('; '));
  if (parsed.v.length === 0) return verdict('no-signature', `no v element${problemsText(parsed)}`);

  // The HMAC covers t as received; reading t as a time is the freshness check's business alone.
  const read = timestampToMs(parsed.t);
  const when = read
    ? { timestampMs: read.ms, ageMs: opts.nowMs - read.ms, timestampUnit: read.unit }
    : { timestampMs: null, ageMs: null, timestampUnit: null };

  const expected = hmac(opts.apiKey, parsed.t, opts.body);
  let encoding: SignatureEncoding | null = null;
  let decodable = 0;
  for (const v of parsed.v) {
    const decoded = decodeSignatureValue(v);
    if (!decoded) continue;
    decodable++;
    if (timingSafeEqual(decoded.bytes, expected)) {
      encoding = decoded.encoding;
      break;
    }
  }
  if (encoding === null) {
    const detail =
      decodable === 0
        ? `no v element is hex or base64 of a 32-byte HMAC (${parsed.v.length} v element(s))`
        : `no v element matches HMAC-SHA256(apiKey, t + "." + body) (${parsed.v.length} v element(s))`;
    const why = diagnoseMismatch({ t: parsed.t, v: parsed.v, body: opts.body, apiKey: opts.apiKey, ...(opts.otherKeys ? { otherKeys: opts.otherKeys } : {}) });
    return verdict('mismatch', why ? `${detail}: ${why}` : detail, when);
  }
  if (read === null) {
    return verdict('timestamp-unreadable', `signature matches (${encoding}) but t ${JSON.stringify(parsed.t.slice(0, 40))} cannot be read as a time (epoch seconds or milliseconds, decimal seconds, ISO 8601): its age is unknown`, { ...when, encoding });
  }
  const ageMs = opts.nowMs - read.ms;
  const unitText = read.unit === 's' ? ' (t read as epoch seconds)' : read.unit === 'iso' ? ' (t read as ISO 8601)' : '';
  if (ageMs > tolerance) {
    return verdict('stale', `signature matches (${encoding}) but t is ${ageMs} ms old, beyond the ${tolerance} ms tolerance${unitText}`, { ...when, encoding });
  }
  if (-ageMs > tolerance) {
    return verdict('future', `signature matches (${encoding}) but t is ${-ageMs} ms ahead, beyond the ${tolerance} ms tolerance${unitText}`, { ...when, encoding });
  }
  return verdict('ok', `signature matches (${encoding}); t is ${ageMs} ms old${unitText}`, { ...when, encoding });
}

function problemsText(p: ParsedSignature): string {
  return p.problems.length ? ` (${p.problems.join('; ')})` : '';
}

/** Digits only (the epoch seconds or milliseconds a well-formed t holds). */
function allDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The verdict of verifySignature for a well-formed header that verifies: elements
 * `prefix=value` with no empty one, exactly one t of digits, every v 64 hex digits,
 * one of them the HMAC (compared in constant time), t within the tolerance. Null for
 * anything else (missing, odd, mismatched, stale, future): the full path decides and
 * diagnoses those. Its verdict is the one the full path reaches for the same input.
 */
function verifyWellFormed(opts: VerifyInput): SignatureVerdict | null {
  const header = opts.header;
  if (typeof header !== 'string') return null;
  let t: string | null = null;
  const vs: Buffer[] = [];
  let start = 0;
  while (start <= header.length) {
    let end = header.indexOf(',', start);
    if (end === -1) end = header.length;
    const element = header.slice(start, end).trim();
    start = end + 1;
    const eq = element.indexOf('=');
    if (eq <= 0) return null;
    const prefix = element.slice(0, eq).trim();
    const value = element.slice(eq + 1).trim();
    if (prefix === 't') {
      if (t !== null || !allDigits(value)) return null;
      t = value;
    } else if (prefix === 'v') {
      if (value.length !== 64) return null;
      const bytes = Buffer.from(value, 'hex');
      // Buffer.from stops at the first character that is not hex: 32 bytes means 64 hex digits.
      if (bytes.length !== 32) return null;
      vs.push(bytes);
    }
  }
  if (t === null || vs.length === 0) return null;
  const expected = hmac(opts.apiKey, t, opts.body);
  let match = false;
  for (const v of vs) {
    if (timingSafeEqual(v, expected)) {
      match = true;
      break;
    }
  }
  if (!match) return null;
  const seconds = t.length <= 10;
  const timestampMs = seconds ? Number(t) * 1000 : Number(t);
  const ageMs = opts.nowMs - timestampMs;
  const tolerance = opts.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  if (ageMs > tolerance || -ageMs > tolerance) return null;
  return {
    ok: true,
    code: 'ok',
    encoding: 'hex',
    timestampMs,
    ageMs,
    timestampUnit: seconds ? 's' : 'ms',
    detail: `signature matches (hex); t is ${ageMs} ms old${seconds ? ' (t read as epoch seconds)' : ''}`,
  };
}
