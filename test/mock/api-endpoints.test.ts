/** GET /users/me, GET /users/locks/mine, PUT /remoteoperate/:lockId/status, unknown routes, bad bodies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody, startApiApp, type ApiApp } from '../support/api-app.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

describe('API endpoints', () => {
  let app: ApiApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startApiApp();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  it('GET /users/me answers the caller, without the password', async () => {
    const user = app.ctx.world.users[0]!;
    const res = await app.call('GET', '/users/me', { token: await app.tokenFor(0) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ userId: user.userId, firstName: user.firstName, lastName: user.lastName, email: user.email, phoneNo: user.phoneNo });
    expect(res.text).not.toContain(user.password);
  });

  it('GET /users/me for the application account (client_credentials token)', async () => {
    const { token } = await app.tokens.issue({ userId: null, clientId: app.ctx.credentials.clientId });
    const res = await app.call('GET', '/users/me', { token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ userId: null, accountType: 'application' });
  });

  it('GET /users/locks/mine: keyed by lock ID, only the caller\'s locks, with access level', async () => {
    const [front, back] = app.ctx.world.locks;
    const owner = await app.call('GET', '/users/locks/mine', { token: await app.tokenFor(0) });
    expect(owner.status).toBe(200);
    expect(Object.keys(owner.json).sort()).toEqual([front!.lockId, back!.lockId].sort());
    expect(owner.json[front!.lockId]).toMatchObject({ name: front!.name, state: front!.state, accessLevel: 'superuser' });
    const guest = await app.call('GET', '/users/locks/mine', { token: await app.tokenFor(1) });
    expect(Object.keys(guest.json)).toEqual([front!.lockId]);
    expect(guest.json[front!.lockId].accessLevel).toBe('user');
    const stranger = await app.call('GET', '/users/locks/mine', { token: await app.tokenFor(2) });
    expect(stranger.json).toEqual({});
  });

  it('PUT /remoteoperate/:lockId/status answers the state and sends a status event to every listener', async () => {
    const lock = app.ctx.world.locks[0]!;
    const ownerToken = await app.tokenFor(0);
    const guestToken = await app.tokenFor(1);
    await app.call('POST', `/webhook/${lock.lockId}`, { token: ownerToken, body: registrationBody(app, `${receiver.url}/owner`) });
    await app.call('POST', `/webhook/${lock.lockId}`, { token: guestToken, body: registrationBody(app, `${receiver.url}/guest`) });
    const res = await app.call('PUT', `/remoteoperate/${lock.lockId}/status`, { token: guestToken });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ lockId: lock.lockId, state: lock.state });
    expect(res.headers.get('x-access-token')).toBeTruthy();
    const [toOwner] = await receiver.waitFor('/owner', 1);
    const [toGuest] = await receiver.waitFor('/guest', 1);
    for (const d of [toOwner!, toGuest!]) {
      expect(d.json).toMatchObject({ LockID: lock.lockId, EventType: 'status', Event: lock.state, Device: 'lock' });
      expect(d.json.User.UserID).toBe(app.ctx.world.users[1]!.userId);
      expect(d.json.User.FirstName).toBe('Grace');
    }
  });

  it('the status check matches lock IDs case-insensitively and refuses non-members and unknown locks with 404', async () => {
    const lock = app.ctx.world.locks[1]!;
    expect((await app.call('PUT', `/remoteoperate/${lock.lockId.toLowerCase()}/status`, { token: await app.tokenFor(0) })).status).toBe(200);
    const notMember = await app.call('PUT', `/remoteoperate/${lock.lockId}/status`, { token: await app.tokenFor(1) });
    expect(notMember.status).toBe(404);
    expect(notMember.json.error).toBe('lock_not_found');
    expect((await app.call('PUT', `/remoteoperate/${'0'.repeat(32)}/status`, { token: await app.tokenFor(0) })).status).toBe(404);
  });

  it('unknown routes and methods answer 404 JSON', async () => {
    const token = await app.tokenFor(0);
    for (const [method, path] of [['GET', '/nope'], ['PATCH', '/users/me'], ['GET', '/webhook/user']] as const) {
      const res = await app.call(method, path, { token });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('not_found');
    }
  });

  it('accepts content-type application/json with an empty body on GET, PUT and DELETE', async () => {
    const token = await app.tokenFor(0);
    const lock = app.ctx.world.locks[0]!;
    expect((await app.call('PUT', `/remoteoperate/${lock.lockId}/status`, { token, rawBody: '' })).status).toBe(200);
    expect((await app.call('DELETE', '/webhook/user', { token, rawBody: '' })).status).toBe(404);
  });

  it('answers malformed bodies with clear 4xx JSON', async () => {
    const token = await app.tokenFor(0);
    const lockId = app.ctx.world.locks[0]!.lockId;
    const badJson = await app.call('POST', `/webhook/${lockId}`, { token, rawBody: '{"url":' });
    expect(badJson.status).toBe(400);
    expect(badJson.json.error).toBe('invalid_json');
    const poisoned = await app.call('POST', `/webhook/${lockId}`, { token, rawBody: '{"__proto__":{"x":1}}' });
    expect(poisoned.status).toBe(400);
    const wrongType = await app.call('POST', `/webhook/${lockId}`, { token, rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.json.error).toBe('unsupported_media_type');
    const tooLarge = await app.call('POST', `/webhook/${lockId}`, { token, rawBody: JSON.stringify({ pad: 'x'.repeat(100_000) }) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.error).toBe('payload_too_large');
  });
});
