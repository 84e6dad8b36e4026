/**
 * The registered redirect URI through the control interface (PUT and GET
 * /_control/redirect-uri, docs/control-protocol-extensions.md): an application
 * that starts first registers its callback once the mock runs; from then on the
 * authorization endpoint accepts that callback and refuses the old one.
 */
import { describe, expect, it } from 'vitest';
import { authorizationPath, useMock } from '../support/mock.js';

const ctx = useMock({ grade: true });

function put(body: unknown, token: string | null = ctx.mock.profile.controlToken!) {
  return ctx.mock.app.inject({
    method: 'PUT',
    url: '/_control/redirect-uri',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-control-token': token } : {}) },
    payload: JSON.stringify(body),
  });
}

describe('PUT /_control/redirect-uri', () => {
  it('registers the application\'s callback: authorization accepts it, and refuses the one it replaced', async () => {
    const before = ctx.mock.ctx.credentials.redirectUri;
    const callback = 'http://127.0.0.1:38411/auth/callback';
    const answer = await put({ redirectUri: callback });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ redirectUri: callback });
    const read = await ctx.mock.app.inject({ method: 'GET', url: '/_control/redirect-uri', headers: { 'x-control-token': ctx.mock.profile.controlToken! } });
    expect(read.json()).toEqual({ redirectUri: callback });

    const accepted = await ctx.mock.app.inject({ method: 'GET', url: authorizationPath(ctx.mock, { redirect_uri: callback }) });
    expect(accepted.statusCode).toBe(200);
    const refused = await ctx.mock.app.inject({ method: 'GET', url: authorizationPath(ctx.mock, { redirect_uri: before }) });
    expect(refused.statusCode).toBe(400);
  });

  it('refuses what is no absolute http(s) URL, or one with a fragment, with 400 naming the field', async () => {
    for (const redirectUri of ['/callback', 'ftp://127.0.0.1/cb', 'http://127.0.0.1:3000/cb#x', 42]) {
      const answer = await put({ redirectUri });
      expect(answer.statusCode, String(redirectUri)).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'invalid_body', message: expect.stringContaining('redirectUri') });
    }
    expect((await put({ redirectUri: 'http://127.0.0.1:3000/cb', extra: 1 })).statusCode).toBe(400);
  });

  it('answers 401 without the control token', async () => {
    expect((await put({ redirectUri: 'http://127.0.0.1:3000/cb' }, null)).statusCode).toBe(401);
  });
});
