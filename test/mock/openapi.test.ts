/**
 * The OpenAPI document (docs/mock.md): served at /docs (Swagger UI) and
 * /docs/json, generated from the route schemas, covering every route of the
 * OAuth server, the API and the control protocol; and it describes what the mock
 * really answers: live answers are validated against the documented schemas.
 * (The schemas document only: test/mock/bad-input-fuzz.test.ts and the
 * validation tests keep checking that bad input gets the same 4xx as before.)
 */
// ajv (a devDependency; fastify validates with it too) is used here to read the document's schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../mock/server.js';
import { userTokens } from '../support/mock.js';

let mock: RunningMock;
let doc: any;
const ajv = new Ajv2020({ strict: false, validateFormats: false });

beforeAll(async () => {
  mock = await createMock();
  const res = await mock.app.inject({ method: 'GET', url: '/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await mock?.close();
});

function responseSchema(path: string, method: string, status: number): object {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)];
  expect(response, `${method.toUpperCase()} ${path} documents ${status}`).toBeDefined();
  return response.content['application/json'].schema;
}

function expectMatches(schema: object, value: unknown, what: string): void {
  const validate = ajv.compile(schema);
  expect(validate(value) ? [] : validate.errors, what).toEqual([]);
}

describe('The OpenAPI document', () => {
  it('is OpenAPI 3.1 with every route of the OAuth server, the API and the control protocol', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/_control/client-credentials', '/_control/clock', '/_control/consent', '/_control/events', '/_control/fixtures', '/_control/lease', '/_control/lease/{runId}',
      '/_control/refresh-tokens/revoke', '/_control/reset',
      '/api/remoteoperate/{lockId}/status', '/api/users/locks/mine', '/api/users/me',
      '/api/webhook/user', '/api/webhook/{lockID}', '/api/webhook/{lockID}/{clientID}',
      '/oauth/access_token', '/oauth/authorization', '/oauth/consent', '/oauth/phone', '/oauth/sign-in', '/oauth/sms',
    ]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['accessToken', 'apiKey', 'controlToken']);
    expect(doc.paths['/api/users/me'].get.security).toEqual([{ apiKey: [], accessToken: [] }]);
    expect(doc.paths['/api/users/me'].get.responses['200'].headers['x-access-token']).toBeDefined();
  });

  it('carries no secret of the running mock', () => {
    const text = JSON.stringify(doc);
    for (const secret of [mock.profile.clientSecret, mock.profile.apiKey, mock.profile.controlToken!]) expect(text).not.toContain(secret);
  });

  it('is browsable at /docs', async () => {
    const res = await mock.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });

  it('leaves the control protocol out when the mock runs without it', async () => {
    const bare = await createMock({ control: false });
    try {
      const paths = Object.keys((await bare.app.inject({ method: 'GET', url: '/docs/json' })).json().paths);
      expect(paths.some((p) => p.startsWith('/_control'))).toBe(false);
    } finally {
      await bare.close();
    }
  });
});

describe('The document describes what the mock answers', () => {
  it('token response, users, locks, status check, registration and deletion match their schemas', async () => {
    const tokens = await mock.app.inject({
      method: 'POST', url: '/oauth/access_token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', client_id: mock.profile.clientId, client_secret: mock.profile.clientSecret, refresh_token: (await userTokens(mock)).refreshToken }).toString(),
    });
    expectMatches(responseSchema('/oauth/access_token', 'post', 200), tokens.json(), 'token response');
    const headers = { 'x-api-key': mock.profile.apiKey, 'x-access-token': tokens.json().access_token, 'content-type': 'application/json' };
    const lock = mock.ctx.world.locks[0]!.lockId;
    const registration = { url: 'http://127.0.0.1:9/hooks', method: 'POST', clientID: mock.profile.clientId, header: 'x-app', token: 't', notificationTypes: ['operation'] };
    expectMatches(doc.paths['/api/webhook/{lockID}'].post.requestBody.content['application/json'].schema, registration, 'registration body');
    const calls: Array<[string, string, string, unknown?]> = [
      ['GET', '/api/users/me', '/api/users/me'],
      ['GET', '/api/users/locks/mine', '/api/users/locks/mine'],
      ['POST', `/api/webhook/${lock}`, '/api/webhook/{lockID}', registration],
      ['PUT', `/api/remoteoperate/${lock}/status`, '/api/remoteoperate/{lockId}/status'],
      ['DELETE', `/api/webhook/${lock}/${mock.profile.clientId}`, '/api/webhook/{lockID}/{clientID}'],
    ];
    for (const [method, url, path, body] of calls) {
      const res = await mock.app.inject({ method: method as 'GET', url, headers, ...(body ? { payload: JSON.stringify(body) } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(200);
      expectMatches(responseSchema(path, method.toLowerCase(), 200), res.json(), `${method} ${path}`);
    }
    const refused = await mock.app.inject({ method: 'GET', url: '/api/users/me', headers: { ...headers, 'x-access-token': 'nope' } });
    expectMatches(responseSchema('/api/users/me', 'get', 401), refused.json(), '401');
  });

  it('control answers match their schemas', async () => {
    const control = { 'x-control-token': mock.profile.controlToken!, 'content-type': 'application/json' };
    const fixtures = await mock.app.inject({ method: 'GET', url: '/_control/fixtures', headers: control });
    expectMatches(responseSchema('/_control/fixtures', 'get', 200), fixtures.json(), 'fixtures');
    const clock = await mock.app.inject({ method: 'POST', url: '/_control/clock', headers: control, payload: JSON.stringify({ advanceMs: 0 }) });
    expectMatches(responseSchema('/_control/clock', 'post', 200), clock.json(), 'clock');
    const event = await mock.app.inject({ method: 'POST', url: '/_control/events', headers: control, payload: JSON.stringify({ kind: 'door', lockId: mock.ctx.world.locks[0]!.lockId, value: 'open' }) });
    expectMatches(responseSchema('/_control/events', 'post', 200), event.json(), 'events');
    const bad = await mock.app.inject({ method: 'POST', url: '/_control/clock', headers: control, payload: JSON.stringify({ advanceMs: -1 }) });
    expect(bad.statusCode).toBe(400);
    expectMatches(responseSchema('/_control/clock', 'post', 400), bad.json(), 'control 400');
  });
});
