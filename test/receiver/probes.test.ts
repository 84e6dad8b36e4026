/**
 * The adversarial probes of receiver mode (harness/receiver/probes.ts): each is one
 * change away from a genuine delivery, at the place its slice names, and the
 * run's seed draws the same positions again (replay).
 */
import { describe, expect, it } from 'vitest';
import { alteredV, bodyByteProbe, bodyTimes, wrongKey, bodyKeyProbe, lastMember, breachedHeader, disguisedHeader, drawIndex, jsonPositions, normalizationProbe, rawLayoutBody, surroundProbe } from '../../harness/receiver/probes.js';
import { declaredValues } from '../../harness/catalog/slices/index.js';
import { lockNameChanged, operationApp } from '../../suites/receiver/support/events.js';

const BODY = JSON.stringify(operationApp(1_700_000_000_000));
const V = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);

/** How many bytes two UTF-8 texts of the same length differ in. */
function bytesChanged(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  expect(y.length).toBe(x.length);
  return [...x].filter((byte, i) => byte !== y[i]).length;
}

describe('the probe domains', () => {
  it('draw the same index from the same seed and salt, and spread over seeds', () => {
    expect(drawIndex(7, 'a', 100)).toBe(drawIndex(7, 'a', 100));
    const drawn = new Set(Array.from({ length: 20 }, (_, seed) => drawIndex(seed, 'a', 1000)));
    expect(drawn.size).toBeGreaterThan(10);
    expect(() => drawIndex(1, 'a', 0)).toThrow();
  });

  it('classify a JSON text: characters inside strings, digits of numbers', () => {
    const at = jsonPositions('{"a":"x\\"1","n":12}');
    expect(at.insideString.map((i) => '{"a":"x\\"1","n":12}'[i])).toEqual(['a', 'x', '1', 'n']);
    expect(at.numberDigit.map((i) => '{"a":"x\\"1","n":12}'[i])).toEqual(['1', '2']);
  });

  it('change exactly one byte of the body, at the edge or class each body-byte slice names', () => {
    for (const slice of declaredValues('RECEIVER-REJECTS-TAMPERED-BODY', 'body-byte')) {
      const probe = bodyByteProbe(BODY, slice, 11);
      expect(bytesChanged(BODY, probe.body), slice).toBe(1);
      expect(probe.body, slice).not.toBe(BODY);
      expect(bodyByteProbe(BODY, slice, 11), 'replayed with the same seed').toEqual(probe);
    }
    for (let seed = 0; seed < 50; seed++) {
      for (const slice of declaredValues('RECEIVER-REJECTS-TAMPERED-BODY', 'body-byte')) expect(bytesChanged(BODY, bodyByteProbe(BODY, slice, seed).body), `${slice}, seed ${seed}`).toBe(1);
      for (const slice of declaredValues('RECEIVER-REJECTS-ALTERED-V', 'v-alteration')) expect(alteredV(V, slice, seed).v, `${slice}, seed ${seed}`).not.toBe(V);
    }
    expect(bodyByteProbe(BODY, 'first', 1).position).toBe(0);
    expect(bodyByteProbe(BODY, 'last', 1).position).toBe(BODY.length - 1);
    const digit = bodyByteProbe(BODY, 'digit-of-number', 3);
    expect(JSON.parse(digit.body), 'a digit changed leaves valid JSON with another value').not.toEqual(JSON.parse(BODY));
    const inString = bodyByteProbe(BODY, 'inside-string', 3);
    expect(() => JSON.parse(inString.body), 'a character inside a string changed leaves valid JSON').not.toThrow();
  });

  it('add bytes around the JSON, and give the same text in the other normalization form', () => {
    for (const slice of declaredValues('RECEIVER-REJECTS-TAMPERED-BODY', 'body-surround')) {
      const sent = surroundProbe(BODY, slice);
      expect(sent.includes(BODY) && sent !== BODY, slice).toBe(true);
    }
    const body = JSON.stringify(lockNameChanged());
    for (const slice of declaredValues('RECEIVER-REJECTS-TAMPERED-BODY', 'normalization')) {
      const { signed, sent } = normalizationProbe(body, slice);
      expect(sent).not.toBe(signed);
      expect(sent.normalize('NFC')).toBe(signed.normalize('NFC'));
    }
  });

  it('add one member after signing: a repeated key changes what JSON.parse reads, a new key adds one', () => {
    const payload = operationApp(1_700_000_000_000);
    const repeated = bodyKeyProbe(payload, 'key-repeated');
    expect(repeated.signed).toBe(BODY);
    expect((JSON.parse(repeated.sent) as { Event: string }).Event).not.toBe(payload.Event);
    expect(lastMember(repeated.sent)).toEqual({ comma: BODY.length - 1, key: 'Event' });
    const added = bodyKeyProbe(payload, 'key-added');
    expect(Object.keys(JSON.parse(added.sent) as object)).toEqual([...Object.keys(payload), 'Origin']);
    expect(lastMember('{"a":{"b":1,"c":2}}')).toBeNull();
  });

  it('lay a genuine body out in each raw-layout, each a JSON text of the same value', () => {
    const body = JSON.stringify(lockNameChanged());
    for (const slice of declaredValues('RECEIVER-SIGNATURE-RAW-BODY', 'raw-layout')) {
      const laid = rawLayoutBody(body, slice, '{ "a" : 1 }');
      expect(() => JSON.parse(laid), slice).not.toThrow();
      expect([JSON.stringify(JSON.parse(laid)), laid.trim(), laid.normalize('NFC')].some((rewritten) => rewritten !== laid), slice).toBe(true);
    }
  });

  it('change v by one character, and break or disguise the elements of X-Signature', () => {
    for (const slice of declaredValues('RECEIVER-REJECTS-ALTERED-V', 'v-alteration')) {
      const altered = alteredV(V, slice, 5);
      expect(altered.v, slice).not.toBe(V);
      // One character off, or a prefix of the real signature, or the real signature with bytes after it.
      const cutOrExtended = V.startsWith(altered.v) || altered.v.startsWith(V);
      expect(Math.abs(altered.v.length - V.length) <= 2 || cutOrExtended, slice).toBe(true);
      expect(/^[0-9a-f]*$/.test(altered.v), slice).toBe(true);
      // Every decoder sees it: a lenient hex decoder (one that ignores a trailing odd digit) reads other bytes.
      expect(Buffer.from(altered.v, 'hex').equals(Buffer.from(V, 'hex')), `${slice}: a lenient hex decoder reads the real signature`).toBe(false);
    }
    expect(alteredV(V, 'last-char', 5).position).toBe(63);
    expect(alteredV(V, 'prefix-half', 5).v).toBe(V.slice(0, 32));
    expect(alteredV(V, 'prefix-one-byte-short', 5).v).toBe(V.slice(0, 62));
    expect(alteredV(V, 'prefix-one-digit', 5).v).toBe(V[0]);
    expect(alteredV(V, 'signature-doubled', 5).v).toBe(V + V);
    expect(breachedHeader('1', V, 'no-t')).toBe(`v=${V}`);
    expect(breachedHeader('1', V, 'empty-v')).toBe('t=1,v=');
    expect(disguisedHeader('1', V, '2', 'fresh-t-after')).toBe(`t=1,v=${V},t=2`);
    expect(disguisedHeader('1', V, '2', 'fresh-t-before')).toBe(`t=2,t=1,v=${V}`);
  });

  it('sign with every other secret a receiver holds, or the API key one character off', () => {
    const secrets = { apiKey: 'api-key-0123456789', clientSecret: 'client-secret-x', header: 'X-Hook', token: 'hook-token' };
    const keys = declaredValues('RECEIVER-REJECTS-WRONG-KEY', 'wrong-key').map((slice) => ({ slice, wrong: wrongKey(slice, secrets, 5) }));
    for (const { slice, wrong } of keys) {
      expect(wrong, slice).not.toBeNull();
      expect(wrong!.key, slice).not.toBe(secrets.apiKey);
    }
    const key = (slice: string) => keys.find((k) => k.slice === slice)!.wrong!;
    expect(key('webhook-token').key).toBe('hook-token');
    expect(key('custom-header-name').key).toBe('X-Hook');
    expect(key('empty-key').key).toBe('');
    expect(key('api-key-first-char').position).toBe(0);
    expect(key('api-key-last-char').position).toBe(secrets.apiKey.length - 1);
    expect(wrongKey('api-key-drawn-char', secrets, 5)).toEqual(key('api-key-drawn-char')); // the same seed, the same position
    expect(wrongKey('webhook-token', { ...secrets, token: null }, 5), 'a secret the run was not given: no probe').toBeNull();
  });

  it('carry current times in the body of a stale delivery', () => {
    const old = { Event: 'unlock', Timestamp: 1, timeStamp: 2 };
    expect(bodyTimes(old, 'fresh-timeStamp', 99)).toEqual({ Event: 'unlock', timeStamp: 99 });
    expect(bodyTimes(old, 'fresh-Timestamp', 99)).toEqual({ Event: 'unlock', Timestamp: 99 });
    expect(bodyTimes(old, 'fresh-both', 99)).toEqual({ Event: 'unlock', Timestamp: 99, timeStamp: 99 });
  });
});
