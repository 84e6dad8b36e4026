import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Exchange, TargetProfile } from '../../../harness/contracts.js';
import { LockconfError } from '../../../harness/run/errors.js';
import { HttpClient, LOG_BODY_LIMIT } from '../../../harness/wire/http.js';
import { Redactor } from '../../../harness/wire/redact.js';

const SECRET = 'client-secret-value-1';
const API_KEY = 'api-key-value-1';
const ACCESS = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.access-sig';
const ROTATED = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiIn0.rotated-sig';
const REFRESH = 'refresh-token-value-1';
const CODE = 'authorization-code-1';

let app: FastifyInstance;
let base: string;
let profile: TargetProfile;

beforeAll(async () => {
  app = Fastify({ logger: false });
  // raw form bodies, so the order of fields can be checked
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) => done(null, body));
    scope.post('/echo-form', async (req) => ({ raw: req.body, contentType: req.headers['content-type'] }));
  });
  await app.register(formbody);
  app.get('/redirect', async (_req, reply) => reply.code(302).header('location', `https://app.example.test/cb?code=${CODE}&state=s`).send());
  app.get('/target', async () => ({ followed: true }));
  app.post('/token', async () => ({ access_token: ACCESS, refresh_token: REFRESH, expires_in: 100 }));
  app.all('/api/*', async (req, reply) => {
    reply.header('x-access-token', ROTATED);
    reply.header('set-cookie', ['a=1', 'b=2']);
    return { url: req.url, method: req.method, headers: req.headers, body: req.body ?? null };
  });
  app.get('/error-body', async (_req, reply) => reply.code(400).send({ statusCode: 400, code: 'FST_ERR_SOMETHING', error: 'Bad Request', message: 'x' }));
  app.get('/text', async (_req, reply) => reply.type('text/plain').send('not { json'));
  app.get('/big', async (_req, reply) => reply.type('text/plain').send(`${'x'.repeat(LOG_BODY_LIMIT)}${SECRET}`));
  app.get('/slow', async () => new Promise((r) => setTimeout(() => r({ late: true }), 300)));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
  profile = {
    authUrl: `${base}`,
    baseUrl: `${base}/api`,
    clientId: 'client-1',
    clientSecret: SECRET,
    apiKey: API_KEY,
    redirectUri: 'https://app.example.test/cb',
  };
});
afterAll(async () => {
  await app?.close();
});

function client(onExchange?: (e: Exchange) => void) {
  const redactor = new Redactor();
  return { http: new HttpClient({ profile, redactor, ...(onExchange ? { onExchange } : {}) }), redactor };
}

const logText = (http: HttpClient) => JSON.stringify(http.exchanges());

