/**
 * Finding 7 and 9: the refresh-token store keeps hashes only and stays bounded
 * however many refreshes pass; the clock cannot be pushed out of range; every
 * answer that carries a token says no-store; secrets are compared as digests.
 */
import { describe, expect, it } from 'vitest';
import { Clock } from '../../../mock/clock.js';
import type { MockContext } from '../../../mock/context.js';
import { FaultSet } from '../../../mock/faults.js';
import { MAX_SPENT, RefreshTokens } from '../../../mock/oauth/refresh-tokens.js';
import { MAX_CLOCK_OFFSET_MS } from '../../../mock/control/schemas.js';
import { sameSecret } from '../../../mock/secret-compare.js';
import { authorizationCode, control, tokenRequest, userTokens, withMock } from '../../support/mock.js';

function store(): RefreshTokens {
  const ctx = { clock: new Clock(), faults: new FaultSet([]), world: { users: [], locks: [] } } as unknown as MockContext;
  return new RefreshTokens(ctx);
}

describe('Refresh-token store: bounded', () => {
  it(`a chain refreshed ${MAX_SPENT + 10_000} times keeps at most ${MAX_SPENT} spent records and one live one`, () => {
    const tokens = store();
    let current = tokens.issue({ clientId: 'c', userId: 'u' });
    const first = current;
    for (let i = 0; i < MAX_SPENT + 10_000; i++) {
      expect(tokens.redeem(current, 'c').ok).toBe(true);
      current = tokens.issue({ clientId: 'c', userId: 'u' });
    }
    expect(tokens.size).toBe(MAX_SPENT + 1);
    // The oldest spent token is forgotten, and still refused.
    expect(tokens.redeem(first, 'c')).toEqual({ ok: false, reason: 'unknown refresh token' });
    expect(tokens.redeem(current, 'c').ok).toBe(true);
  });

  it('keeps no token in the clear', () => {
    const tokens = store();
    const token = tokens.issue({ clientId: 'c', userId: 'u' });
    const seen = JSON.stringify([...Object.values(tokens)]);
    expect(seen).not.toContain(token);
    expect(tokens.redeem(token, 'c').ok).toBe(true);
  });
});

describe('Control: the clock stays in range', () => {
  it('POST /clock answers 422 when the clock would run more than a thousand years ahead; the clock is unchanged', () =>
    withMock({}, async (mock) => {
      expect((await control(mock, 'POST', '/clock', { advanceMs: MAX_CLOCK_OFFSET_MS - 1_000 })).statusCode).toBe(200);
      const before = mock.ctx.clock.offsetMs;
      const res = await control(mock, 'POST', '/clock', { advanceMs: 2_000 });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('clock_out_of_range');
      expect(mock.ctx.clock.offsetMs).toBe(before);
      expect((await control(mock, 'POST', '/clock', { advanceMs: 8.64e15 })).statusCode).toBe(422);
      expect((await control(mock, 'POST', '/clock', { reset: true })).statusCode).toBe(200);
      expect((await control(mock, 'POST', '/clock', { advanceMs: 366 * 86_400_000 })).statusCode).toBe(200);
      // Tokens still work at the far end of the range.
      await control(mock, 'POST', '/clock', { advanceMs: MAX_CLOCK_OFFSET_MS - 367 * 86_400_000 });
      const tokens = await userTokens(mock);
      const me = await mock.app.inject({ method: 'GET', url: '/api/users/me', headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': tokens.accessToken } });
      expect(me.statusCode).toBe(200);
    }));
});

describe('Cache-Control: no-store on every answer that carries a token', () => {
  it('token endpoint (success and error), API answers with x-access-token, control consent', () =>
    withMock({}, async (mock) => {
      const code = await authorizationCode(mock);
      const granted = await tokenRequest(mock, { grant_type: 'authorization_code', code });
      expect(granted.headers['cache-control']).toBe('no-store');
      const me = await mock.app.inject({ method: 'GET', url: '/api/users/me', headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': granted.json.access_token } });
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code })).headers['cache-control']).toBe('no-store');
      expect(me.headers['x-access-token']).toBeTruthy();
      expect(me.headers['cache-control']).toBe('no-store');
      const consent = await control(mock, 'POST', '/consent', { authorizationUrl: `${mock.url}/oauth/authorization?client_id=${mock.profile.clientId}&redirect_uri=${encodeURIComponent(mock.profile.redirectUri)}&state=s`, userId: mock.ctx.world.users[0]!.userId, decision: 'approve' });
      expect(consent.headers['cache-control']).toBe('no-store');
    }));
});

describe('Secret comparison', () => {
  it('compares digests: equal only when equal, whatever the lengths', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'abc')).toBe(false);
    expect(sameSecret('x'.repeat(10_000), 'abc')).toBe(false);
    expect(sameSecret(undefined, 'abc')).toBe(false);
  });
});

describe('Structured logs', () => {
  it('are silent by default and follow logLevel when asked', async () => {
    // Off: fastify's no-op logger, which has no level at all.
    await withMock({}, async (mock) => expect([undefined, 'silent']).toContain(mock.ctx.logger?.level));
    await withMock({ logLevel: 'error' }, async (mock) => expect(mock.ctx.logger?.level).toBe('error'));
  });
});
