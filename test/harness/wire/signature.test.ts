import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  computeSignature,
  parseSignatureHeader,
  signatureHeader,
  verifySignature,
  verifySignatureInFull,
} from '../../../harness/wire/signature.js';
import { buildVectors, VECTORS_PATH, vectorsJson, type VectorFile } from './generate-vectors.js';

const published = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as VectorFile;
const bodyOf = (v: VectorFile['vectors'][number]) => (v.bodyBase64 !== undefined ? Buffer.from(v.bodyBase64, 'base64') : v.body ?? '');

describe('published signature vectors (suites/vectors/signatures.json)', () => {
  test('the committed file is exactly what the generator produces', () => {
    expect(readFileSync(VECTORS_PATH, 'utf8')).toBe(vectorsJson());
    expect(published).toEqual(buildVectors());
  });

  test('cover the cases the project promises', () => {
    const names = published.vectors.map((v) => v.name);
    for (const n of ['hex-lower', 'hex-upper', 'base64', 'unicode-body', 'empty-body', 'whitespace-compact-body-pretty-signature',
      'several-v-wrong-first', 'reversed-element-order', 'unknown-prefix-ignored', 'wrong-key', 'signature-over-body-alone',
      'stale-6-minutes', 'fresh-4m59s', 'future-6-minutes', 'missing-t', 'missing-v', 'semicolon-separators']) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  test.each(published.vectors.map((v) => [v.name, v] as const))('%s: expected signature recomputes', (_name, v) => {
    const mac = createHmac('sha256', v.apiKey).update(Buffer.concat([Buffer.from(`${v.timestamp}.`, 'utf8'), Buffer.from(bodyOf(v))])).digest('hex');
    expect(v.expectedSignature).toBe(mac);
    expect(computeSignature(v.apiKey, v.timestamp, bodyOf(v))).toBe(mac);
  });

  test.each(published.vectors.map((v) => [v.name, v] as const))('%s: the verifier agrees', (_name, v) => {
    const r = verifySignature({ header: v.header, body: bodyOf(v), apiKey: v.apiKey, nowMs: v.nowMs, toleranceMs: v.toleranceMs });
    expect({ ok: r.ok, code: r.code, encoding: r.encoding }).toEqual({ ok: v.valid, code: v.code, encoding: v.encoding });
  });
});

describe('parseSignatureHeader', () => {
  test('splits elements, keeps every v, ignores unknown prefixes, keeps "=" inside values', () => {
    const p = parseSignatureHeader(' v=abc= , t=123,x=1,v=def');
    expect(p).toEqual({ t: '123', v: ['abc=', 'def'], elements: [['v', 'abc='], ['t', '123'], ['x', '1'], ['v', 'def']], problems: [] });
  });
  test('reports a duplicated t and elements without a prefix; t is kept as received, digits or not', () => {
    expect(parseSignatureHeader('t=1,t=2,v=a').problems).toContain('t appears more than once');
    expect(parseSignatureHeader('t=1;v=a')).toMatchObject({ t: '1;v=a', v: [], problems: [] });
    expect(parseSignatureHeader('t=2024-06-10T12:00:00Z,v=a').t).toBe('2024-06-10T12:00:00Z');
    expect(parseSignatureHeader('t=1,,garbage').problems).toHaveLength(2);
  });
});

describe('verifySignature', () => {
  test('tolerance boundaries: exactly the tolerance passes, one ms beyond fails either way', () => {
    const key = 'boundary-key';
    const now = 1_700_000_000_000;
    const at = (t: number) => verifySignature({ header: signatureHeader(key, String(t), 'x'), body: 'x', apiKey: key, nowMs: now, toleranceMs: 1000 });
    expect(at(now - 1000).code).toBe('ok');
    expect(at(now - 1001).code).toBe('stale');
    expect(at(now + 1000).code).toBe('ok');
    expect(at(now + 1001).code).toBe('future');
    expect(at(now - 1000).ageMs).toBe(1000);
  });
  test('missing header, default tolerance of 5 minutes', () => {
    expect(verifySignature({ header: undefined, body: '', apiKey: 'k', nowMs: 0 }).code).toBe('missing');
    const key = 'default-tol';
    const t = String(1_700_000_000_000);
    expect(verifySignature({ header: signatureHeader(key, t, 'b'), body: 'b', apiKey: key, nowMs: Number(t) + 299_999 }).ok).toBe(true);
    expect(verifySignature({ header: signatureHeader(key, t, 'b'), body: 'b', apiKey: key, nowMs: Number(t) + 300_001 }).code).toBe('stale');
  });
  test('a t that is not digits: the HMAC covers it as received; freshness reads decimal seconds and ISO 8601', () => {
    const key = 'non-digit-t';
    const now = Date.parse('2024-06-10T12:00:01Z');
    const at = (t: string) => verifySignature({ header: signatureHeader(key, t, 'b'), body: 'b', apiKey: key, nowMs: now });
    expect(at('1718020800.250')).toMatchObject({ ok: true, code: 'ok', timestampUnit: 's', ageMs: 750 });
    expect(at('2024-06-10T12:00:00Z')).toMatchObject({ ok: true, code: 'ok', timestampUnit: 'iso', ageMs: 1000 });
    expect(at('2024-06-10T11:50:00+00:00').code).toBe('stale');
    expect(at('not-a-time')).toMatchObject({ ok: false, code: 'timestamp-unreadable', encoding: 'hex', ageMs: null });
    expect(verifySignature({ header: `t=not-a-time,v=${computeSignature('other', 'not-a-time', 'b')}`, body: 'b', apiKey: key, nowMs: now }).code).toBe('mismatch');
    expect(verifySignature({ header: 't=,v=abc', body: 'b', apiKey: key, nowMs: now }).code).toBe('no-timestamp');
  });
  test('reports base64 and seconds', () => {
    const r = verifySignature({ header: signatureHeader('kkkk', '1700000000', 'b', 'base64'), body: 'b', apiKey: 'kkkk', nowMs: 1_700_000_001_000 });
    expect(r).toMatchObject({ ok: true, encoding: 'base64', timestampUnit: 's', timestampMs: 1_700_000_000_000, ageMs: 1000 });
  });
});

describe('the one-pass reading of a well-formed header', () => {
  test('every published vector gets the verdict the full reading gives', () => {
    for (const v of published.vectors) {
      const input = { header: v.header, body: bodyOf(v), apiKey: v.apiKey, nowMs: v.nowMs, toleranceMs: v.toleranceMs };
      expect(verifySignature(input)).toEqual(verifySignatureInFull(input));
    }
  });

  test('any header built from t, v and other elements gets the verdict the full reading gives', () => {
    const k = 'one-pass-key';
    const now = 1_700_000_000_000;
    const element = fc.oneof(
      fc.constantFrom('good-hex', 'good-HEX', 'good-base64', 'wrong-hex', 'short-hex', 'not-hex', 't-ms', 't-s', 't-iso', 't-odd', 'empty', 'no-prefix', 'other'),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 5 }), fc.integer({ min: -400_000, max: 400_000 }), fc.constantFrom('', ' '), fc.constantFrom('b', Buffer.from('b')), (parts, age, pad, body) => {
        const tMs = String(now - age);
        const tS = String(Math.floor((now - age) / 1000));
        const t = parts.includes('t-s') ? tS : parts.includes('t-iso') ? new Date(now - age).toISOString() : parts.includes('t-odd') ? 'soon' : tMs;
        const mac = computeSignature(k, t, 'b');
        const text: Record<string, string> = {
          'good-hex': `v=${mac}`,
          'good-HEX': `v=${mac.toUpperCase()}`,
          'good-base64': `v=${computeSignature(k, t, 'b', 'base64')}`,
          'wrong-hex': `v=${computeSignature('other', t, 'b')}`,
          'short-hex': `v=${mac.slice(2)}`,
          'not-hex': `v=${mac.slice(1)}z`,
          't-ms': `t=${tMs}`,
          't-s': `t=${tS}`,
          't-iso': `t=${t}`,
          't-odd': `t=${t}`,
          empty: '',
          'no-prefix': 'garbage',
          other: 'x=1',
        };
        const header = parts.map((p) => `${pad}${text[p]}${pad}`).join(',');
        const input = { header, body, apiKey: k, nowMs: now };
        expect(verifySignature(input)).toEqual(verifySignatureInFull(input));
      }),
      { numRuns: 500 },
    );
  });
});

