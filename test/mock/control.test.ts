/**
 * The control protocol at /_control (control-protocol.md), exactly as the
 * contract says: token, fixtures, consent, clock, events, revocation,
 * client_credentials permission, reset, and 4xx {"error","message"} on bad input.
 */
import { describe, expect, it } from 'vitest';
import { ControlError } from '../../mock/context.js';
import { EXTRA_FIXTURE_SETS } from '../../mock/world.js';
import { authorizationUrl, consent, control, refreshRequest, tokenRequest, userTokens, useMock, withMock } from '../support/mock.js';

describe('control protocol', () => {
  const ctx = useMock();

  it('every endpoint answers 401 without the right x-control-token', async () => {
    const calls: Array<['GET' | 'POST', string]> = [['GET', '/fixtures'], ['POST', '/consent'], ['GET', '/clock'], ['POST', '/clock'], ['POST', '/events'], ['POST', '/refresh-tokens/revoke'], ['POST', '/client-credentials'], ['POST', '/reset'], ['GET', '/nope']];
    for (const [method, path] of calls) {
      for (const token of [null, 'wrong', `${ctx.mock.profile.controlToken}x`]) {
        const res = await control(ctx.mock, method, path, method === 'POST' ? {} : undefined, token);
        expect(res.statusCode, `${method} ${path}`).toBe(401);
        expect(res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
        expect(res.body).not.toContain(ctx.mock.profile.controlToken);
      }
    }
  });

  it('GET /fixtures lists users and locks with the contract field names, no passwords', async () => {
    const res = await control(ctx.mock, 'GET', '/fixtures');
    expect(res.statusCode).toBe(200);
    const { users, locks } = res.json();
    expect(users.length).toBeGreaterThanOrEqual(2);
    expect(locks.length).toBeGreaterThanOrEqual(2);
    for (const u of users) {
      expect(Object.keys(u).sort()).toEqual(['email', 'firstName', 'lastName', 'phoneNo', 'userId']);
      expect(u.userId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    for (const l of locks) {
      expect(Object.keys(l).sort()).toEqual(['bridgeId', 'builtInKeypad', 'doorSensor', 'guestUserIds', 'keypad', 'lockId', 'name', 'ownerUserId']);
      expect(l.lockId).toMatch(/^[0-9A-F]{32}$/);
    }
    // The minimum: the first user owns the first two locks, the second is a guest on the first.
    expect(locks.slice(0, 2).map((l: { ownerUserId: string }) => l.ownerUserId)).toEqual([users[0].userId, users[0].userId]);
    expect(locks[0].guestUserIds).toEqual([users[1].userId]);
    expect(locks[1].guestUserIds).toEqual([]);
    expect(ctx.mock.ctx.world.locks[0]!.members.get(users[1].userId)).toBe('user');
    expect(res.body).not.toContain('password');
    // The profile's fixtures are the answer, but for the live reset count (control-protocol-extensions.md).
    const { resets, ...fixtures } = res.json();
    expect(resets).toEqual(expect.any(Number));
    expect(ctx.mock.profile.fixtures).toEqual(fixtures);
  });

  it('GET /fixtures also lists further fixture sets: an owner of two locks and a guest on the first, a bridge of their own', async () => {
    const { users, locks } = (await control(ctx.mock, 'GET', '/fixtures')).json();
    // users[2] belongs to no lock; the sets follow, two users and two locks each.
    expect(users).toHaveLength(3 + 2 * EXTRA_FIXTURE_SETS);
    expect(locks).toHaveLength(2 + 2 * EXTRA_FIXTURE_SETS);
    const [owner, guest] = users.slice(3, 5);
    const [front, back] = locks.slice(2, 4);
    expect([front.ownerUserId, back.ownerUserId]).toEqual([owner.userId, owner.userId]);
    expect([front.guestUserIds, back.guestUserIds]).toEqual([[guest.userId], []]);
    expect([front.keypad, front.doorSensor, back.builtInKeypad]).toEqual([true, true, true]);
    expect(front.bridgeId).toBe(back.bridgeId);
    expect(locks.filter((l: { bridgeId: string }) => l.bridgeId === front.bridgeId)).toHaveLength(2);
  });

  it('POST /consent approve and deny answer the Location of the 302', async () => {
    const approve = await consent(ctx.mock, { url: authorizationUrl(ctx.mock, { state: 'ok' }) });
    expect(approve.status).toBe(200);
    // redirectStatus: the additive extension of docs/control-protocol-extensions.md.
    expect(Object.keys(approve.json)).toEqual(['location', 'redirectStatus']);
    expect(approve.json.redirectStatus).toBe(302);
    const location = new URL(approve.location!);
    expect(location.origin + location.pathname).toBe(ctx.mock.profile.redirectUri);
    expect(location.searchParams.get('state')).toBe('ok');
    const deny = await consent(ctx.mock, { decision: 'deny' });
    expect(new URL(deny.location!).searchParams.get('error')).toBe('access_denied');
    expect(deny.json.redirectStatus).toBe(302);
  });

  it('POST /consent on an invalid authorization request answers 422 {"location": null, "error"}', async () => {
    for (const url of [
      authorizationUrl(ctx.mock, { client_id: 'unknown' }),
      authorizationUrl(ctx.mock, { redirect_uri: 'https://evil.example/cb' }),
      authorizationUrl(ctx.mock, { state: null }),
      'not a url',
      `${ctx.mock.url}/somewhere-else?client_id=x`,
    ]) {
      const res = await consent(ctx.mock, { url });
      expect(res.status, url).toBe(422);
      expect(res.json).toMatchObject({ location: null, error: expect.any(String) });
    }
  });

  it('POST /consent for an unknown user is 404; a bad body is 400', async () => {
    const unknown = await control(ctx.mock, 'POST', '/consent', { authorizationUrl: authorizationUrl(ctx.mock), userId: '00000000-0000-4000-8000-000000000000', decision: 'approve' });
    expect(unknown.statusCode).toBe(404);
    for (const body of [{}, { authorizationUrl: authorizationUrl(ctx.mock), userId: 'x', decision: 'maybe' }, { authorizationUrl: 1, userId: 'x', decision: 'approve' }, 'text', [], null]) {
      const res = await control(ctx.mock, 'POST', '/consent', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
  });

  it('GET and POST /clock read, move and reset the one clock', async () => {
    const before = (await control(ctx.mock, 'GET', '/clock')).json().now;
    expect(Math.abs(before - Date.now())).toBeLessThan(60_000);
    const moved = await control(ctx.mock, 'POST', '/clock', { advanceMs: 3_600_000 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().now).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(ctx.mock.ctx.clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    const reset = await control(ctx.mock, 'POST', '/clock', { reset: true });
    expect(Math.abs(reset.json().now - Date.now())).toBeLessThan(60_000);
    for (const body of [{ advanceMs: -1 }, { advanceMs: '5' }, { reset: false }, { advanceMs: 1, reset: true }, {}, undefined]) {
      const res = await control(ctx.mock, 'POST', '/clock', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('POST /client-credentials grants and withdraws the grant; unknown client 404', async () => {
    expect((await control(ctx.mock, 'POST', '/client-credentials', { clientId: ctx.mock.profile.clientId, enabled: true })).statusCode).toBe(204);
    expect(ctx.mock.ctx.clientCredentialsEnabled.has(ctx.mock.profile.clientId)).toBe(true);
    expect((await control(ctx.mock, 'POST', '/client-credentials', { clientId: ctx.mock.profile.clientId, enabled: false })).statusCode).toBe(204);
    expect(ctx.mock.ctx.clientCredentialsEnabled.size).toBe(0);
    expect((await control(ctx.mock, 'POST', '/client-credentials', { clientId: 'other', enabled: true })).statusCode).toBe(404);
    expect((await control(ctx.mock, 'POST', '/client-credentials', { clientId: ctx.mock.profile.clientId, enabled: 'yes' })).statusCode).toBe(400);
  });

  it('POST /refresh-tokens/revoke validates its body', async () => {
    for (const body of [{}, { refreshToken: 5 }, { refreshToken: '' }, { refreshToken: 'x', extra: 1 }]) {
      expect((await control(ctx.mock, 'POST', '/refresh-tokens/revoke', body)).statusCode).toBe(400);
    }
  });

  it('malformed JSON and wrong content types get 4xx JSON', async () => {
    const token = ctx.mock.profile.controlToken!;
    const broken = await ctx.mock.app.inject({ method: 'POST', url: '/_control/clock', headers: { 'x-control-token': token, 'content-type': 'application/json' }, payload: '{"advanceMs":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe('invalid_json');
    const text = await ctx.mock.app.inject({ method: 'POST', url: '/_control/clock', headers: { 'x-control-token': token, 'content-type': 'text/plain' }, payload: 'advance' });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('unsupported_media_type');
    const unknown = await control(ctx.mock, 'GET', '/nope');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('control protocol: events and reset', () => {
  it('POST /events passes the request to ctx.events and its ControlErrors through', async () => {
    await withMock({}, async (mock) => {
      const seen: unknown[] = [];
      mock.ctx.events = {
        async emit(request) {
          seen.push(request);
          if (request.kind === 'bogus') throw new ControlError(422, 'unknown_kind', 'no such kind');
          return { emitted: 2, eventId: '6f1c1d7e-3a43-4a41-9a4f-6d1d0b7c9b11' };
        },
      };
      const ok = await control(mock, 'POST', '/events', { kind: 'operation.app', lockId: 'L', userId: 'U', value: 'lock', params: { a: 1 } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ emitted: 2, eventId: '6f1c1d7e-3a43-4a41-9a4f-6d1d0b7c9b11' });
      expect(seen[0]).toEqual({ kind: 'operation.app', lockId: 'L', userId: 'U', value: 'lock', params: { a: 1 } });
      const bogus = await control(mock, 'POST', '/events', { kind: 'bogus' });
      expect(bogus.statusCode).toBe(422);
      expect(bogus.json()).toEqual({ error: 'unknown_kind', message: 'no such kind' });
      for (const body of [{}, { kind: 5 }, { kind: 'x', params: 'no' }, { kind: 'x', lockId: 7 }]) {
        expect((await control(mock, 'POST', '/events', body)).statusCode).toBe(400);
      }
      expect(seen).toHaveLength(2);
    });
  });

  it('POST /reset drops tokens, codes and permissions, restores the world, and leaves the clock', async () => {
    await withMock({}, async (mock) => {
      const tokens = await userTokens(mock);
      const pendingCode = new URL((await consent(mock)).location!).searchParams.get('code')!;
      await control(mock, 'POST', '/client-credentials', { clientId: mock.profile.clientId, enabled: true });
      const lock = mock.ctx.world.locks[0]!;
      const name = lock.name;
      lock.name = 'Renamed';
      lock.state = 'unlock';
      let moduleReset = false;
      mock.ctx.onReset.push(() => { moduleReset = true; });
      const now = (await control(mock, 'POST', '/clock', { advanceMs: 86_400_000 })).json().now;

      const res = await control(mock, 'POST', '/reset');
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(lock.name).toBe(name);
      expect(lock.state).toBe('lock');
      expect(moduleReset).toBe(true);
      expect(mock.ctx.clientCredentialsEnabled.size).toBe(0);
      expect(await mock.ctx.tokens.verify(tokens.accessToken)).toBeNull();
      expect((await refreshRequest(mock, tokens.refreshToken)).status).toBe(400);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: pendingCode })).status).toBe(400);
      expect(mock.ctx.clock.now()).toBeGreaterThanOrEqual(now);
      // And the service works afterwards.
      expect((await userTokens(mock)).accessToken).toBeTruthy();
    });
  });

  it('POST /events reaches the API side\'s event service (no registrations: nothing delivered)', async () => {
    await withMock({}, async (mock) => {
      const lock = mock.ctx.world.locks[0]!;
      const user = mock.ctx.world.users[0]!;
      const res = await control(mock, 'POST', '/events', { kind: 'operation.app', lockId: lock.lockId, userId: user.userId, value: 'unlock' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ emitted: 0 });
      const unknownLock = await control(mock, 'POST', '/events', { kind: 'operation.app', lockId: 'F'.repeat(32), userId: user.userId, value: 'unlock' });
      expect([404, 422]).toContain(unknownLock.statusCode);
      expect(unknownLock.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
    });
  });

  it('with events not provided, POST /events answers 422 events_unavailable', async () => {
    await withMock({}, async (mock) => {
      mock.ctx.events = { async emit() { throw new ControlError(422, 'events_unavailable', 'this mock cannot emit events'); } };
      const res = await control(mock, 'POST', '/events', { kind: 'door', value: 'open' });
      expect(res.statusCode).toBe(422);
    });
  });

  it('control: false serves no /_control and the profile has no controlUrl', async () => {
    await withMock({ control: false }, async (mock) => {
      expect(mock.profile.controlUrl).toBeUndefined();
      expect(mock.profile.controlToken).toBeUndefined();
      const res = await mock.app.inject({ method: 'GET', url: '/_control/fixtures', headers: { 'x-control-token': mock.ctx.credentials.controlToken } });
      expect(res.statusCode).toBe(404);
    });
  });
});
