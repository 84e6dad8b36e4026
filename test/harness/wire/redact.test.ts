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

  test('prose after a scheme is no credential: a rule\'s verbatim sentence reaches the report as written', () => {
    const r = new Redactor();
    const sentence = 'client_id and client_secret must be in the body; a Basic Authorization header is ignored (any values, real or bogus, are ignored)';
    expect(r.redact(sentence)).toBe(sentence);
    expect(r.redact('a Basic header, Basic headers, a Bearer token, Bearer tokens, Basic auth')).toBe('a Basic header, Basic headers, a Bearer token, Bearer tokens, Basic auth');
    // A credential that merely starts like one of those words is still one.
    expect(r.redact('Authorization: Basic headerX0=')).toMatch(/^Authorization: Basic ‹secret#[0-9a-f]{6}›$/);
    expect(r.redact('Bearer tokens123')).toMatch(/^Bearer ‹secret#[0-9a-f]{6}›$/);
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

/**
 * The replacement the redactor made before it scanned the text itself: one regex of every
 * form of every secret (longest first), then unknown JWTs, then auth-header credentials.
 * redact() must answer exactly as it did, whatever the secrets and the text.
 */
function oneRegexRedact(secrets: ReadonlyArray<readonly [string, 'access_token' | 'code']>, text: string): string {
  const r = new Redactor();
  for (const [value, kind] of secrets) r.add(value, kind);
  const forms = new Map<string, string>();
  for (const [value] of secrets) {
    if (value.length < 4) continue;
    const b64 = Buffer.from(value, 'utf8').toString('base64');
    const all = [value, encodeURIComponent(value), new URLSearchParams([['', value]]).toString().slice(1), JSON.stringify(value).slice(1, -1), b64, b64.replace(/=+$/, ''), Buffer.from(value, 'utf8').toString('base64url')];
    for (const f of all) if (f.length >= 4 && !forms.has(f)) forms.set(f, r.label(value));
  }
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const known = [...forms.keys()].sort((a, b) => b.length - a.length).map(escape);
  const jwt = 'eyJ[A-Za-z0-9_-]{2,}\\.eyJ[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]*';
  const auth = '\\b(Basic|Bearer)(\\s+)(?!(?:Authorization|authorization|headers?|tokens?|credentials?|scheme|auth)\\b)([A-Za-z0-9+/=._~-]{4,})';
  return text.replace(new RegExp([...known, jwt, auth].join('|'), 'g'), (match: string, scheme?: string, space?: string, credential?: string) =>
    credential !== undefined ? `${scheme}${space}${forms.get(credential) ?? r.label(credential)}` : (forms.get(match) ?? r.label(match)));
}

describe('Redactor, against the one-regex replacement it replaced', () => {
  test('property: the same text out for any secrets and any text built from their pieces, JWTs and auth headers', () => {
    const piece = fc.constantFrom('eyJ', 'eyJhb', 'eyJab.eyJcd.ef', 'eyJab.eyJ', '.', '-', '_', 'ab', 'abcd', 'abcdef', 'YWJj', '%2F', '/', '+', '=', ' ',
      'Basic', 'Bearer', 'Bearer abcd', 'Basic YWJjZA==', ' Bearer eyJab.eyJcd.ef', '  ', 'x', 'é', '\n', '"');
    const secret = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(secret, fc.constantFrom('access_token' as const, 'code' as const)), { maxLength: 6 }),
        fc.array(fc.oneof(piece, secret), { maxLength: 40 }),
        (secrets, parts) => {
          const r = new Redactor();
          for (const [value, kind] of secrets) r.add(value, kind);
          // Secrets as they are and in their forms, among the pieces.
          const text = [...parts, ...secrets.flatMap(([s]) => [s, encodeURIComponent(s), Buffer.from(s).toString('base64')])].join('');
          expect(r.redact(text)).toBe(oneRegexRedact(secrets, text));
          expect(r.redact(parts.join(''))).toBe(oneRegexRedact(secrets, parts.join('')));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('a secret added after a redaction is replaced from then on; one added before keeps its label', () => {
    const r = new Redactor();
    r.add('first-secret', 'code');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
    const text = `first-secret later-secret Bearer later-secret ${jwt}`;
    expect(r.redact(text)).toBe(oneRegexRedact([['first-secret', 'code']], text));
    r.add('later-secret', 'access_token');
    expect(r.redact(text)).toBe(oneRegexRedact([['first-secret', 'code'], ['later-secret', 'access_token']], text));
    expect(r.redact(text)).toBe(`‹code#${hash6('first-secret')}› ‹access_token#${hash6('later-secret')}› Bearer ‹access_token#${hash6('later-secret')}› ‹jwt#${hash6(jwt)}›`);
  });

  test('edge cases: a form two secrets share, a credential or JWT that begins inside a replaced secret', () => {
    const cases: Array<[Array<[string, 'access_token' | 'code']>, string]> = [
      [[['abcd/', 'code'], ['abcd%2F', 'access_token']], 'abcd%2F abcd/ abcd%2F'],
      [[['x Bear', 'code']], 'x Bearer abcdef and Basic YWJjZA== then Bearer zzzz'],
      [[['x Bea', 'code']], 'x Bearer abcdef and Basic YWJjZA== then Bearer zzzz'],
      [[['k eyJab.e', 'code']], 'k eyJab.eyJcd.ef then eyJgh.eyJij.kl and Bearer qqqq'],
      [[['k ey', 'code']], 'k eyJab.eyJcd.ef then eyJgh.eyJij.kl and Bearer qqqq'],
      [[['tok Basic', 'code']], 'tok Basic YWJjZA== x Basic YWJjZA=='],
    ];
    for (const [secrets, text] of cases) {
      const r = new Redactor();
      for (const [value, kind] of secrets) r.add(value, kind);
      expect(r.redact(text), text).toBe(oneRegexRedact(secrets, text));
    }
  });
});
