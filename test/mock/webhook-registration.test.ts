/** The four webhook endpoints: validation, one registration per (lock, user) and per user, overwrite, delete, reset, faults. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultSet } from '../../mock/faults.js';
import { WebhookRegistry } from '../../mock/webhooks/registry.js';
import { registrationBody, startApiApp, withApiApp, type ApiApp } from '../support/api-app.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** Emits a status check on lock 0 and answers which receiver paths got it. */
async function statusTargets(app: ApiApp, token: string): Promise<string[]> {
  receiver.reset();
  await app.call('PUT', `/remoteoperate/${app.ctx.world.locks[0]!.lockId}/status`, { token });
  await app.services.events.idle();
  return receiver.received.map((r) => r.path).sort();
}

function userBody(app: ApiApp, url: string, overrides: Record<string, unknown> = {}) {
  return registrationBody(app, url, { notificationTypes: ['lockmembership', 'lifecycle'], ...overrides });
}

describe('webhook registration: validation', () => {
  let app: ApiApp;
  let token: string;
  let lockId: string;
  beforeAll(async () => {
    app = await startApiApp();
    token = await app.tokenFor(0);
    lockId = app.ctx.world.locks[0]!.lockId;
  });
  afterAll(async () => {
    await app.close();
  });

  it('accepts a valid lock registration and answers it without the token', async () => {
    const res = await app.call('POST', `/webhook/${lockId}`, { token, body: registrationBody(app, `${receiver.url}/a`) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ lockId, clientID: app.ctx.credentials.clientId, url: `${receiver.url}/a`, method: 'POST', header: 'x-hook-token' });
    expect(res.text).not.toContain('hook-secret-1');
    expect(res.headers.get('x-access-token')).toBeTruthy();
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['url missing', { url: undefined }, 'url'],
    ['url not http(s)', { url: 'ftp://example.test/x' }, 'url'],
    ['url relative', { url: '/hook' }, 'url'],
    ['method GET', { method: 'GET' }, 'method'],
    ['method not a string', { method: 1 }, 'method'],
    ['clientID of another client', { clientID: 'someone-else' }, 'clientID'],
    ['header with a space', { header: 'x bad' }, 'header'],
    ['header content-type', { header: 'Content-Type' }, 'header'],
    ['header x-signature', { header: 'X-Signature' }, 'header'],
    ['header host', { header: 'host' }, 'header'],
    ['header content-length', { header: 'content-length' }, 'header'],
    ['token with a newline', { token: 'a\r\nb' }, 'token'],
    ['token not a string', { token: 42 }, 'token'],
    ['notificationTypes empty', { notificationTypes: [] }, 'notificationTypes'],
    ['notificationTypes not an array', { notificationTypes: 'operation' }, 'notificationTypes'],
    ['a user group on a lock', { notificationTypes: ['lifecycle'] }, 'notificationTypes'],
    ['an unknown group', { notificationTypes: ['operation', 'everything'] }, 'notificationTypes'],
    ['an unknown field', { extra: 1 }, 'extra'],
  ];
  // The required status of each field is not shown: the mock takes header and token (together), method and notificationTypes as optional.
  for (const left of [['header', 'token'], ['method'], ['notificationTypes'], ['header', 'token', 'method', 'notificationTypes']]) {
    it(`accepts a lock registration without ${left.join(', ')}`, async () => {
      const body = registrationBody(app, `${receiver.url}/a`);
      for (const key of left) delete body[key];
      const res = await app.call('POST', `/webhook/${lockId}`, { token, body });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ method: 'POST', header: left.includes('header') ? null : 'x-hook-token' });
    });
  }

  it('refuses a header without a token with 422 naming header', async () => {
    const body = registrationBody(app, `${receiver.url}/a`);
    delete body.token;
    const res = await app.call('POST', `/webhook/${lockId}`, { token, body });
    expect(res.status).toBe(422);
    expect(res.json.field).toBe('header');
  });

  for (const [title, overrides, field] of cases) {
    it(`refuses ${title} with 422 naming ${field}`, async () => {
      const body = registrationBody(app, `${receiver.url}/a`, overrides);
      for (const key of Object.keys(overrides)) if (overrides[key] === undefined) delete body[key];
      const res = await app.call('POST', `/webhook/${lockId}`, { token, body });
      expect(res.status).toBe(422);
      expect(res.json.error).toBe('invalid_registration');
      expect(res.json.field).toBe(field);
      expect(res.json.message).toContain(field);
    });
  }

  it('refuses a body that is not an object, or no body', async () => {
    for (const body of [[1, 2], 'text', null]) {
      const res = await app.call('POST', `/webhook/${lockId}`, { token, body });
      expect(res.status).toBe(422);
    }
    expect((await app.call('POST', `/webhook/${lockId}`, { token })).status).toBe(422);
  });

  it('refuses a lock group on the user webhook', async () => {
    const res = await app.call('POST', '/webhook/user', { token, body: userBody(app, `${receiver.url}/u`, { notificationTypes: ['operation'] }) });
    expect(res.status).toBe(422);
    expect(res.json.field).toBe('notificationTypes');
  });

  it('refuses unknown locks and locks the caller is not a member of with 404', async () => {
    const unknown = await app.call('POST', `/webhook/${'A'.repeat(32)}`, { token, body: registrationBody(app, `${receiver.url}/a`) });
    expect(unknown.status).toBe(404);
    const guest = await app.tokenFor(1);
    const notMember = await app.call('POST', `/webhook/${app.ctx.world.locks[1]!.lockId}`, { token: guest, body: registrationBody(app, `${receiver.url}/a`) });
    expect(notMember.status).toBe(404);
    expect(notMember.json.error).toBe('lock_not_found');
  });

  it('the static /webhook/user route wins over /webhook/:lockID', async () => {
    const res = await app.call('POST', '/webhook/user', { token, body: userBody(app, `${receiver.url}/u`) });
    expect(res.status).toBe(200);
    expect(res.json.userId).toBe(app.ctx.world.users[0]!.userId);
  });
});