describe('sign/verify round trips (property-based)', () => {
  const key = fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' });
  const nowMs = fc.integer({ min: 1_000_000_000_000, max: 4_000_000_000_000 });
  const body = fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.string({ maxLength: 256, unit: 'grapheme' }));
  const encoding = fc.constantFrom('hex' as const, 'base64' as const);
  const age = fc.integer({ min: -300_000, max: 300_000 });

  test('a signature made with computeSignature verifies, in both encodings', () => {
    fc.assert(
      fc.property(key, body, nowMs, age, encoding, (k, b, now, a, enc) => {
        const t = String(now - a);
        const r = verifySignature({ header: signatureHeader(k, t, b, enc), body: b, apiKey: k, nowMs: now });
        expect(r).toMatchObject({ ok: true, code: 'ok', encoding: enc, ageMs: a });
      }),
    );
  });

  test('any change to the body is rejected', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ minLength: 1, maxLength: 256 }), fc.nat(), fc.integer({ min: 1, max: 255 }), nowMs, (k, b, i, delta, now) => {
        const t = String(now);
        const header = signatureHeader(k, t, b);
        const changed = Uint8Array.from(b);
        const at = i % changed.length;
        changed[at] = (changed[at]! + delta) % 256;
        expect(verifySignature({ header, body: changed, apiKey: k, nowMs: now }).code).toBe('mismatch');
        // appending or dropping a byte too
        expect(verifySignature({ header, body: Buffer.concat([b, Buffer.from([delta])]), apiKey: k, nowMs: now }).code).toBe('mismatch');
        expect(verifySignature({ header, body: b.subarray(1), apiKey: k, nowMs: now }).code).toBe('mismatch');
      }),
    );
  });

  test('any change to the timestamp is rejected', () => {
    fc.assert(
      fc.property(key, body, nowMs, fc.integer({ min: -200_000, max: 200_000 }).filter((d) => d !== 0), (k, b, now, d) => {
        const sig = computeSignature(k, String(now), b);
        const r = verifySignature({ header: `t=${now + d},v=${sig}`, body: b, apiKey: k, nowMs: now });
        expect(r.code).toBe('mismatch');
      }),
    );
  });

  test('any change to the signature is rejected', () => {
    fc.assert(
      fc.property(key, body, nowMs, fc.nat({ max: 63 }), fc.integer({ min: 1, max: 15 }), (k, b, now, pos, delta) => {
        const sig = computeSignature(k, String(now), b);
        const digit = (parseInt(sig[pos]!, 16) + delta) % 16;
        const tampered = sig.slice(0, pos) + digit.toString(16) + sig.slice(pos + 1);
        expect(verifySignature({ header: `t=${now},v=${tampered}`, body: b, apiKey: k, nowMs: now }).code).toBe('mismatch');
      }),
    );
  });

  test('a different key is rejected', () => {
    fc.assert(
      fc.property(key, key, body, nowMs, (k1, k2, b, now) => {
        // HMAC pads keys with zero bytes, so 'a' and 'a\0' are the same key
        fc.pre(k1.replace(/\0+$/, '') !== k2.replace(/\0+$/, ''));
        const header = signatureHeader(k1, String(now), b);
        expect(verifySignature({ header, body: b, apiKey: k2, nowMs: now }).code).toBe('mismatch');
      }),
    );
  });
});
