/**
 * Refresh tokens (spec: States and transitions / Refresh token, Refresh flow,
 * Errors, Limits) and access-token lifetimes, with the faults of this area.
 */
import { describe, expect, it } from 'vitest';
import { control, DAY_MS, refreshRequest, tokenRequest, userTokens, useMock, withMock } from '../support/mock.js';

const YEAR_MS = 365 * DAY_MS;

/** The token with one character in the middle of its signature changed. */
function tamper(token: string): string {
  const i = token.length - 10;
  return token.slice(0, i) + (token[i] === 'x' ? 'y' : 'x') + token.slice(i + 1);
}

describe('refresh tokens', () => {
  const ctx = useMock();

  it('a refresh returns a new access token and a new refresh token; the old one is used up', async () => {
    const first = await userTokens(ctx.mock);
    const res = await refreshRequest(ctx.mock, first.refreshToken);
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).not.toBe(first.refreshToken);
    expect(res.json.access_token).not.toBe(first.accessToken);
    expect(res.json.token_type).toBe('Bearer');
    expect(await ctx.mock.ctx.tokens.verify(res.json.access_token)).toMatchObject({ userId: ctx.mock.ctx.world.users[0]!.userId });
    const again = await refreshRequest(ctx.mock, first.refreshToken);
    expect(again.status).toBe(400);
    expect(again.headers['content-type']).toContain('application/json');
    expect(again.json.error).toBe('invalid_grant');
    expect(typeof again.json.error_description).toBe('string');
    // The new one works.
    expect((await refreshRequest(ctx.mock, res.json.refresh_token)).status).toBe(200);
  });

  it('a refresh token is valid just short of a year and refused at a year', async () => {
    const a = await userTokens(ctx.mock);
    const b = await userTokens(ctx.mock);
    ctx.mock.ctx.clock.advance(YEAR_MS - 60_000);
    expect((await refreshRequest(ctx.mock, a.refreshToken)).status).toBe(200);
    ctx.mock.ctx.clock.advance(60_000);
    const res = await refreshRequest(ctx.mock, b.refreshToken);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('a revoked refresh token is refused; revoking an unknown one is 404', async () => {
    const t = await userTokens(ctx.mock);
    const revoke = await control(ctx.mock, 'POST', '/refresh-tokens/revoke', { refreshToken: t.refreshToken });
    expect(revoke.statusCode).toBe(204);
    expect((await refreshRequest(ctx.mock, t.refreshToken)).json.error).toBe('invalid_grant');
    expect((await control(ctx.mock, 'POST', '/refresh-tokens/revoke', { refreshToken: 'never-issued' })).statusCode).toBe(404);
  });

  it('an unknown refresh token, even of the right shape, is refused; a missing one is a malformed request (302 to /error)', async () => {
    const t = await userTokens(ctx.mock);
    const lookalike = t.refreshToken.slice(0, -4) + (t.refreshToken.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await refreshRequest(ctx.mock, lookalike)).json.error).toBe('invalid_grant');
    const missing = await tokenRequest(ctx.mock, { grant_type: 'refresh_token' });
    expect(missing.status).toBe(302);
    expect(missing.location).toMatch(/\/error(\?|$)/);
  });

  it('a client_credentials refresh token refreshes to an application token', async () => {
    await control(ctx.mock, 'POST', '/client-credentials', { clientId: ctx.mock.profile.clientId, enabled: true });
    const cc = await tokenRequest(ctx.mock, { grant_type: 'client_credentials' });
    const res = await refreshRequest(ctx.mock, cc.json.refresh_token);
    expect(res.status).toBe(200);
    expect(await ctx.mock.ctx.tokens.verify(res.json.access_token)).toMatchObject({ userId: null });
  });
});

