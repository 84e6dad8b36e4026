/**
 * The example receiver (examples/app/receiver.ts) as an application mounts it:
 * a fastify plugin beside the app's own JSON routes, and on its own.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { startWebhookReceiver, webhookReceiver, type WebhookEvent } from '../../examples/app/receiver.js';
import { computeSignature } from '../../harness/wire/signature.js';
import { SIGNATURE_FORMS, headerInForm } from '../../harness/catalog/signature-forms.js';
import { createHmac } from 'node:crypto';
import { verifyDelivery } from '../../examples/app/receiver.js';

const KEY = 'example-test-api-key-7777';
const NOW = 1_700_000_000_000;

function signed(body: string, t = String(NOW)) {
  return { 'content-type': 'application/json', 'x-signature': `t=${t},v=${computeSignature(KEY, t, body)}`, 'x-app': 'tok-123456' };
}

describe('the example receiver', () => {
  it('mounts as a plugin without changing how the rest of the app parses JSON', async () => {
    const events: WebhookEvent[] = [];
    const app = Fastify();
    app.post('/api/echo', async (req) => ({ got: req.body }));
    await app.register(webhookReceiver({ apiKey: KEY, header: 'X-App', token: 'tok-123456', now: () => NOW, onEvent: (e) => events.push(e), path: '/hooks/lock' }));
    const body = '{ "EventType": "operation", "Event": "lock" }';
    const ok = await app.inject({ method: 'POST', url: '/hooks/lock', headers: signed(body), payload: body });
    expect(ok.statusCode).toBe(204);
    expect(events).toEqual([{ EventType: 'operation', Event: 'lock' }]);
    const echo = await app.inject({ method: 'POST', url: '/api/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect(echo.json()).toEqual({ got: { a: 1 } });
    await app.close();
  });

  it('refuses a changed body, a stale t, a wrong token, no signature, with 4xx and no secret in the answer', async () => {
    const app = Fastify();
    await app.register(webhookReceiver({ apiKey: KEY, header: 'X-App', token: 'tok-123456', now: () => NOW }));
    const body = '{"EventType":"operation"}';
    const send = (headers: Record<string, string>, payload = body) => app.inject({ method: 'POST', url: '/webhook', headers, payload });
    const answers = [
      await send(signed(body), '{"EventType":"status"}'),
      await send(signed(body, String(NOW - 6 * 60_000))),
      await send({ ...signed(body), 'x-app': 'tok-654321' }),
      await send({ 'content-type': 'application/json', 'x-app': 'tok-123456' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401, 401]);
    for (const a of answers) expect(a.body).not.toContain(KEY);
    await app.close();
  });

  it('starts on its own on 127.0.0.1', async () => {
    const running = await startWebhookReceiver({ apiKey: KEY });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
    await running.close();
  });

  it('insists on both header and token, or neither', () => {
    expect(() => webhookReceiver({ apiKey: KEY, header: 'X-App' })).toThrow(/both header and token/);
  });

  it('accepts every legal form of X-Signature, and refuses each form signed with another key', () => {
    const body = '{"EventType":"operation","Event":"lock"}';
    const sign = (key: string) => (t: string) => createHmac('sha256', key).update(`${t}.${body}`).digest();
    for (const form of SIGNATURE_FORMS) {
      const deliver = (key: string) => verifyDelivery({ headers: { 'x-signature': headerInForm(form, NOW, sign(key)).header }, rawBody: Buffer.from(body) }, { apiKey: KEY, now: () => NOW });
      expect(deliver(KEY), form.id).toEqual({ EventType: 'operation', Event: 'lock' });
      expect(() => deliver('another-key'), form.id).toThrow();
    }
  });

  it('as the legal variants hex-only and milliseconds-only, reads the layouts of X-Signature but one encoding of v, one unit of t', () => {
    const body = '{"EventType":"operation","Event":"lock"}';
    const sign = (t: string) => createHmac('sha256', KEY).update(`${t}.${body}`).digest();
    const accepts = (opts: { vEncoding?: 'lower-hex'; tUnit?: 'ms' }, formId: string) => {
      const form = SIGNATURE_FORMS.find((f) => f.id === formId)!;
      try {
        verifyDelivery({ headers: { 'x-signature': headerInForm(form, NOW, sign).header }, rawBody: Buffer.from(body) }, { apiKey: KEY, now: () => NOW, ...opts });
        return true;
      } catch {
        return false;
      }
    };
    for (const form of SIGNATURE_FORMS.filter((f) => f.kind === 'layout')) {
      expect(accepts({ vEncoding: 'lower-hex' }, form.id), form.id).toBe(true);
      expect(accepts({ tUnit: 'ms' }, form.id), form.id).toBe(true);
    }
    expect(['v-upper-hex', 'v-base64', 't-seconds'].map((id) => accepts({ vEncoding: 'lower-hex' }, id))).toEqual([false, false, true]);
    expect(['v-upper-hex', 'v-base64', 't-seconds'].map((id) => accepts({ tUnit: 'ms' }, id))).toEqual([true, true, false]);
  });

  it('as the legal variant refuses-replays, refuses (409) a delivery of the same t and body again, in any layout of X-Signature', async () => {
    const events: WebhookEvent[] = [];
    const app = Fastify();
    await app.register(webhookReceiver({ apiKey: KEY, header: 'X-App', token: 'tok-123456', now: () => NOW, refusesReplays: true, onEvent: (e) => events.push(e) }));
    const body = '{"EventType":"operation","Event":"lock"}';
    const send = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/webhook', headers, payload: body });
    const first = signed(body);
    const reordered = { ...first, 'x-signature': first['x-signature'].split(',').reverse().join(', ') };
    const later = signed(body, String(NOW + 1));
    const answers = [await send(first), await send(first), await send(reordered), await send(later)];
    expect(answers.map((a) => a.statusCode)).toEqual([204, 409, 409, 204]);
    expect(events).toHaveLength(2);
    // A forgery is refused as such (401), not as a replay.
    expect((await send({ ...first, 'x-app': 'tok-654321' })).statusCode).toBe(401);
    await app.close();
  });

  it('answers as told: another 2xx to accept, another status to refuse', async () => {
    const app = Fastify();
    await app.register(webhookReceiver({ apiKey: KEY, header: 'X-App', token: 'tok-123456', now: () => NOW, answers: { accepted: 200, refused: 403 } }));
    const body = '{"EventType":"operation"}';
    const ok = await app.inject({ method: 'POST', url: '/webhook', headers: signed(body), payload: body });
    const refused = await app.inject({ method: 'POST', url: '/webhook', headers: { ...signed(body), 'x-app': 'wrong-token-1' }, payload: body });
    expect([ok.statusCode, refused.statusCode]).toEqual([200, 403]);
    await app.close();
  });

  it('answers an accepted delivery with or without a body, as told', async () => {
    const app = Fastify();
    await app.register(webhookReceiver({ apiKey: KEY, now: () => NOW, answers: { accepted: 202, acceptedBody: false } }));
    const body = '{"EventType":"operation"}';
    const ok = await app.inject({ method: 'POST', url: '/webhook', headers: signed(body), payload: body });
    expect([ok.statusCode, ok.body]).toEqual([202, '']);
    await app.close();
  });
});
