/**
 * Why a webhook signature does not verify, when a common mistake explains it:
 * the HMAC over the body alone (without "<t>."), over a re-serialised body
 * instead of the bytes sent, keyed with another secret than the API key (the
 * client secret is the usual mix-up), or another digest or encoding. Used by
 * verifySignature (signature.ts) to say why, not only that, v did not match.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface MismatchInput {
  t: string;
  v: readonly string[];
  body: string | Uint8Array;
  apiKey: string;
  /** Other secrets the target may have used by mistake, by name (e.g. { 'client secret': … }). */
  otherKeys?: Readonly<Record<string, string>>;
}

function bytes(body: string | Uint8Array): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** Every byte string a v value may stand for (hex, base64, base64url), whatever its length. */
function decodings(v: string): Buffer[] {
  const out: Buffer[] = [];
  if (/^[0-9a-fA-F]+$/.test(v) && v.length % 2 === 0) out.push(Buffer.from(v, 'hex'));
  const b64 = v.replace(/-/g, '+').replace(/_/g, '/');
  if (/^[A-Za-z0-9+/]+=*$/.test(b64)) out.push(Buffer.from(b64, 'base64'));
  return out;
}

function matches(v: readonly string[], digest: Buffer): boolean {
  return v.some((value) => decodings(value).some((d) => d.length === digest.length && timingSafeEqual(d, digest)));
}

const mac = (key: string, ...parts: Buffer[]) => {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest();
};

/** A sentence naming the mistake, or null when none of the known ones explains the mismatch. */
export function diagnoseMismatch(input: MismatchInput): string | null {
  const body = bytes(input.body);
  const prefix = Buffer.from(`${input.t}.`, 'utf8');
  if (matches(input.v, mac(input.apiKey, body))) return 'v is the HMAC of the body alone: "<t>." is missing in front of it';
  if (matches(input.v, mac(input.apiKey, Buffer.from(input.t, 'utf8'), body))) return 'v is the HMAC of t and the body without the "." between them';
  for (const [label, key] of Object.entries(input.otherKeys ?? {})) {
    if (key && key !== input.apiKey && matches(input.v, mac(key, prefix, body))) return `v is keyed with the ${label} instead of the API key`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    for (const [how, text] of [['compact JSON', JSON.stringify(parsed)], ['JSON indented by 2', JSON.stringify(parsed, null, 2)], ['JSON indented by 4', JSON.stringify(parsed, null, 4)]] as const) {
      const other = Buffer.from(text, 'utf8');
      if (!other.equals(body) && matches(input.v, mac(input.apiKey, prefix, other))) {
        return `v is the HMAC of the body re-serialised as ${how}, not of the bytes sent`;
      }
    }
  }
  for (const [algorithm, size] of [['sha1', 20], ['sha512', 64]] as const) {
    if (input.v.some((value) => decodings(value).some((d) => d.length === size))) {
      if (matches(input.v, createHmac(algorithm, input.apiKey).update(prefix).update(body).digest())) return `v is HMAC-${algorithm.toUpperCase()}, not HMAC-SHA256`;
      return `v holds ${size} bytes, a ${algorithm.toUpperCase()}-sized digest, not the 32 of HMAC-SHA256`;
    }
  }
  if (input.v.some((value) => decodings(value).some((d) => d.length === 32))) {
    return 'no common mistake explains it (body alone, re-serialised JSON, another digest): the likeliest cause is another key than the API key (webhooks are signed with the API key, not the client secret)';
  }
  return null;
}