describe('access token lifetime', () => {
  it('access tokens verify until expires_in has passed on the mock clock', async () => {
    await withMock({}, async (mock) => {
      const t = await userTokens(mock);
      mock.ctx.clock.advance(t.expiresIn * 1000 - 2000);
      expect(await mock.ctx.tokens.verify(t.accessToken)).not.toBeNull();
      mock.ctx.clock.advance(2000);
      expect(await mock.ctx.tokens.verify(t.accessToken)).toBeNull();
    });
  });

  it('accessTokenLifetimeSec sets expires_in and the JWT expiry', async () => {
    await withMock({ accessTokenLifetimeSec: 172_800 }, async (mock) => {
      const t = await userTokens(mock);
      expect(t.expiresIn).toBe(172_800);
      mock.ctx.clock.advance(172_800 * 1000);
      expect(await mock.ctx.tokens.verify(t.accessToken)).toBeNull();
    });
  });

  it('verify refuses malformed, foreign and tampered tokens', async () => {
    await withMock({}, async (mock) => {
      const t = await userTokens(mock);
      const [h, , s] = t.accessToken.split('.');
      for (const bad of ['', 'x', 'a.b.c', tamper(t.accessToken), `${h}.${Buffer.from('{"sub":"x"}').toString('base64url')}.${s}`]) {
        expect(await mock.ctx.tokens.verify(bad)).toBeNull();
      }
    });
  });

  it('issue honours a requested expiry (rotation), later than the one presented', async () => {
    await withMock({}, async (mock) => {
      const t = await userTokens(mock);
      const claims = (await mock.ctx.tokens.verify(t.accessToken))!;
      const next = await mock.ctx.tokens.issue({ userId: claims.userId, clientId: claims.clientId, expiresAtMs: claims.expiresAtMs + 500 });
      expect(next.expiresAtMs).toBeGreaterThan(claims.expiresAtMs);
      expect((await mock.ctx.tokens.verify(next.token))!.expiresAtMs).toBe(next.expiresAtMs);
    });
  });

  it('control reset drops every token and code the run created', async () => {
    await withMock({}, async (mock) => {
      const t = await userTokens(mock);
      expect((await control(mock, 'POST', '/reset')).statusCode).toBe(204);
      expect(await mock.ctx.tokens.verify(t.accessToken)).toBeNull();
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(400);
    });
  });
});

