/**
 * Finding 8: revocation as RFC 6749 and RFC 9700 recommend where the spec is
 * silent, and the spec's own rules where it is not (docs/mock-security.md).
 */
import { describe, expect, it } from 'vitest';
import type { RunningMock } from '../../../mock/server.js';
import { authorizationCode, control, refreshRequest, tokenRequest, userTokens, withMock } from '../../support/mock.js';

async function me(mock: RunningMock, accessToken: string) {
  const res = await mock.app.inject({ method: 'GET', url: '/api/users/me', headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': accessToken } });
  return { status: res.statusCode, rotated: res.headers['x-access-token'] as string | undefined, cacheControl: res.headers['cache-control'] };
}

describe('RFC 6749 §4.1.2: a code redeemed twice', () => {
  it('revokes what the first redemption issued: its refresh token, its access token and the tokens rotated from it', () =>
    withMock({}, async (mock) => {
      const code = await authorizationCode(mock);
      const first = await tokenRequest(mock, { grant_type: 'authorization_code', code });
      expect(first.status).toBe(200);
      const rotated = (await me(mock, first.json.access_token)).rotated!;
      const other = await userTokens(mock, 1);

      const second = await tokenRequest(mock, { grant_type: 'authorization_code', code });
      expect(second.status).toBe(400);
      expect(second.json.error).toBe('invalid_grant');

      expect((await me(mock, first.json.access_token)).status).toBe(401);
      expect((await me(mock, rotated)).status).toBe(401);
      const refreshed = await refreshRequest(mock, first.json.refresh_token);
      expect(refreshed.status).toBe(400);
      expect(refreshed.json).toMatchObject({ error: 'invalid_grant', error_description: 'refresh token revoked' });
      // Another grant is untouched.
      expect((await me(mock, other.accessToken)).status).toBe(200);
      expect((await refreshRequest(mock, other.refreshToken)).status).toBe(200);
    }));

  it('under the code-reusable fault nothing is revoked (the fault breaks single use itself)', () =>
    withMock({ faults: ['code-reusable'] }, async (mock) => {
      const code = await authorizationCode(mock);
      const first = await tokenRequest(mock, { grant_type: 'authorization_code', code });
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code })).status).toBe(200);
      expect((await me(mock, first.json.access_token)).status).toBe(200);
    }));
});

describe('Revoking a refresh token (control protocol)', () => {
  it('ends the access tokens of its grant too (RFC 7009 §2.1); other grants keep working', () =>
    withMock({}, async (mock) => {
      const session = await userTokens(mock);
      const next = (await refreshRequest(mock, session.refreshToken)).json;
      const other = await userTokens(mock);
      expect((await control(mock, 'POST', '/refresh-tokens/revoke', { refreshToken: next.refresh_token })).statusCode).toBe(204);
      expect((await me(mock, session.accessToken)).status).toBe(401);
      expect((await me(mock, next.access_token)).status).toBe(401);
      expect((await refreshRequest(mock, next.refresh_token)).status).toBe(400);
      expect((await me(mock, other.accessToken)).status).toBe(200);
    }));
});

describe('A replayed spent refresh token', () => {
  it('by default changes nothing but its own 400: the spec\'s table gives a used token\'s reuse no other effect', () =>
    withMock({}, async (mock) => {
      const session = await userTokens(mock);
      const next = (await refreshRequest(mock, session.refreshToken)).json;
      expect((await refreshRequest(mock, session.refreshToken)).json).toMatchObject({ error: 'invalid_grant', error_description: 'refresh token already used' });
      // New access tokens do not invalidate previous ones; the current refresh token stays redeemable.
      expect((await me(mock, session.accessToken)).status).toBe(200);
      expect((await refreshRequest(mock, next.refresh_token)).status).toBe(200);
    }));

  it('with revokeOnRefreshReplay (RFC 9700 §4.14.2) revokes the whole chain and its access tokens', () =>
    withMock({ revokeOnRefreshReplay: true }, async (mock) => {
      const session = await userTokens(mock);
      const next = (await refreshRequest(mock, session.refreshToken)).json;
      expect((await refreshRequest(mock, session.refreshToken)).status).toBe(400);
      expect((await refreshRequest(mock, next.refresh_token)).json).toMatchObject({ error: 'invalid_grant', error_description: 'refresh token revoked' });
      expect((await me(mock, next.access_token)).status).toBe(401);
      expect((await me(mock, session.accessToken)).status).toBe(401);
    }));
});
