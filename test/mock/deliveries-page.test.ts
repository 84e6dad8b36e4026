/**
 * The delivery log and GET /deliveries (docs/mock.md): every attempt recorded
 * with where it went, the answer and the time; a bounded ring; one log line per
 * attempt; no header value, body or URL query shown; served to loopback only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockEventService } from '../../mock/events/event-service.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { DeliveryLog } from '../../mock/webhooks/delivery-log.js';
import { noAnswerWords } from '../../mock/pages/delivery-hints.js';
import { userTokens } from '../support/mock.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let mock: RunningMock;
let receiver: Receiver;
const lines: string[] = [];

async function register(path: string, accessToken: string) {
  const res = await mock.app.inject({
    method: 'POST',
    url: `/api/webhook/${mock.ctx.world.locks[0]!.lockId}`,
    headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': accessToken, 'content-type': 'application/json' },
    payload: JSON.stringify({ url: `${receiver.url}${path}?secret=app-query-secret`, method: 'POST', clientID: mock.profile.clientId, header: 'x-app', token: 'app-header-token', notificationTypes: ['operation'] }),
  });
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  mock = await createMock({ deliveryTimeoutMs: 1000, log: (line) => lines.push(line) });
  receiver = await startReceiver();
  receiver.answer('/refuses', { status: 503 });
  await register('/accepts', (await userTokens(mock, 0)).accessToken);
  await register('/refuses', (await userTokens(mock, 1)).accessToken);
  await mock.ctx.events.emit({ kind: 'operation.app', lockId: mock.ctx.world.locks[0]!.lockId, value: 'unlock' });
  await (mock.ctx.events as LockEventService).idle();
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

describe('The delivery log', () => {
  it('records each attempt: event, receiver, status, time, size, signature and header name', async () => {
    const records = mock.ctx.deliveryLog!.records();
    expect(records).toHaveLength(2);
    const byPath = Object.fromEntries(records.map((r) => [new URL(r.url.replace('?…', '')).pathname, r]));
    expect(byPath['/accepts']).toMatchObject({ status: 200, outcome: 'ok', eventType: 'operation', event: 'unlock', lockId: mock.ctx.world.locks[0]!.lockId, signed: true, customHeader: 'x-app', contentType: 'application/json' });
    expect(byPath['/refuses']).toMatchObject({ status: 503, outcome: 'refused' });
    expect(byPath['/accepts']!.durationMs).toBeGreaterThanOrEqual(0);
    expect(byPath['/accepts']!.bytes).toBeGreaterThan(50);
  });

  it('writes one log line per attempt, without the query, the header value or the signature', () => {
    const deliveryLines = lines.filter((l) => l.startsWith('webhook #'));
    expect(deliveryLines).toHaveLength(2);
    expect(deliveryLines.join('\n')).toMatch(/webhook #\d operation\/unlock → http:\/\/127\.0\.0\.1:\d+\/refuses\?…: 503 in \d+ ms/);
    for (const secret of ['app-query-secret', 'app-header-token', mock.profile.apiKey]) expect(deliveryLines.join('\n')).not.toContain(secret);
  });

  it('records an attempt that got no answer with its error code', () => {
    const log = new DeliveryLog();
    const record = log.record({ url: 'http://127.0.0.1:1/x', prepared: { body: '{}', headers: {} }, status: null, error: 'ECONNREFUSED', startedAtMs: 0, durationMs: 3.4 });
    expect(record).toMatchObject({ outcome: 'no answer', error: 'ECONNREFUSED', durationMs: 3, signed: false, customHeader: null });
  });

  it('keeps a bounded ring, newest first, and counts what it dropped', () => {
    const log = new DeliveryLog({ capacity: 3 });
    for (let i = 0; i < 5; i++) log.record({ url: `http://127.0.0.1:1/${i}`, prepared: { body: 'not json', headers: {} }, status: 200, startedAtMs: i, durationMs: 1 });
    expect(log.records().map((r) => r.seq)).toEqual([5, 4, 3]);
    expect(log.total()).toBe(5);
  });
});

describe('GET /deliveries', () => {
  it('shows every attempt in a page, without a secret', async () => {
    const res = await mock.app.inject({ method: 'GET', url: '/deliveries' });
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/data-testid="delivery"/g)).toHaveLength(2);
    expect(res.body).toContain('/accepts?…');
    expect(res.body).toContain('503');
    for (const secret of ['app-query-secret', 'app-header-token', mock.profile.apiKey, mock.profile.controlToken!]) expect(res.body).not.toContain(secret);
  });

  it('answers the same records as JSON', async () => {
    const res = await mock.app.inject({ method: 'GET', url: '/deliveries.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, capacity: 500 });
    expect(res.json().deliveries).toHaveLength(2);
  });

  it('is served to this machine only', async () => {
    const res = await mock.app.inject({ method: 'GET', url: '/deliveries', remoteAddress: '192.0.2.7' });
    expect(res.statusCode).toBe(403);
    const json = await mock.app.inject({ method: 'GET', url: '/deliveries.json', remoteAddress: '192.0.2.7' });
    expect(json.statusCode).toBe(403);
  });

  it('says so when nothing was sent yet', async () => {
    const fresh = await createMock();
    try {
      const res = await fresh.app.inject({ method: 'GET', url: '/deliveries' });
      expect(res.body).toContain('data-testid="no-deliveries"');
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /deliveries when a receiver refuses or does not answer', () => {
  it('a 401 after the clock moved a day ahead: a hint naming the clock, how far ahead it is and the command that puts it back', async () => {
    const moved = await createMock({ deliveryTimeoutMs: 1000 });
    const refusing = await startReceiver();
    try {
      refusing.answer('/checks-t', { status: 401 });
      const token = (await userTokens(moved, 0)).accessToken;
      const lockId = moved.ctx.world.locks[0]!.lockId;
      const reg = await moved.app.inject({
        method: 'POST',
        url: `/api/webhook/${lockId}`,
        headers: { 'x-api-key': moved.profile.apiKey, 'x-access-token': token, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `${refusing.url}/checks-t`, method: 'POST', clientID: moved.profile.clientId, header: 'x-app', token: 'app-header-token', notificationTypes: ['operation'] }),
      });
      expect(reg.statusCode).toBe(200);
      moved.ctx.clock.advance(86_400_000); // curl tour step 7, without the step that puts it back
      await moved.ctx.events.emit({ kind: 'operation.app', lockId, value: 'unlock' });
      await (moved.ctx.events as LockEventService).idle();
      const page = (await moved.app.inject({ method: 'GET', url: '/deliveries' })).body;
      const hint = /<div class="error" data-testid="refusal-hint">([\s\S]*?)<\/div>/.exec(page)?.[1] ?? '';
      expect(hint).toContain('Your receiver answered 401 to 1 delivery');
      expect(hint).toMatch(/runs <strong>1 d ahead<\/strong> of real time/);
      expect(hint).toContain('{&quot;reset&quot;:true}');
      expect(hint).toContain('API key');
      for (const secret of [moved.profile.apiKey, moved.profile.controlToken!, 'app-header-token']) expect(page).not.toContain(secret);

      moved.ctx.clock.reset();
      const after = (await moved.app.inject({ method: 'GET', url: '/deliveries' })).body;
      expect(after).toContain('a delivery sent while it was moved a day ahead stays refused');
    } finally {
      await moved.close();
      await refusing.close();
    }
  });

  it('no hint while every receiver accepts or fails otherwise', async () => {
    const res = await mock.app.inject({ method: 'GET', url: '/deliveries' });
    expect(res.body).not.toContain('refusal-hint');
  });

  it('an attempt without an answer is told in words, never as a library code', () => {
    expect(noAnswerWords('UND_ERR_HEADERS_TIMEOUT', 5000)).toBe('the receiver accepted the connection but sent no answer within 5 s (does it end every request, also after an error?)');
    expect(noAnswerWords('ECONNREFUSED', 5000)).toMatch(/^nothing listens at that address and port/);
    for (const code of ['UND_ERR_SOCKET', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_WHATEVER']) expect(noAnswerWords(code, 5000)).not.toContain('UND_ERR');
  });
});
