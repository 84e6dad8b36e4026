/** The grading mock's control routes (mock/grading/control-routes.ts) and what it records. */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createMock, type RunningMock } from '../../mock/server.js';

let mock: RunningMock | null = null;
afterEach(async () => {
  await mock?.close();
  mock = null;
});

async function call(m: RunningMock, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, token = m.profile.controlToken!) {
  const res = await request(`${m.profile.controlUrl}${path}`, {
    method,
    headers: { 'x-control-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('GET /_control/grading', () => {
  it('answers 404 grading_off when the mock does not grade, 401 without the control token', async () => {
    mock = await createMock();
    expect((await call(mock, 'GET', '/grading')).json).toMatchObject({ error: 'grading_off' });
    expect((await call(mock, 'GET', '/grading', undefined, 'wrong')).status).toBe(401);
  });

  it('records a token request by client, with fingerprints only, and a graded API key that URL-encoding changes', async () => {
    mock = await createMock({ grade: true });
    const { profile } = mock;
    expect(encodeURIComponent(profile.apiKey)).not.toBe(profile.apiKey);
    await request(`${profile.authUrl}/access_token?client_secret=${encodeURIComponent(profile.clientSecret)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: profile.clientId, client_secret: profile.clientSecret, grant_type: 'refresh_token', refresh_token: 'not-a-token-0123456789' }).toString(),
    }).then((r) => r.body.dump());
    const answer = await call(mock, 'GET', `/grading?clientId=${encodeURIComponent(profile.clientId)}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ grading: true, clients: [profile.clientId], dropped: 0 });
    const [event] = answer.json!.events as Array<Record<string, unknown>>;
    expect(event).toMatchObject({ type: 'token', grantType: 'refresh_token', secretIn: ['url'], status: 400, refreshFp: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const text = JSON.stringify(answer.json);
    for (const secret of [profile.clientSecret, profile.apiKey, 'not-a-token-0123456789']) expect(text).not.toContain(secret);
  });

  it('marks, probes and clears: bad bodies are 400, an unknown probe too', async () => {
    mock = await createMock({ grade: true });
    expect((await call(mock, 'POST', '/grading/mark', { label: 'x:start' })).status).toBe(204);
    expect((await call(mock, 'POST', '/grading/mark', {})).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'api-401' })).status).toBe(204);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'nonsense' })).status).toBe(400);
    // The answer probe names a 2xx a plain request may get (206 answers a range request only).
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'answer' })).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'answer', status: 206 })).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'api-401', status: 503 })).status).toBe(204);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'api-401', status: 502 })).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'token-error', status: 302 })).status).toBe(204);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'token-error', status: 401 })).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'answer', status: 202, body: 'sometimes' })).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/probe', { kind: 'answer', status: 202, body: 'empty' })).status).toBe(204);
    expect((await call(mock, 'POST', '/grading/mark', { label: 'x:end' })).status).toBe(204); // disarms it
    const res = await request(`${mock.profile.baseUrl}/users/me`, { headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': 'whatever', 'content-type': 'application/json' } });
    await res.body.dump();
    expect(res.statusCode).toBe(401);
    expect(((await call(mock, 'GET', '/grading')).json!.events as unknown[]).length).toBe(3);
    expect((await call(mock, 'DELETE', '/grading')).status).toBe(204);
    expect((await call(mock, 'GET', '/grading')).json).toMatchObject({ events: [], clients: [] });
  });
});

describe('gradings: a --client run judges what the application did during its grading, never before', () => {
  const mark = (m: RunningMock, label: string) => call(m, 'POST', '/grading/mark', { label });
  const labels = (answer: { json: Record<string, unknown> | null }) => (answer.json!.events as Array<{ label?: string }>).map((e) => e.label);

  it('POST /grading/start ends the grading in progress; GET ?grading=ID answers that grading\'s events only', async () => {
    mock = await createMock({ grade: true });
    expect((await call(mock, 'GET', '/grading')).json).toMatchObject({ gradingId: 1 });
    await mark(mock, 'before');
    const started = await call(mock, 'POST', '/grading/start', {});
    expect(started).toMatchObject({ status: 200, json: { gradingId: 2, previous: 1 } });
    await mark(mock, 'during');
    expect(labels(await call(mock, 'GET', '/grading?grading=2'))).toEqual(['during']);
    expect(labels(await call(mock, 'GET', '/grading?grading=1'))).toEqual(['before']);
    expect((await call(mock, 'GET', '/grading?grading=2')).json).toMatchObject({ gradingId: 2 });
    // ended: what comes after belongs to grading 3, never to 2
    expect((await call(mock, 'POST', '/grading/start', { closes: 2 })).json).toMatchObject({ gradingId: 3, previous: 2 });
    await mark(mock, 'after');
    expect(labels(await call(mock, 'GET', '/grading?grading=2'))).toEqual(['during']);
    expect(labels(await call(mock, 'GET', '/grading'))).toEqual(['before', 'during', 'after']); // without ?grading, the whole recording as before
  });

  it('refuses to end a grading another run ended (409 grading_superseded); an unknown grading is 404, a bad one 400', async () => {
    mock = await createMock({ grade: true });
    await call(mock, 'POST', '/grading/start', {});
    expect(await call(mock, 'POST', '/grading/start', { closes: 1 })).toMatchObject({ status: 409, json: { error: 'grading_superseded' } });
    expect(await call(mock, 'GET', '/grading?grading=9')).toMatchObject({ status: 404, json: { error: 'no_such_grading' } });
    expect((await call(mock, 'GET', '/grading?grading=abc')).status).toBe(400);
    expect((await call(mock, 'POST', '/grading/start', { closes: 'x' })).status).toBe(400);
  });

  it('a cleared recording starts a new grading', async () => {
    mock = await createMock({ grade: true });
    await mark(mock, 'old');
    await call(mock, 'DELETE', '/grading');
    expect((await call(mock, 'GET', '/grading')).json).toMatchObject({ gradingId: 2, events: [] });
  });
});
