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

/**
 * The signatureLayouts variant: the legal layouts of X-Signature the spec leaves open
 * ("comma-separated elements of the form prefix=value", no order, other prefixes not
 * excluded, "Text encoding of the signature value: not shown"), one delivery after the
 * other. The mock's own copy of the forms of harness/catalog/signature-forms.ts (the
 * mock never imports the harness; test/mock/signature-layouts.test.ts keeps the two
 * equal). Base64 and t in seconds have variants of their own.
 */
export const SIGNATURE_LAYOUTS: ReadonlyArray<{ id: string; header: (t: string, v: string) => string }> = [
  { id: 'plain', header: (t, v) => `t=${t},v=${v}` },
  { id: 'v-first', header: (t, v) => `v=${v},t=${t}` },
  { id: 'space-after-comma', header: (t, v) => `t=${t}, v=${v}` },
  { id: 'spaces-around-comma', header: (t, v) => `t=${t} , v=${v}` },
  { id: 'extra-element-last', header: (t, v) => `t=${t},v=${v},kid=1` },
  { id: 'extra-element-first', header: (t, v) => `kid=1,t=${t},v=${v}` },
  { id: 'v-upper-hex', header: (t, v) => `t=${t},v=${/^[0-9a-f]+$/.test(v) ? v.toUpperCase() : v}` }, // hex only: base64 has its own variant
];