describe('faults of refresh tokens and lifetimes', () => {
  it('refresh-reusable: a used refresh token can be redeemed again', async () => {
    await withMock({ faults: ['refresh-reusable'] }, async (mock) => {
      const t = await userTokens(mock);
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(200);
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(200);
      await control(mock, 'POST', '/refresh-tokens/revoke', { refreshToken: t.refreshToken });
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(400);
    });
  });

  it('refresh-no-new-token: the refresh grant returns the refresh token it was given', async () => {
    await withMock({ faults: ['refresh-no-new-token'] }, async (mock) => {
      const t = await userTokens(mock);
      const res = await refreshRequest(mock, t.refreshToken);
      expect(res.status).toBe(200);
      expect(res.json.refresh_token).toBe(t.refreshToken);
      expect(await mock.ctx.tokens.verify(res.json.access_token)).not.toBeNull();
    });
  });

  it('refresh-error-not-oauth: a refused refresh token (used, expired, revoked) gets 400 text/plain; a never-issued one keeps its OAuth body', async () => {
    await withMock({ faults: ['refresh-error-not-oauth'] }, async (mock) => {
      const used = await userTokens(mock);
      expect((await refreshRequest(mock, used.refreshToken)).status).toBe(200);
      const res = await refreshRequest(mock, used.refreshToken);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.json).toBeUndefined();
      // A token never issued is REFRESH-UNKNOWN-ERROR-ANSWER's, not the Errors row's.
      expect((await refreshRequest(mock, 'unknown-token')).json.error).toBe('invalid_grant');
      // Other token errors keep their OAuth body.
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: 'x' })).json.error).toBe('invalid_grant');
    });
  });

  it('refresh-unknown-401: a never-issued refresh token gets 401 with an OAuth body; a used one still gets 400', async () => {
    await withMock({ faults: ['refresh-unknown-401'] }, async (mock) => {
      const unknown = await refreshRequest(mock, 'unknown-token');
      expect(unknown.status).toBe(401);
      expect(unknown.json.error).toBe('invalid_grant');
      const used = await userTokens(mock);
      expect((await refreshRequest(mock, used.refreshToken)).status).toBe(200);
      expect((await refreshRequest(mock, used.refreshToken)).status).toBe(400);
    });
  });

  it('refresh-error-invalid-request: a refused refresh token gets error=invalid_request', async () => {
    await withMock({ faults: ['refresh-error-invalid-request'] }, async (mock) => {
      const res = await refreshRequest(mock, 'unknown-token');
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    });
  });

  it('refresh-unknown-accepted: an unknown token of the right shape is redeemed for the first user', async () => {
    await withMock({ faults: ['refresh-unknown-accepted'] }, async (mock) => {
      const res = await refreshRequest(mock, 'A'.repeat(43));
      expect(res.status).toBe(200);
      expect(await mock.ctx.tokens.verify(res.json.access_token)).toMatchObject({ userId: mock.ctx.world.users[0]!.userId });
      expect((await refreshRequest(mock, 'bad shape!')).status).toBe(400);
      const t = await userTokens(mock);
      await refreshRequest(mock, t.refreshToken);
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(400);
    });
  });

  it('refresh-never-expires: a refresh token works after two years', async () => {
    await withMock({ faults: ['refresh-never-expires'] }, async (mock) => {
      const t = await userTokens(mock);
      mock.ctx.clock.advance(2 * YEAR_MS);
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(200);
    });
  });

  it('refresh-expires-early: a refresh token dies after 30 days', async () => {
    await withMock({ faults: ['refresh-expires-early'] }, async (mock) => {
      const a = await userTokens(mock);
      const b = await userTokens(mock);
      mock.ctx.clock.advance(29 * DAY_MS);
      expect((await refreshRequest(mock, a.refreshToken)).status).toBe(200);
      mock.ctx.clock.advance(DAY_MS);
      expect((await refreshRequest(mock, b.refreshToken)).status).toBe(400);
    });
  });

  it('refresh-revocation-ignored: revocation answers 204 but the token still works', async () => {
    await withMock({ faults: ['refresh-revocation-ignored'] }, async (mock) => {
      const t = await userTokens(mock);
      expect((await control(mock, 'POST', '/refresh-tokens/revoke', { refreshToken: t.refreshToken })).statusCode).toBe(204);
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(200);
      expect((await refreshRequest(mock, t.refreshToken)).status).toBe(400);
    });
  });

  it('refresh-access-token-dead: the refreshed access token is never accepted; code-grant tokens are', async () => {
    await withMock({ faults: ['refresh-access-token-dead'] }, async (mock) => {
      const t = await userTokens(mock);
      expect(await mock.ctx.tokens.verify(t.accessToken)).not.toBeNull();
      const res = await refreshRequest(mock, t.refreshToken);
      expect(res.status).toBe(200);
      expect(res.json.access_token.split('.')).toHaveLength(3);
      expect(await mock.ctx.tokens.verify(res.json.access_token)).toBeNull();
      expect((await refreshRequest(mock, res.json.refresh_token)).status).toBe(200);
    });
  });

  it('short-access-token: expires_in is 3600 and tokens die after an hour', async () => {
    await withMock({ faults: ['short-access-token'] }, async (mock) => {
      const t = await userTokens(mock);
      expect(t.expiresIn).toBe(3600);
      mock.ctx.clock.advance(3600 * 1000);
      expect(await mock.ctx.tokens.verify(t.accessToken)).toBeNull();
    });
  });

  it('expired-token-accepted: verify ignores exp but still checks the signature', async () => {
    await withMock({ faults: ['expired-token-accepted'] }, async (mock) => {
      const t = await userTokens(mock);
      mock.ctx.clock.advance(2 * t.expiresIn * 1000);
      expect(await mock.ctx.tokens.verify(t.accessToken)).not.toBeNull();
      expect(await mock.ctx.tokens.verify(tamper(t.accessToken))).toBeNull();
    });
  });
});
