/**
 * What a receiver run reads before it starts (harness/receiver/settings.ts) and
 * the deliveries it sends (harness/receiver/deliveries.ts): checked without a run.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReceiverUrl, loadReceiverSettings } from '../../harness/receiver/settings.js';
import { deliveryHeaders, signatureValue, statusClass } from '../../harness/receiver/deliveries.js';
import { computeSignature, verifySignature } from '../../harness/wire/signature.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

const KEY = 'settings-test-api-key-123456';
let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('receiver-settings');
});
afterAll(async () => {
  await removeTmpDir(dir);
});

describe('the receiver URL', () => {
  it('takes http and https URLs on IP literals and localhost', () => {
    expect(checkReceiverUrl('http://127.0.0.1:8080/hooks', { explicit: false })).toBe('http://127.0.0.1:8080/hooks');
    expect(checkReceiverUrl('http://[::1]:8080/', { explicit: false })).toBe('http://[::1]:8080/');
    expect(checkReceiverUrl('https://localhost/hooks', { explicit: false })).toBe('https://localhost/hooks');
  });

  it('refuses a host name unless the user named it on the command line', () => {
    expect(() => checkReceiverUrl('https://app.example.test/hooks', { explicit: false })).toThrow(/is a name, not an IP literal/);
    expect(checkReceiverUrl('https://app.example.test/hooks', { explicit: true })).toBe('https://app.example.test/hooks');
  });

  it('refuses what is not an http URL, and credentials in the URL', () => {
    expect(() => checkReceiverUrl('not a url', { explicit: true })).toThrow(/is not a URL/);
    expect(() => checkReceiverUrl('ftp://127.0.0.1/', { explicit: true })).toThrow(/http or https/);
    expect(() => checkReceiverUrl('http://u:p@127.0.0.1/', { explicit: true })).toThrow(/credentials/);
  });
});

describe('the signing values', () => {
  const url = 'http://127.0.0.1:9/hook';

  it('needs LOCKCONF_API_KEY, and says so without echoing any value', async () => {
    const err = await loadReceiverSettings({ url, explicit: true, env: { LOCKCONF_WEBHOOK_HEADER: 'X-A', LOCKCONF_WEBHOOK_TOKEN: 'tok-secret-99' } }).catch((e: unknown) => e as Error);
    expect((err as { code?: string }).code).toBe('ERR_PROFILE_INVALID');
    expect((err as Error).message).toMatch(/^LOCKCONF_API_KEY is not set/);
    expect((err as Error).message).not.toContain('tok-secret-99');
  });

  it('takes the header and token together or not at all', async () => {
    await expect(loadReceiverSettings({ url, explicit: true, env: { LOCKCONF_API_KEY: KEY, LOCKCONF_WEBHOOK_HEADER: 'X-A' } })).rejects.toThrow(/go together/);
    const none = await loadReceiverSettings({ url, explicit: true, env: { LOCKCONF_API_KEY: KEY } });
    expect([none.header, none.token]).toEqual([null, null]);
  });

  it('reads a --target file with the same fields; the environment wins field by field', async () => {
    const file = join(dir, 'receiver.json');
    await writeFile(file, JSON.stringify({ apiKey: 'from-file-key-0000', webhookHeader: 'X-From-File', webhookToken: 'file-token-1111', clientSecret: 'file-secret-2222' }));
    const s = await loadReceiverSettings({ url, explicit: true, env: { LOCKCONF_API_KEY: KEY }, file });
    expect(s).toEqual({ url, apiKey: KEY, header: 'X-From-File', token: 'file-token-1111', clientId: null, clientSecret: 'file-secret-2222' });
  });

  it('refuses a custom header name every delivery already carries', async () => {
    await expect(loadReceiverSettings({ url, explicit: true, env: { LOCKCONF_API_KEY: KEY, LOCKCONF_WEBHOOK_HEADER: 'X-Signature', LOCKCONF_WEBHOOK_TOKEN: 't-1234567' } })).rejects.toThrow(/already carries/);
  });
});

describe('deliveries', () => {
  const settings = { url: 'http://127.0.0.1:9/', apiKey: KEY, header: 'X-App', token: 'app-token-1234', clientId: null, clientSecret: null };
  const body = '{"EventType":"operation"}';

  it('are signed as the service signs them: t=<ms>,v=<hex HMAC of "t.body"> with the API key, plus the custom header', () => {
    const h = deliveryHeaders(settings, body, {}, 1_700_000_000_000);
    expect(h['content-type']).toBe('application/json');
    expect(h['x-app']).toBe('app-token-1234');
    expect(h['x-signature']).toBe(`t=1700000000000,v=${computeSignature(KEY, '1700000000000', body)}`);
    expect(verifySignature({ header: h['x-signature'], body, apiKey: KEY, nowMs: 1_700_000_000_000 }).code).toBe('ok');
  });

  it('are forged one thing at a time', () => {
    const now = 1_700_000_000_000;
    const verdict = (h: Record<string, string>, b = body) => verifySignature({ header: h['x-signature'], body: b, apiKey: KEY, nowMs: now }).code;
    expect(verdict(deliveryHeaders(settings, body, { key: 'another-key-55555555' }, now))).toBe('mismatch');
    expect(verdict(deliveryHeaders(settings, body, { bodyOnly: true }, now))).toBe('mismatch');
    expect(verdict(deliveryHeaders(settings, body, { signedT: String(now - 1) }, now))).toBe('mismatch');
    expect(verdict(deliveryHeaders(settings, `${body} `, { signedBody: body }, now), `${body} `)).toBe('mismatch');
    expect(verdict(deliveryHeaders(settings, body, { t: String(now - 86_400_000) }, now))).toBe('stale');
    expect(deliveryHeaders(settings, body, { signatureHeader: null }, now)['x-signature']).toBeUndefined();
    expect(deliveryHeaders(settings, body, { customToken: null }, now)['x-app']).toBeUndefined();
    expect(signatureValue(KEY, '1', body, { encoding: 'HEX' })).toBe(computeSignature(KEY, '1', body).toUpperCase());
  });

  it('are judged by the class of the answer', () => {
    expect([statusClass(204), statusClass(401), statusClass(302), statusClass(null)]).toEqual(['2xx', '4xx', '3xx', 'no answer']);
  });
});
