import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Redactor } from '../../../harness/wire/redact.js';
import type { TargetProfile } from '../../../harness/contracts.js';

const hash6 = (v: string) => createHash('sha256').update(v).digest('hex').slice(0, 6);

describe('Redactor', () => {
  test('labels carry the kind and the first 6 hex of sha256, stable across calls', () => {
    const r = new Redactor();
    r.add('tok-abc-123', 'access_token');
    expect(r.label('tok-abc-123')).toBe(`‹access_token#${hash6('tok-abc-123')}›`);
    expect(r.redact('x-access-token: tok-abc-123')).toBe(`x-access-token: ‹access_token#${hash6('tok-abc-123')}›`);
    expect(r.redact('tok-abc-123 tok-abc-123')).toBe(`${r.label('tok-abc-123')} ${r.label('tok-abc-123')}`);
    // a rotated token gets another label: rotation stays visible
    r.add('tok-abc-124', 'access_token');
    expect(r.label('tok-abc-124')).not.toBe(r.label('tok-abc-123'));
  });

  test('every kind keeps its name in the label', () => {
    const r = new Redactor();
    const kinds = ['client_secret', 'api_key', 'control_token', 'access_token', 'refresh_token', 'code', 'capture_token', 'webhook_token'] as const;
    kinds.forEach((k, i) => r.add(`value-of-${k}-${i}`, k));
    for (const [i, k] of kinds.entries()) expect(r.redact(`value-of-${k}-${i}`)).toBe(`‹${k}#${hash6(`value-of-${k}-${i}`)}›`);
  });

  test('URL-encoded, form-encoded, JSON-escaped and base64 forms are replaced too', () => {
    const secret = 'p@ss w/rd+&="quoted"é';
    const r = new Redactor();
    r.add(secret, 'client_secret');
    const label = r.label(secret);
    const forms = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
    ];
    for (const form of forms) expect(r.redact(`before ${form} after`)).toBe(`before ${label} after`);
    expect(r.redact(JSON.stringify({ client_secret: secret }))).toBe(`{"client_secret":"${label}"}`);
  });

  test('values shorter than 4 characters are ignored; null and undefined too', () => {
    const r = new Redactor();
    r.add('abc', 'code');
    r.add(null, 'code');
    r.add(undefined, 'code');
    expect(r.secrets()).toEqual([]);
    expect(r.redact('abc')).toBe('abc');
  });

  test('longest secret first: a secret containing another is replaced whole', () => {
    const r = new Redactor();
    r.add('abcd', 'code');
    r.add('abcdefgh', 'refresh_token');
    expect(r.redact('abcdefgh abcd')).toBe(`${r.label('abcdefgh')} ${r.label('abcd')}`);
  });

  test('Basic and Bearer credentials and unknown JWTs are redacted', () => {
    const r = new Redactor();
    const basic = Buffer.from('client:secret-value').toString('base64');
    expect(r.redact(`authorization: Basic ${basic}`)).toMatch(/^authorization: Basic ‹secret#[0-9a-f]{6}›$/);
    expect(r.redact('Authorization: Bearer abc.def-ghi')).toMatch(/Bearer ‹secret#[0-9a-f]{6}›$/);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
    expect(r.redact(`token=${jwt}&x=1`)).toBe(`token=‹jwt#${hash6(jwt)}›&x=1`);
    r.add(jwt, 'access_token');
    expect(r.redact(jwt)).toBe(`‹access_token#${hash6(jwt)}›`);
  });

  test('fromProfile knows the client secret, API key and control token', () => {
    const p = { clientSecret: 'the-client-secret', apiKey: 'the-api-key', controlToken: 'the-control-token' } as TargetProfile;
    const r = Redactor.fromProfile(p);
    expect(r.secrets().sort()).toEqual(['the-api-key', 'the-client-secret', 'the-control-token']);
    const out = r.redact('the-client-secret the-api-key the-control-token');
    expect(out).toMatch(/^‹client_secret#\w{6}› ‹api_key#\w{6}› ‹control_token#\w{6}›$/);
  });

  test('property: no registered secret survives in text that embeds it, in any of its forms', () => {
    const secret = fc.string({ minLength: 4, maxLength: 40, unit: 'grapheme' }).filter((s) => !/[\s|]/.test(s));
    const filler = fc.string({ maxLength: 20, unit: fc.constantFrom(' ', '\n', '|', '\t') });
    fc.assert(
      fc.property(fc.uniqueArray(secret, { minLength: 1, maxLength: 5 }), filler, (secrets, gap) => {
        const r = new Redactor();
        for (const s of secrets) r.add(s, 'access_token');
        const text = secrets.flatMap((s) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]).join(gap || '|');
        const out = r.redact(text).replace(/‹[a-z_]+#[0-9a-f]{6}›/g, '|');
        for (const s of secrets) expect(out).not.toContain(s);
      }),
    );
  });
});
