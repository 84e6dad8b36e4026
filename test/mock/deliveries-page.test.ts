/**
 * The delivery log and GET /deliveries (docs/mock.md): every attempt recorded
 * with where it went, the answer and the time; a bounded ring; one log line per
 * attempt; no header value, body or URL query shown; served to loopback only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockEventService } from '../../mock/events/event-service.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { DeliveryLog } from '../../mock/webhooks/delivery-log.js';
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
