/**
 * Deliveries as the service sends them (spec: Events › Delivery and Signature),
 * and the forgeries a receiver must tell apart from them. One POST per event,
 * a JSON body, Content-Type application/json, X-Signature `t=<ms>,v=<hex HMAC
 * of "t.body" keyed with the API key>` (or any legal form of it: `form`, from
 * harness/catalog/signature-forms.ts), and the registration's custom header.
 * Every exchange goes through the test's HttpClient, so it is logged, redacted,
 * as evidence; redirects are never followed.
 */
import { createHmac } from 'node:crypto';
import { computeSignature, type SignatureEncoding } from '../wire/signature.js';
import { signatureForm } from '../catalog/signature-forms.js';
import { isLockconfError } from '../run/errors.js';
import type { HttpClientLike } from '../contracts.js';
import type { ReceiverSettings } from './settings.js';

/** How a delivery departs from the genuine one. Everything left out is as the service sends it. */
export interface DeliveryOptions {
  /** The legal X-Signature form (harness/catalog/signature-forms.ts) of t, v and the header (default: plain). */
  form?: string;
  /** The time t stands for, epoch ms (default: now), written in the form's unit. */
  at?: number;
  /** The t element sent, as is (default: the form's t of `at`). */
  t?: string;
  /** The t the signature is computed over (default: the t sent). */
  signedT?: string;
  /** The body signed (default: the body sent). */
  signedBody?: string;
  /** The key signed with (default: the API key). */
  key?: string;
  /** Encoding of v (default hex). */
  encoding?: SignatureEncoding | 'HEX';
  /** v as the HMAC of the body alone (no t, no dot). */
  bodyOnly?: boolean;
  /** Build the X-Signature value from t and v yourself; null leaves the header out. */
  signatureHeader?: ((t: string, v: string) => string) | null;
  /** The custom header's value; null leaves it out (default: the registered token). */
  customToken?: string | null;
  /** The Content-Type sent (default: application/json). */
  contentType?: string;
}

export interface DeliveryResult {
  /** The receiver's status, or null when it did not answer (connection closed, timeout). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** What was sent, to send it again (a replay). */
  sent: { headers: Record<string, string>; body: string };
}

export const DELIVERY_TIMEOUT_MS = 10_000;

/** "2xx" when the receiver accepted, "4xx"/"5xx"/"3xx" otherwise, "no answer" when it did not answer. */
export function statusClass(status: number | null): string {
  return status === null ? 'no answer' : `${Math.floor(status / 100)}xx`;
}

export function signatureValue(key: string, t: string, body: string, opts: Pick<DeliveryOptions, 'encoding' | 'bodyOnly'> = {}): string {
  const encoding = opts.encoding === 'HEX' ? 'hex' : (opts.encoding ?? 'hex');
  const v = opts.bodyOnly
    ? createHmac('sha256', key).update(body, 'utf8').digest(encoding)
    : computeSignature(key, t, body, encoding);
  return opts.encoding === 'HEX' ? v.toUpperCase() : v;
}

/** The 32 HMAC bytes of a delivery (over "t." and the body, or the body alone). */
function mac(key: string, t: string, body: string, bodyOnly: boolean): Buffer {
  return Buffer.from(signatureValue(key, t, body, { bodyOnly, encoding: 'hex' }), 'hex');
}

/** The headers of a delivery of `body`, signed (or forged) as the options say. */
export function deliveryHeaders(settings: ReceiverSettings, body: string, opts: DeliveryOptions = {}, nowMs = Date.now()): Record<string, string> {
  const form = signatureForm(opts.form ?? 'plain');
  const t = opts.t ?? form.t(opts.at ?? nowMs);
  const bytes = mac(opts.key ?? settings.apiKey, opts.signedT ?? t, opts.signedBody ?? body, opts.bodyOnly ?? false);
  const v = opts.encoding ? signatureValue(opts.key ?? settings.apiKey, opts.signedT ?? t, opts.signedBody ?? body, opts) : form.v(bytes);
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json' };
  if (opts.signatureHeader !== null) headers['x-signature'] = opts.signatureHeader ? opts.signatureHeader(t, v) : form.header(t, v);
  if (settings.header) {
    const token = opts.customToken === undefined ? settings.token : opts.customToken;
    if (token !== null) headers[settings.header.toLowerCase()] = token;
  }
  return headers;
}

/** POST the body with these headers to the receiver; a receiver that does not answer is a result, not an error. */
export async function post(http: HttpClientLike, url: string, headers: Record<string, string>, body: string): Promise<DeliveryResult> {
  const t0 = performance.now();
  try {
    const res = await http.request({ method: 'POST', url, headers, body, timeoutMs: DELIVERY_TIMEOUT_MS });
    return { status: res.status, error: null, durationMs: Math.round(res.durationMs), sent: { headers, body } };
  } catch (err) {
    if (!isLockconfError(err, 'ERR_TARGET_UNREACHABLE')) throw err;
    return { status: null, error: err.message, durationMs: Math.round(performance.now() - t0), sent: { headers, body } };
  }
}

/** One delivery of `event` (an object, serialized as the service would, or the exact body text). */
export async function deliver(
  http: HttpClientLike,
  settings: ReceiverSettings,
  event: object | string,
  opts: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  return post(http, settings.url, deliveryHeaders(settings, body, opts), body);
}