describe('webhook registration: one per (lock, user), overwrite, delete', () => {
  it('re-registering overwrites; another user\'s registration stays', () =>
    withApiApp([], async (app) => {
      const lockId = app.ctx.world.locks[0]!.lockId;
      const owner = await app.tokenFor(0);
      const guest = await app.tokenFor(1);
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/first`) });
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/second`) });
      await app.call('POST', `/webhook/${lockId}`, { token: guest, body: registrationBody(app, `${receiver.url}/guest`) });
      expect(await statusTargets(app, owner)).toEqual(['/guest', '/second']);
    }));

  it('DELETE /webhook/:lockID/:clientID removes only the caller\'s; deleting again is 404', () =>
    withApiApp([], async (app) => {
      const lockId = app.ctx.world.locks[0]!.lockId;
      const owner = await app.tokenFor(0);
      const guest = await app.tokenFor(1);
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/owner`) });
      await app.call('POST', `/webhook/${lockId}`, { token: guest, body: registrationBody(app, `${receiver.url}/guest`) });
      const clientId = app.ctx.credentials.clientId;
      const wrongClient = await app.call('DELETE', `/webhook/${lockId}/other-client`, { token: owner });
      expect(wrongClient.status).toBe(404);
      const del = await app.call('DELETE', `/webhook/${lockId}/${clientId}`, { token: owner });
      expect(del.status).toBe(200);
      expect(del.json.deleted).toBe(true);
      expect(del.headers.get('x-access-token')).toBeTruthy();
      expect(await statusTargets(app, owner)).toEqual(['/guest']);
      const again = await app.call('DELETE', `/webhook/${lockId}/${clientId}`, { token: owner });
      expect(again.status).toBe(404);
      expect(again.json.error).toBe('webhook_not_found');
      expect((await app.call('DELETE', `/webhook/${'B'.repeat(32)}/${clientId}`, { token: owner })).status).toBe(404);
    }));

  it('one user registration per user: re-registering overwrites, DELETE removes, again 404', () =>
    withApiApp([], async (app) => {
      const owner = await app.tokenFor(0);
      const guest = app.ctx.world.users[1]!.userId;
      const lockId = app.ctx.world.locks[0]!.lockId;
      const guestToken = await app.tokenFor(1);
      await app.call('POST', '/webhook/user', { token: guestToken, body: userBody(app, `${receiver.url}/u1`) });
      await app.call('POST', '/webhook/user', { token: guestToken, body: userBody(app, `${receiver.url}/u2`) });
      receiver.reset();
      await app.services.events.emit({ kind: 'lock_user_add', lockId, userId: guest });
      await app.services.events.idle();
      expect(receiver.received.map((r) => r.path)).toEqual(['/u2']);
      expect((await app.call('DELETE', '/webhook/user', { token: guestToken })).status).toBe(200);
      expect((await app.call('DELETE', '/webhook/user', { token: guestToken })).status).toBe(404);
      expect((await app.call('DELETE', '/webhook/user', { token: owner })).status).toBe(404);
      receiver.reset();
      expect((await app.services.events.emit({ kind: 'lock_user_add', lockId, userId: guest })).emitted).toBe(0);
    }));

  it('a control reset drops every registration', () =>
    withApiApp([], async (app) => {
      const owner = await app.tokenFor(0);
      await app.call('POST', `/webhook/${app.ctx.world.locks[0]!.lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/r`) });
      await app.call('POST', '/webhook/user', { token: owner, body: userBody(app, `${receiver.url}/r`) });
      expect(app.services.registry.size()).toEqual({ lock: 1, user: 1 });
      for (const reset of app.ctx.onReset) reset();
      expect(app.services.registry.size()).toEqual({ lock: 0, user: 0 });
    }));
});

describe('webhook registration faults', () => {
  it('lock-register-appends: re-registering adds a second registration', () =>
    withApiApp(['lock-register-appends'], async (app) => {
      const owner = await app.tokenFor(0);
      const lockId = app.ctx.world.locks[0]!.lockId;
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/first`) });
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/second`) });
      expect(await statusTargets(app, owner)).toEqual(['/first', '/second']);
    }));

  it('lock-register-per-lock: a registration replaces the other user\'s', () =>
    withApiApp(['lock-register-per-lock'], async (app) => {
      const owner = await app.tokenFor(0);
      const guest = await app.tokenFor(1);
      const lockId = app.ctx.world.locks[0]!.lockId;
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/owner`) });
      await app.call('POST', `/webhook/${lockId}`, { token: guest, body: registrationBody(app, `${receiver.url}/guest`) });
      expect(await statusTargets(app, owner)).toEqual(['/guest']);
    }));

  it('lock-delete-ignored: DELETE answers success but the registration stays', () =>
    withApiApp(['lock-delete-ignored'], async (app) => {
      const owner = await app.tokenFor(0);
      const lockId = app.ctx.world.locks[0]!.lockId;
      await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/owner`) });
      expect((await app.call('DELETE', `/webhook/${lockId}/${app.ctx.credentials.clientId}`, { token: owner })).status).toBe(200);
      expect(await statusTargets(app, owner)).toEqual(['/owner']);
    }));

  it('user-register-appends and user-delete-ignored', async () => {
    for (const fault of ['user-register-appends', 'user-delete-ignored']) {
      await withApiApp([fault], async (app) => {
        const guestToken = await app.tokenFor(1);
        await app.call('POST', '/webhook/user', { token: guestToken, body: userBody(app, `${receiver.url}/u1`) });
        await app.call('POST', '/webhook/user', { token: guestToken, body: userBody(app, `${receiver.url}/u2`) });
        if (fault === 'user-delete-ignored') expect((await app.call('DELETE', '/webhook/user', { token: guestToken })).status).toBe(200);
        receiver.reset();
        const result = await app.services.events.emit({ kind: 'lock_user_remove', lockId: app.ctx.world.locks[0]!.lockId, userId: app.ctx.world.users[1]!.userId });
        await app.services.events.idle();
        const expected = fault === 'user-register-appends' ? ['/u1', '/u2'] : ['/u2'];
        expect(receiver.received.map((r) => r.path).sort()).toEqual(expected);
        expect(result.emitted).toBe(expected.length);
      });
    }
  });
});

describe('webhook registry capacity', () => {
  it('reports full at its capacity, so appending faults cannot grow it without bound', () => {
    const registry = new WebhookRegistry(new FaultSet(['lock-register-appends']), () => 0, 3);
    const input = { userId: 'u', clientId: 'c', url: 'http://127.0.0.1/x', method: 'POST' as const, header: 'x-h', token: 't', notificationTypes: ['operation' as const] };
    for (let i = 0; i < 3; i++) {
      expect(registry.isFull()).toBe(false);
      registry.registerLock('L', input);
    }
    expect(registry.isFull()).toBe(true);
    expect(registry.deleteLock('L', 'u', 'c')).toBe(true);
    expect(registry.isFull()).toBe(false);
  });
});
