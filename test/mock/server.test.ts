/**
 * createMock(): the assembly (profile, credentials, options, close) and the
 * rule that bad input to any OAuth or control route gets a clear 4xx, never a
 * 5xx or a crash, and loses no state (a fast-check fuzz over every route).
 */
import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../mock/server.js';
import { authorizationCode, authorizationPath, refreshRequest, tokenRequest, userTokens, useMock, withMock } from '../support/mock.js';

describe('createMock', () => {
  it('listens on 127.0.0.1 and answers a complete target profile', async () => {
    await withMock({}, async (mock) => {
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const p = mock.profile;
      expect(p).toMatchObject({
        authUrl: `${mock.url}/oauth`,
        baseUrl: `${mock.url}/api`,
        controlUrl: `${mock.url}/_control`,
        redirectUri: `${mock.url}/callback`,
        statusCheck: { method: 'PUT', path: '/remoteoperate/{lockId}/status' },
      });
      for (const field of ['clientId', 'clientSecret', 'apiKey', 'controlToken'] as const) expect(p[field]).toMatch(/^\S{16,}$/);
      expect(p.fixtures?.users.length).toBeGreaterThanOrEqual(2);
      const res = await request(`${mock.url}/error`);
      expect(res.statusCode).toBe(200);
      await res.body.text();
    });
  });

  it('credentials are random per instance unless fixed', async () => {
    const fixed = { clientId: 'fixed-client', clientSecret: 'fixed-secret-value', apiKey: 'fixed-api-key', controlToken: 'fixed-control', redirectUri: 'https://app.example.test/cb' };
    const [a, b, c] = await Promise.all([createMock(), createMock(), createMock({ credentials: fixed })]);
    try {
      expect(a.profile.clientSecret).not.toBe(b.profile.clientSecret);
      expect(a.profile.controlToken).not.toBe(b.profile.controlToken);
      expect(c.profile).toMatchObject({ clientId: 'fixed-client', clientSecret: 'fixed-secret-value', apiKey: 'fixed-api-key', controlToken: 'fixed-control', redirectUri: 'https://app.example.test/cb' });
      const res = await c.app.inject({ method: 'GET', url: authorizationPath(c) });
      expect(res.statusCode).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('refuses an unknown fault and a bad access-token lifetime', async () => {
    await expect(createMock({ faults: ['no-such-fault'] })).rejects.toThrow(/unknown fault/);
    await expect(createMock({ accessTokenLifetimeSec: -5 })).rejects.toThrow(RangeError);
  });

  it('close() stops the server and may be called twice', async () => {
    const mock = await createMock();
    await mock.close();
    await mock.close();
    await expect(request(`${mock.url}/error`)).rejects.toThrow();
  });

  it('the demo /callback page shows the outcome without printing the code', async () => {
    await withMock({}, async (mock) => {
      const res = await mock.app.inject({ method: 'GET', url: '/callback?code=SECRET-CODE-123&state=%3Cb%3E' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('approved');
      expect(res.body).not.toContain('SECRET-CODE-123');
      expect(res.body).toContain('&lt;b&gt;');
      const denied = await mock.app.inject({ method: 'GET', url: '/callback?error=access_denied&state=s' });
      expect(denied.body).toContain('access_denied');
    });
  });

  it('an unknown route is a 404 JSON error', async () => {
    await withMock({}, async (mock) => {
      const res = await mock.app.inject({ method: 'GET', url: '/nothing/here?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    });
  });
});

describe('bad input to every OAuth and control route', () => {
  const ctx = useMock();

  const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
  const PATHS = [
    '/oauth/authorization', '/oauth/sign-in', '/oauth/sms', '/oauth/consent', '/oauth/phone', '/oauth/access_token',
    '/error', '/callback', '/_control/fixtures', '/_control/consent', '/_control/events', '/_control/refresh-tokens/revoke',
    '/_control/client-credentials', '/_control/clock', '/oauth/unknown', '/_control/unknown',
  ];
  const CONTENT_TYPES = [
    null, 'application/x-www-form-urlencoded', 'application/json', 'application/json; charset=utf-8', 'text/plain',
    'application/octet-stream', 'multipart/form-data; boundary=x', 'garbage', 'application/x-www-form-urlencoded; charset=latin1',
  ];
  const word = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('grant_type', 'client_id', 'client_secret', 'code', 'refresh_token', 'request', '_csrf', 'email', 'password', 'decision', 'state', 'redirect_uri', 'advanceMs', 'kind', 'authorization_code', 'refresh_token', 'client_credentials', '__proto__', 'constructor', '%ZZ', '&&', '=='));
  const formBody = fc.array(fc.tuple(word, word), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const body = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.dictionary(word, fc.oneof(word, fc.integer(), fc.boolean(), fc.constant(null), fc.array(word, { maxLength: 3 }))).map((v) => JSON.stringify(v)),
    formBody,
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('{', '{"a":', '\u0000\u0001', '%', '{"__proto__":{"x":1}}', 'x'.repeat(70_000)),
  );
  const query = fc.array(fc.tuple(word, word), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString());

  it('never answers 5xx and always answers 4xx errors with a body', async () => {
    const { mock } = ctx;
    const kept = await userTokens(mock);
    const token = mock.profile.controlToken!;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS), fc.constantFrom(...PATHS), fc.constantFrom(...CONTENT_TYPES), body, query, fc.boolean(),
        async (method, path, contentType, payload, q, withToken) => {
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (withToken) headers['x-control-token'] = token;
          const hasBody = payload !== undefined && method !== 'GET';
          // The clock is moved only with valid bodies elsewhere; fuzzing it would expire tokens.
          if (path === '/_control/clock' && method === 'POST' && withToken && contentType?.startsWith('application/json')) return;
          const res = await mock.app.inject({ method, url: q ? `${path}?${q}` : path, headers, ...(hasBody ? { payload } : {}) });
          expect(res.statusCode, `${method} ${path} ${contentType} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(res.body.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 400 },
    );
    // Nothing was lost: the tokens issued before still work, and the service still serves.
    expect(await mock.ctx.tokens.verify(kept.accessToken)).not.toBeNull();
    expect((await refreshRequest(mock, kept.refreshToken)).status).toBe(200);
    expect((await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) })).status).toBe(200);
  });

  it('oversized bodies get a 4xx everywhere (302 /error at the token endpoint)', async () => {
    const big = 'a='.concat('b'.repeat(100_000));
    for (const path of ['/oauth/sign-in', '/_control/consent', '/oauth/access_token']) {
      const res = await ctx.mock.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', 'x-control-token': ctx.mock.profile.controlToken! }, payload: big });
      expect([302, 413]).toContain(res.statusCode);
    }
  });

  it('a request over a real socket with a broken body does not crash the server', async () => {
    const res = await request(`${ctx.mock.url}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=%E0%A4%A&client_id=%' });
    expect(res.statusCode).toBe(302);
    await res.body.text();
    const after = await request(`${ctx.mock.url}/error`);
    expect(after.statusCode).toBe(200);
    await after.body.text();
  });
});
