/** A signature that does not verify says why, when a common mistake explains it. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnoseMismatch } from '../../../harness/wire/signature-diagnosis.js';
import { computeSignature, verifySignature } from '../../../harness/wire/signature.js';

const key = 'the-api-key';
const t = '1795426344';
const body = '{"LockID":"L1","Event":"unlock"}';
const hex = (k: string, text: string, algorithm = 'sha256') => createHmac(algorithm, k).update(text).digest('hex');

describe('signature mismatch diagnosis', () => {
  it('a correct signature needs no diagnosis and verifies', () => {
    const v = computeSignature(key, t, body);
    expect(verifySignature({ header: `t=${t},v=${v}`, body, apiKey: key, nowMs: Number(t) * 1000 }).code).toBe('ok');
  });

  it('names the body alone, the missing dot, the wrong key, a re-serialised body and another digest', () => {
    expect(diagnoseMismatch({ t, v: [hex(key, body)], body, apiKey: key })).toContain('body alone');
    expect(diagnoseMismatch({ t, v: [hex(key, `${t}${body}`)], body, apiKey: key })).toContain('without the "."');
    expect(diagnoseMismatch({ t, v: [hex('client-secret', `${t}.${body}`)], body, apiKey: key, otherKeys: { 'client secret': 'client-secret' } })).toBe('v is keyed with the client secret instead of the API key');
    expect(diagnoseMismatch({ t, v: [hex(key, `${t}.${JSON.stringify(JSON.parse(body), null, 2)}`)], body, apiKey: key })).toContain('re-serialised as JSON indented by 2');
    expect(diagnoseMismatch({ t, v: [hex(key, `${t}.${body}`, 'sha1')], body, apiKey: key })).toBe('v is HMAC-SHA1, not HMAC-SHA256');
    expect(diagnoseMismatch({ t, v: [hex('unknown', `${t}.${body}`)], body, apiKey: key })).toContain('another key than the API key');
  });

  it('the verifier carries the diagnosis in its detail', () => {
    const r = verifySignature({ header: `t=${t},v=${hex(key, body)}`, body, apiKey: key, nowMs: Number(t) * 1000 });
    expect(r.code).toBe('mismatch');
    expect(r.detail).toContain('"<t>." is missing');
  });
});
