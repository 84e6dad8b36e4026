/**
 * The API, webhooks and events through the whole mock (createMock): a user token from
 * the real consent and token endpoints, rotation with real JWTs, registration, events
 * made through the control protocol, signed delivery, and reset.
 */
import { createHmac } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../mock/server.js';
import type { LockEventService } from '../../mock/events/event-service.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let mock: RunningMock;
let receiver: Receiver;

async function json(res: Response): Promise<any> {
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

function control(path: string, body?: unknown): Promise<Response> {
  return fetch(`${mock.profile.controlUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-control-token': mock.profile.controlToken! },
    body: body === undefined ? '' : JSON.stringify(body),
  });
}

function api(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${mock.profile.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': mock.profile.apiKey, 'x-access-token': token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A user access token the way an application gets one: consent, then the code grant. */
async function userToken(userIndex: number): Promise<string> {
  const p = mock.profile;
  const authorizationUrl = `${p.authUrl}/authorization?${new URLSearchParams({ client_id: p.clientId, redirect_uri: p.redirectUri, state: 's1' })}`;
  const consent = await json(await control('/consent', { authorizationUrl, userId: p.fixtures!.users[userIndex]!.userId, decision: 'approve' }));
  const code = new URL(consent.location).searchParams.get('code')!;
  const res = await fetch(`${p.authUrl}/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: p.clientId, client_secret: p.clientSecret, code }).toString(),
  });
  expect(res.status).toBe(200);
  return (await json(res)).access_token;
}

function registration(path: string, notificationTypes = ['operation', 'battery']) {
  return { url: `${receiver.url}${path}`, method: 'POST', clientID: mock.profile.clientId, header: 'x-app-hook', token: 'e2e-hook', notificationTypes };
}

beforeAll(async () => {
  mock = await createMock({ deliveryTimeoutMs: 1_000 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

describe('API through createMock', () => {
  it('rotates real JWTs: the new token works and expires later than the presented one', async () => {
    const token = await userToken(0);
    const res = await api('GET', '/users/me', token);
    expect(res.status).toBe(200);
    expect((await json(res)).userId).toBe(mock.profile.fixtures!.users[0]!.userId);
    const rotated = res.headers.get('x-access-token')!;
    expect(decodeJwt(rotated).exp!).toBeGreaterThan(decodeJwt(token).exp!);
    expect((await api('GET', '/users/locks/mine', rotated)).status).toBe(200);
    expect((await api('GET', '/users/me', token)).status).toBe(200);
  });

  it('an event made through the control protocol is delivered, signed with the API key', async () => {
    const token = await userToken(0);
    const lockId = mock.profile.fixtures!.locks[0]!.lockId;
    expect((await api('POST', `/webhook/${lockId}`, token, registration('/e2e'))).status).toBe(200);
    const res = await control('/events', { kind: 'lock_battery_alert', lockId, value: 'lock_state_battery_warning_2week' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ emitted: 1, eventId: null });
    const [d] = await receiver.waitFor('/e2e', 1);
    const [, t, v] = /^t=(\d+),v=([0-9a-f]{64})$/.exec(String(d!.headers['x-signature']))!;
    expect(v).toBe(createHmac('sha256', mock.profile.apiKey).update(`${t}.${d!.text}`).digest('hex'));
    expect(d!.headers['x-app-hook']).toBe('e2e-hook');
    expect(d!.json).toMatchObject({ LockID: lockId, EventType: 'system', Event: 'lock_battery_alert', warningLevel: 'lock_state_battery_warning_2week' });
  });

  it('the status check fans out to every listener of the lock', async () => {
    const lockId = mock.profile.fixtures!.locks[0]!.lockId;
    const guest = await userToken(1);
    expect((await api('POST', `/webhook/${lockId}`, guest, registration('/e2e-guest'))).status).toBe(200);
    receiver.reset();
    expect((await api('PUT', `/remoteoperate/${lockId}/status`, guest)).status).toBe(200);
    await (mock.ctx.events as LockEventService).idle();
    expect(receiver.at('/e2e').map((d) => d.json.EventType)).toEqual(['status']);
    expect(receiver.at('/e2e-guest').map((d) => d.json.EventType)).toEqual(['status']);
  });

  it('control event errors are 4xx JSON', async () => {
    const unknownKind = await control('/events', { kind: 'nope', lockId: mock.profile.fixtures!.locks[0]!.lockId });
    expect(unknownKind.status).toBe(422);
    expect((await json(unknownKind)).error).toBe('unknown_kind');
    const unknownLock = await control('/events', { kind: 'door', lockId: 'C'.repeat(32), value: 'open' });
    expect(unknownLock.status).toBe(404);
  });

  it('POST /_control/reset drops every registration', async () => {
    const lockId = mock.profile.fixtures!.locks[0]!.lockId;
    expect((await control('/reset')).status).toBe(204);
    expect(await json(await control('/events', { kind: 'operation.app', lockId, value: 'lock' }))).toEqual({ emitted: 0, eventId: null });
  });
});
