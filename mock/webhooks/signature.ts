/**
 * X-Signature (spec: Signature): `t=<epoch ms>,v=<HMAC-SHA256 of "t.body">`, keyed with
 * the API key; v is hex by default (the spec does not show the encoding, so the
 * signatureEncoding variant offers base64).
 */
import { createHmac } from 'node:crypto';

export function hmacSha256(key: string, payload: string, encoding: 'hex' | 'base64'): string {
  return createHmac('sha256', key).update(payload, 'utf8').digest(encoding);
}

export function signatureHeader(opts: { t: string; v: string; separator?: ',' | ';' }): string {
  return `t=${opts.t}${opts.separator ?? ','}v=${opts.v}`;
}