describe('HttpClient.request', () => {
  test('never follows a redirect: the 302 and its Location come back', async () => {
    const { http } = client();
    const res = await http.request({ method: 'GET', url: `${base}/redirect` });
    expect(res.status).toBe(302);
    expect(res.location).toBe(`https://app.example.test/cb?code=${CODE}&state=s`);
    expect(res.headers.location).toBe(res.location);
  });

  test('form fields are sent in the given order, URL-encoded', async () => {
    const { http } = client();
    const form: Array<[string, string]> = [['z', '1'], ['a', 'two words'], ['m', 'x&y=z'], ['a', 'again']];
    const res = await http.request({ method: 'post', url: `${base}/echo-form`, form });
    expect(res.json).toEqual({ raw: 'z=1&a=two+words&m=x%26y%3Dz&a=again', contentType: 'application/x-www-form-urlencoded' });
    const obj = await http.request({ method: 'POST', url: `${base}/echo-form`, form: { grant_type: 'refresh_token', client_id: 'c' } });
    expect(obj.json.raw).toBe('grant_type=refresh_token&client_id=c');
  });

  test('lower-case header names, repeated headers joined, JSON parsed only when it parses', async () => {
    const { http } = client();
    const res = await http.request({ method: 'GET', url: `${base}/api/x`, headers: { 'X-Mixed-Case': 'v' } });
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
    expect(res.json.headers['x-mixed-case']).toBe('v');
    expect(res.location).toBeNull();
    const text = await http.request({ method: 'GET', url: `${base}/text` });
    expect(text.text).toBe('not { json');
    expect(text.json).toBeUndefined();
    expect(text.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('every exchange is logged, redacted, including tokens and codes learned from responses', async () => {
    const seen: Exchange[] = [];
    const { http, redactor } = client((e) => seen.push(e));
    await http.request({ method: 'POST', url: `${base}/echo-form`, form: { client_id: 'client-1', client_secret: SECRET, code: CODE } });
    await http.request({ method: 'GET', url: `${base}/redirect` });
    await http.request({ method: 'POST', url: `${base}/token`, form: { grant_type: 'authorization_code', code: CODE } });
    await http.request({ method: 'POST', url: `${base}/echo-form`, form: { refresh_token: REFRESH } });
    await http.api('GET', '/users/me', { accessToken: ACCESS });
    expect(seen).toHaveLength(5);
    expect(http.exchanges()).toEqual(seen);
    const text = logText(http);
    for (const secret of [SECRET, API_KEY, ACCESS, ROTATED, REFRESH, CODE]) expect(text).not.toContain(secret);
    expect(text).toContain(redactor.label(ACCESS));
    expect(text).toContain(redactor.label(ROTATED));
    expect(text).toContain(redactor.label(CODE));
    const ex = seen[1]!;
    expect(ex.response?.status).toBe(302);
    expect(ex.response?.headers.location).toBe(`https://app.example.test/cb?code=${redactor.label(CODE)}&state=s`);
    expect(ex.request).toMatchObject({ method: 'GET', url: `${base}/redirect` });
    expect(typeof ex.startedAt).toBe('string');
    expect(ex.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen[2]!.response?.body).toContain(`"access_token":"${redactor.label(ACCESS)}"`);
  });

  test('a token first seen in a response is redacted in that same exchange', async () => {
    const { http } = client();
    await http.request({ method: 'POST', url: `${base}/token` });
    const [ex] = http.exchanges();
    expect(ex!.response!.body).not.toContain(ACCESS);
    expect(ex!.response!.body).not.toContain(REFRESH);
  });

  test('an error body\'s "code" names the error and stays readable', async () => {
    const { http, redactor } = client();
    await http.request({ method: 'GET', url: `${base}/error-body` });
    expect(redactor.secrets()).not.toContain('FST_ERR_SOMETHING');
    expect(http.exchanges()[0]!.response!.body).toContain('FST_ERR_SOMETHING');
  });

  test('logged bodies are cut at about 8 KiB, after redaction', async () => {
    const { http } = client();
    const res = await http.request({ method: 'GET', url: `${base}/big` });
    expect(res.text.length).toBe(LOG_BODY_LIMIT + SECRET.length);
    const body = http.exchanges()[0]!.response!.body;
    expect(body.length).toBeLessThan(LOG_BODY_LIMIT + 100);
    expect(body).toMatch(/truncated/);
    expect(body).not.toContain(SECRET.slice(0, 8));
  });

  test('an unreachable target: ERR_TARGET_UNREACHABLE, redacted, and logged with the error', async () => {
    const { http } = client();
    const url = `http://127.0.0.1:1/token?code=${CODE}`;
    const err = await http.request({ method: 'GET', url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockconfError);
    expect((err as LockconfError).code).toBe('ERR_TARGET_UNREACHABLE');
    expect((err as LockconfError).message).not.toContain(CODE);
    expect((err as LockconfError).message).toMatch(/ECONNREFUSED/);
    const [ex] = http.exchanges();
    expect(ex!.response).toBeNull();
    expect(ex!.error).toBe((err as LockconfError).message);
    expect(JSON.stringify(ex)).not.toContain(CODE);
  });

  test('a timeout is ERR_TARGET_UNREACHABLE too', async () => {
    const { http } = client();
    const err = await http.request({ method: 'GET', url: `${base}/slow`, timeoutMs: 50 }).catch((e: unknown) => e);
    expect((err as LockconfError).code).toBe('ERR_TARGET_UNREACHABLE');
    expect((err as LockconfError).message).toMatch(/no answer within 50 ms/);
  });
});

describe('HttpClient.api', () => {
  test('baseUrl + path with x-api-key, x-access-token and content-type; registers the rotated token', async () => {
    const { http, redactor } = client();
    const res = await http.api('GET', '/users/locks/mine', { accessToken: ACCESS });
    expect(res.json.url).toBe('/api/users/locks/mine');
    expect(res.json.headers).toMatchObject({ 'x-api-key': API_KEY, 'x-access-token': ACCESS, 'content-type': 'application/json' });
    expect(res.headers['x-access-token']).toBe(ROTATED);
    expect(redactor.redact(ROTATED)).toBe(redactor.label(ROTATED));
    expect(redactor.label(ROTATED)).toMatch(/^‹access_token#/);
  });

  test('apiKey override, null omits the header; no token → no x-access-token; JSON body', async () => {
    const { http } = client();
    const other = await http.api('POST', 'webhook/L1', { apiKey: 'another-key', json: { url: 'https://x', method: 'POST' } });
    expect(other.json.headers['x-api-key']).toBe('another-key');
    expect(other.json.headers).not.toHaveProperty('x-access-token');
    expect(other.json.body).toEqual({ url: 'https://x', method: 'POST' });
    expect(other.json.method).toBe('POST');
    const none = await http.api('GET', '/users/me', { apiKey: null, accessToken: null, headers: { 'X-Extra': '1' } });
    expect(none.json.headers).not.toHaveProperty('x-api-key');
    expect(none.json.headers).not.toHaveProperty('x-access-token');
    expect(none.json.headers['x-extra']).toBe('1');
  });
});
