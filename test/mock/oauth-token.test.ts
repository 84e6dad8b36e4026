/**
 * The token endpoint (spec: POST {auth_url}/access_token, Token response,
 * Client credentials flow, Errors): grants, client authentication from the body
 * only, malformed requests, codes, and the faults of this area.
 */
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.js';
import { authorizationCode, control, tokenRequest, useMock, withMock } from '../support/mock.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function enableClientCredentials(mock: RunningMock): Promise<void> {
  const res = await control(mock, 'POST', '/client-credentials', { clientId: mock.profile.clientId, enabled: true });
  expect(res.statusCode).toBe(204);
}

describe('token endpoint', () => {
  const ctx = useMock();

  it('the code grant answers the token response: JWT access token, integer expires_in, refresh token, Bearer', async () => {
    const { mock } = ctx;
    const code = await authorizationCode(mock);
    const res = await tokenRequest(mock, { grant_type: 'authorization_code', code });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.json).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(res.json.token_type).toBe('Bearer');
    expect(res.json.expires_in).toBe(10_368_000);
    expect(typeof res.json.refresh_token).toBe('string');
    const claims = decodeJwt(res.json.access_token);
    expect(claims.sub).toBe(mock.ctx.world.users[0]!.userId);
    expect(claims.client_id).toBe(mock.profile.clientId);
    expect(claims.exp! - claims.iat!).toBe(10_368_000);
    expect(typeof claims.jti).toBe('string');
    expect(await mock.ctx.tokens.verify(res.json.access_token)).toMatchObject({ userId: mock.ctx.world.users[0]!.userId, clientId: mock.profile.clientId });
  });

  it('codes are bound to the user who consented', async () => {
    const code = await authorizationCode(ctx.mock, 1);
    const res = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code });
    expect(decodeJwt(res.json.access_token).sub).toBe(ctx.mock.ctx.world.users[1]!.userId);
  });

  it('a code works once; the second use is invalid_grant', async () => {
    const code = await authorizationCode(ctx.mock);
    expect((await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code })).status).toBe(200);
    const again = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_grant');
  });

  it('an unknown code, a missing code and a code with another redirect_uri are refused', async () => {
    expect((await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code: 'made-up' })).json.error).toBe('invalid_grant');
    const missing = await tokenRequest(ctx.mock, { grant_type: 'authorization_code' }); // malformed: the Errors table's 302 to /error
    expect(missing.status).toBe(302);
    expect(missing.location).toMatch(/\/error(\?|$)/);
    const code = await authorizationCode(ctx.mock);
    const other = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code, redirect_uri: 'https://elsewhere.example/cb' });
    expect(other.status).toBe(400);
    expect(other.json.error).toBe('invalid_grant');
  });

  it('codes expire after ten minutes on the mock clock', async () => {
    const fresh = await authorizationCode(ctx.mock);
    const stale = await authorizationCode(ctx.mock);
    ctx.mock.ctx.clock.advance(9 * 60 * 1000);
    expect((await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code: fresh })).status).toBe(200);
    ctx.mock.ctx.clock.advance(60 * 1000);
    const res = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code: stale });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('a wrong or missing client_secret or client_id gets 400 invalid_client "secrets did not match"', async () => {
    const code = await authorizationCode(ctx.mock);
    const forms: Array<Record<string, string | null>> = [{ client_secret: 'wrong' }, { client_secret: null }, { client_id: null }, { client_id: 'other' }];
    for (const form of forms) {
      const res = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code, ...form });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_client', error_description: 'secrets did not match', message: 'secrets did not match' });
    }
    // The code was not spent by the refused requests.
    expect((await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code })).status).toBe(200);
  });

  it('credentials in an Authorization: Basic header instead of the body get 400 "secrets did not match"', async () => {
    const code = await authorizationCode(ctx.mock);
    const res = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code, client_id: null, client_secret: null }, {
      headers: { authorization: basic(ctx.mock.profile.clientId, ctx.mock.profile.clientSecret) },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('secrets did not match');
  });

  it('a Basic header is ignored whatever it holds when the body is right', async () => {
    for (const header of [basic('bogus', 'bogus'), 'Basic !!!not-base64', basic(ctx.mock.profile.clientId, ctx.mock.profile.clientSecret)]) {
      const code = await authorizationCode(ctx.mock);
      const res = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code }, { headers: { authorization: header } });
      expect(res.status).toBe(200);
    }
  });

  it('client_credentials is refused (unauthorized_client) until enabled through control, then answers the same shape', async () => {
    const refused = await tokenRequest(ctx.mock, { grant_type: 'client_credentials' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('unauthorized_client');
    await enableClientCredentials(ctx.mock);
    const res = await tokenRequest(ctx.mock, { grant_type: 'client_credentials' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(await ctx.mock.ctx.tokens.verify(res.json.access_token)).toMatchObject({ userId: null, clientId: ctx.mock.profile.clientId });
    const off = await control(ctx.mock, 'POST', '/client-credentials', { clientId: ctx.mock.profile.clientId, enabled: false });
    expect(off.statusCode).toBe(204);
    expect((await tokenRequest(ctx.mock, { grant_type: 'client_credentials' })).status).toBe(400);
  });

  it('an unknown grant_type with an otherwise fine body gets unsupported_grant_type', async () => {
    const res = await tokenRequest(ctx.mock, { grant_type: 'password' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('unsupported_grant_type');
  });

  it.each([
    ['a body split by an unquoted & (no grant_type)', { raw: 'client_id=x' }],
    ['an empty body', { raw: '' }],
    ['a repeated grant_type', { raw: 'grant_type=a&grant_type=b&client_id=x&client_secret=y' }],
    ['broken percent-encoding', { raw: 'grant_type=client_credentials&client_id=%E0%A4%A&client_secret=%' }],
    ['a JSON body', { raw: '{"grant_type":"client_credentials"}', headers: { 'content-type': 'application/json' } }],
    ['broken JSON', { raw: '{"grant_type":', headers: { 'content-type': 'application/json' } }],
    ['a text/plain body', { raw: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } }],
    ['an oversized body', { raw: 'grant_type=x&pad=' + 'a'.repeat(70_000) }],
  ])('%s is answered 302 to /error', async (_name, opts) => {
    const res = await tokenRequest(ctx.mock, {}, opts);
    expect(res.status).toBe(302);
    expect(res.location).toBe('/error');
  });

  it('GET (and other methods) on the token endpoint is answered 302 to /error, and /error is a page', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await ctx.mock.app.inject({ method, url: `/oauth/access_token?grant_type=client_credentials&client_id=${ctx.mock.profile.clientId}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/error');
    }
    const page = await ctx.mock.app.inject({ method: 'GET', url: '/error' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('error responses never echo the client secret', async () => {
    const res = await tokenRequest(ctx.mock, { grant_type: 'nope', client_secret: 'my-wrong-secret' });
    expect(res.text).not.toContain('my-wrong-secret');
    expect(res.text).not.toContain(ctx.mock.profile.clientSecret);
  });
});

describe('faults of the token endpoint', () => {
  const header = (mock: RunningMock) => ({ authorization: basic(mock.profile.clientId, mock.profile.clientSecret) });

  it('basic-header-accepted: credentials in the Basic header are used when the body lacks them', async () => {
    await withMock({ faults: ['basic-header-accepted'] }, async (mock) => {
      const code = await authorizationCode(mock);
      const res = await tokenRequest(mock, { grant_type: 'authorization_code', code, client_id: null, client_secret: null }, { headers: header(mock) });
      expect(res.status).toBe(200);
      // A body with the right secrets still works; a wrong body secret is still refused.
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) })).status).toBe(200);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock), client_secret: 'x' })).status).toBe(400);
    });
  });

  it('basic-header-not-ignored: a bogus Basic header makes a correct request fail; no header still works', async () => {
    await withMock({ faults: ['basic-header-not-ignored'] }, async (mock) => {
      const res = await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) }, { headers: { authorization: basic('bogus', 'bogus') } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_client');
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) })).status).toBe(200);
      // Credentials only in the header are still refused.
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock), client_id: null, client_secret: null }, { headers: header(mock) })).status).toBe(400);
    });
  });

  it('wrong-secret-accepted: any client_secret passes; client_id is still checked', async () => {
    await withMock({ faults: ['wrong-secret-accepted'] }, async (mock) => {
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock), client_secret: 'wrong' })).status).toBe(200);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock), client_id: 'other' })).status).toBe(400);
    });
  });

  it('malformed-400: a malformed request gets 400 JSON instead of a 302; GET too', async () => {
    await withMock({ faults: ['malformed-400'] }, async (mock) => {
      const res = await tokenRequest(mock, {}, { raw: 'client_id=x' });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
      expect((await mock.app.inject({ method: 'GET', url: '/oauth/access_token' })).statusCode).toBe(400);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) })).status).toBe(200);
    });
  });

  it('expires-in-string: expires_in is a string of digits; the rest is unchanged', async () => {
    await withMock({ faults: ['expires-in-string'] }, async (mock) => {
      const res = await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) });
      expect(res.json.expires_in).toBe('10368000');
      expect(decodeJwt(res.json.access_token).sub).toBeTruthy();
    });
  });

  it('access-token-opaque: access_token is not a JWT, and the mock still accepts it', async () => {
    await withMock({ faults: ['access-token-opaque'] }, async (mock) => {
      const res = await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) });
      expect(res.json.access_token).toMatch(/^[0-9a-f]{64}$/);
      expect(() => decodeJwt(res.json.access_token)).toThrow();
      expect(await mock.ctx.tokens.verify(res.json.access_token)).toMatchObject({ userId: mock.ctx.world.users[0]!.userId });
      mock.ctx.clock.advance(10_368_000 * 1000);
      expect(await mock.ctx.tokens.verify(res.json.access_token)).toBeNull();
    });
  });

  it('code-reusable: a code can be exchanged again', async () => {
    await withMock({ faults: ['code-reusable'] }, async (mock) => {
      const code = await authorizationCode(mock);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code })).status).toBe(200);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code })).status).toBe(200);
      mock.ctx.clock.advance(10 * 60 * 1000);
      expect((await tokenRequest(mock, { grant_type: 'authorization_code', code })).status).toBe(400);
    });
  });

  it('cc-enabled-by-default: client_credentials works without permission', async () => {
    await withMock({ faults: ['cc-enabled-by-default'] }, async (mock) => {
      const res = await tokenRequest(mock, { grant_type: 'client_credentials' });
      expect(res.status).toBe(200);
      expect(res.json.refresh_token).toEqual(expect.any(String));
    });
  });

  it('cc-no-refresh-token: the client_credentials response lacks refresh_token; the code grant still has it', async () => {
    await withMock({ faults: ['cc-no-refresh-token'] }, async (mock) => {
      expect((await tokenRequest(mock, { grant_type: 'client_credentials' })).status).toBe(400);
      await enableClientCredentials(mock);
      const res = await tokenRequest(mock, { grant_type: 'client_credentials' });
      expect(res.status).toBe(200);
      expect(res.json).not.toHaveProperty('refresh_token');
      const code = await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) });
      expect(code.json.refresh_token).toEqual(expect.any(String));
    });
  });

  it('extraFields variant: token responses carry an unknown field', async () => {
    await withMock({ extraFields: true }, async (mock) => {
      const res = await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) });
      expect(Object.keys(res.json).length).toBe(5);
      expect(res.json.access_token).toBeTruthy();
    });
  });
});
