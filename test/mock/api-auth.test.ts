/**
 * Request headers for API calls: x-api-key, x-access-token (401 when missing, invalid
 * or expired) and the rotated x-access-token on every 2xx, with its faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiApp, withApiApp, type ApiApp } from '../support/api-app.js';

const DAY = 24 * 60 * 60 * 1000;

describe('API authentication', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await startApiApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses a missing or wrong x-api-key with 401 invalid_api_key', async () => {
    const token = await app.tokenFor(0);
    for (const apiKey of [null, 'wrong-key']) {
      const res = await app.call('GET', '/users/me', { token, apiKey });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_api_key');
      expect(res.text).not.toContain(app.ctx.credentials.apiKey);
    }
  });

  it('refuses a missing token with 401 invalid_token', async () => {
    const res = await app.call('GET', '/users/me', {});
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: 'invalid_token' });
    expect(typeof res.json.message).toBe('string');
  });

  it('refuses a malformed token with 401 and does not echo it', async () => {
    const res = await app.call('GET', '/users/me', { token: 'not-a-token-at-all' });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_token');
    expect(res.text).not.toContain('not-a-token-at-all');
    expect(res.headers.get('x-access-token')).toBeNull();
  });

  it('refuses an expired token with 401 once the clock passes its expiry', async () => {
    const token = await app.tokenFor(0, app.ctx.clock.now() + 1_000);
    expect((await app.call('GET', '/users/me', { token })).status).toBe(200);
    app.ctx.clock.advance(2_000);
    try {
      const res = await app.call('GET', '/users/me', { token });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_token');
    } finally {
      app.ctx.clock.reset();
    }
  });

  it('rotates: every 2xx carries a new token, valid, for the same user', async () => {
    const token = await app.tokenFor(1);
    const res = await app.call('GET', '/users/me', { token });
    expect(res.status).toBe(200);
    const rotated = res.headers.get('x-access-token');
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(token);
    const again = await app.call('GET', '/users/me', { token: rotated! });
    expect(again.status).toBe(200);
    expect(again.json.userId).toBe(app.ctx.world.users[1]!.userId);
  });

  it('rotation extends: later than the presented expiry, and at least 24 h from now', async () => {
    const presentedExpiry = app.ctx.clock.now() + 2 * DAY;
    const token = await app.tokenFor(0, presentedExpiry);
    const res = await app.call('GET', '/users/locks/mine', { token });
    const claims = await app.tokens.verify(res.headers.get('x-access-token')!);
    expect(claims!.expiresAtMs).toBe(presentedExpiry + 60_000);

    const shortToken = await app.tokenFor(0, app.ctx.clock.now() + 1_000);
    const before = app.ctx.clock.now();
    const res2 = await app.call('GET', '/users/me', { token: shortToken });
    const claims2 = await app.tokens.verify(res2.headers.get('x-access-token')!);
    expect(claims2!.expiresAtMs).toBeGreaterThanOrEqual(before + DAY);
  });

  it('keeps earlier tokens valid after rotation', async () => {
    const token = await app.tokenFor(0);
    await app.call('GET', '/users/me', { token });
    expect((await app.call('GET', '/users/me', { token })).status).toBe(200);
  });

  it('does not rotate on errors', async () => {
    const token = await app.tokenFor(1);
    const res = await app.call('PUT', `/remoteoperate/${app.ctx.world.locks[1]!.lockId}/status`, { token });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-access-token')).toBeNull();
  });
});

describe('API authentication faults', () => {
  it('no-rotation-header: GET /users/locks/mine carries no new token, /users/me still does', () =>
    withApiApp(['no-rotation-header'], async (app) => {
      const token = await app.tokenFor(0);
      const mine = await app.call('GET', '/users/locks/mine', { token });
      expect(mine.status).toBe(200);
      expect(mine.headers.get('x-access-token')).toBeNull();
      expect((await app.call('GET', '/users/me', { token })).headers.get('x-access-token')).toBeTruthy();
    }));

  it('rotated-token-invalid: the rotated token is refused', () =>
    withApiApp(['rotated-token-invalid'], async (app) => {
      const token = await app.tokenFor(0);
      const res = await app.call('GET', '/users/me', { token });
      const rotated = res.headers.get('x-access-token')!;
      expect((await app.call('GET', '/users/me', { token: rotated })).status).toBe(401);
      expect((await app.call('GET', '/users/me', { token })).status).toBe(200);
    }));

  it('rotation-not-extending: the rotated token expires with the presented one', () =>
    withApiApp(['rotation-not-extending'], async (app) => {
      const expiry = app.ctx.clock.now() + 3 * DAY;
      const token = await app.tokenFor(0, expiry);
      const res = await app.call('GET', '/users/me', { token });
      expect((await app.tokens.verify(res.headers.get('x-access-token')!))!.expiresAtMs).toBe(expiry);
    }));

  it('rotation-revokes-previous: the presented token stops working', () =>
    withApiApp(['rotation-revokes-previous'], async (app) => {
      const token = await app.tokenFor(0);
      const res = await app.call('GET', '/users/me', { token });
      expect((await app.call('GET', '/users/me', { token })).status).toBe(401);
      expect((await app.call('GET', '/users/me', { token: res.headers.get('x-access-token')! })).status).toBe(200);
    }));

  it('invalid-token-403: an invalid token gets 403', () =>
    withApiApp(['invalid-token-403'], async (app) => {
      expect((await app.call('GET', '/users/me', { token: 'bogus' })).status).toBe(403);
      expect((await app.call('GET', '/users/me', {})).status).toBe(401);
    }));

  it('missing-token-400: a missing token gets 400', () =>
    withApiApp(['missing-token-400'], async (app) => {
      expect((await app.call('GET', '/users/me', {})).status).toBe(400);
      expect((await app.call('GET', '/users/me', { token: 'bogus' })).status).toBe(401);
    }));
});
