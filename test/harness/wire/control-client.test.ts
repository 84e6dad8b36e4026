import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TargetProfile } from '../../../harness/contracts.js';
import { ControlClient } from '../../../harness/wire/control-client.js';
import { LockconfError } from '../../../harness/run/errors.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { Redactor } from '../../../harness/wire/redact.js';

const TOKEN = 'control-token-value-xyz';
const CODE = 'code-from-consent-123';

/** A stand-in for a target's control protocol that records what it was asked. */
let app: FastifyInstance;
let controlUrl: string;
const calls: Array<{ method: string; url: string; body: unknown }> = [];
let now = 1_700_000_000_000;
/** Optional fields GET /fixtures answers besides users and locks. */
let fixturesExtra: Record<string, unknown> = {};

beforeAll(async () => {
  app = Fastify({ logger: false });
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers['x-control-token'] !== TOKEN) return reply.code(401).send({ error: 'unauthorized', message: 'bad token' });
  });
  app.addHook('preHandler', async (req) => {
    calls.push({ method: req.method, url: req.url, body: req.body ?? null });
  });
  app.get('/_control/fixtures', async () => ({ users: [{ userId: 'u1' }, { userId: 'u2' }], locks: [{ lockId: 'L1' }, { lockId: 'L2' }], ...fixturesExtra }));
  app.post<{ Body: { decision: string; userId: string } }>('/_control/consent', async (req, reply) => {
    if (req.body.userId === 'nobody') return reply.code(404).send({ error: 'unknown_user', message: 'no such user' });
    if (req.body.decision === 'deny') return reply.code(422).send({ location: null, error: 'unregistered redirect_uri' });
    return { location: `https://app.example.test/cb?code=${CODE}&state=abc` };
  });
  app.get('/_control/clock', async () => ({ now }));
  app.post<{ Body: { advanceMs?: number; reset?: boolean } }>('/_control/clock', async (req) => {
    if (req.body.reset) now = 1_700_000_000_000;
    else now += req.body.advanceMs ?? 0;
    return { now };
  });
  app.post<{ Body: { kind: string } }>('/_control/events', async (req, reply) => {
    if (req.body.kind === 'bogus') return reply.code(422).send({ error: 'unknown_kind', message: 'no kind bogus' });
    return { emitted: 2, eventId: 'e-1' };
  });
  app.post<{ Body: { refreshToken: string } }>('/_control/refresh-tokens/revoke', async (req, reply) =>
    reply.code(req.body.refreshToken === 'unknown-token' ? 404 : 204).send(),
  );
  app.post('/_control/client-credentials', async (_req, reply) => reply.code(204).send());
  app.post('/_control/reset', async (_req, reply) => reply.code(204).send());
  await app.listen({ host: '127.0.0.1', port: 0 });
  controlUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/_control/`;
});
afterAll(async () => {
  await app?.close();
});

function make(token = TOKEN) {
  const profile = {
    authUrl: 'http://127.0.0.1:1',
    baseUrl: 'http://127.0.0.1:1',
    clientId: 'client-42',
    clientSecret: 'secret-value',
    apiKey: 'api-key-value',
    redirectUri: 'https://app.example.test/cb',
  } satisfies TargetProfile;
  const redactor = new Redactor();
  const http = new HttpClient({ profile, redactor });
  return { http, redactor, control: new ControlClient({ controlUrl, controlToken: token, http }) };
}

describe('ControlClient', () => {
  test('each endpoint of the control protocol, with the token and JSON bodies', async () => {
    const { control } = make();
    calls.length = 0;
    expect(await control.fixtures()).toEqual({ users: [{ userId: 'u1' }, { userId: 'u2' }], locks: [{ lockId: 'L1' }, { lockId: 'L2' }] });
    expect(await control.now()).toBe(1_700_000_000_000);
    expect(await control.advanceClock(5000)).toBe(1_700_000_005_000);
    expect(await control.resetClock()).toBe(1_700_000_000_000);
    expect(await control.emit({ kind: 'door', lockId: 'L1', value: 'open' })).toEqual({ emitted: 2, eventId: 'e-1' });
    expect(await control.revokeRefreshToken('some-refresh-token')).toBe(204);
    expect(await control.revokeRefreshToken('unknown-token')).toBe(404);
    await control.setClientCredentials(true);
    await control.reset();
    expect(calls).toEqual([
      { method: 'GET', url: '/_control/fixtures', body: null },
      { method: 'GET', url: '/_control/clock', body: null },
      { method: 'POST', url: '/_control/clock', body: { advanceMs: 5000 } },
      { method: 'POST', url: '/_control/clock', body: { reset: true } },
      { method: 'POST', url: '/_control/events', body: { kind: 'door', lockId: 'L1', value: 'open' } },
      { method: 'POST', url: '/_control/refresh-tokens/revoke', body: { refreshToken: 'some-refresh-token' } },
      { method: 'POST', url: '/_control/refresh-tokens/revoke', body: { refreshToken: 'unknown-token' } },
      { method: 'POST', url: '/_control/client-credentials', body: { clientId: 'client-42', enabled: true } },
      { method: 'POST', url: '/_control/reset', body: {} },
    ]);
  });

  test('GET /fixtures: the optional clients and deliveryTimeoutMs are kept when well-formed, the secrets redacted', async () => {
    const { control, redactor } = make();
    const second = { clientId: 'client-7', clientSecret: 'second-secret-value', apiKey: 'second-api-key', redirectUri: 'https://app.example.test/cb2' };
    try {
      fixturesExtra = { clients: [second], deliveryTimeoutMs: 1500 };
      const got = await control.fixtures();
      expect(got.clients).toEqual([second]);
      expect(got.deliveryTimeoutMs).toBe(1500);
      expect(redactor.redact('secret second-secret-value key second-api-key')).not.toMatch(/second-secret-value|second-api-key/);
      fixturesExtra = { clients: [{ clientId: 'client-7' }], deliveryTimeoutMs: -5 };
      const bad = await control.fixtures();
      expect(bad).toEqual({ users: [{ userId: 'u1' }, { userId: 'u2' }], locks: [{ lockId: 'L1' }, { lockId: 'L2' }] });
    } finally {
      fixturesExtra = {};
    }
    calls.length = 0;
    await control.setClientCredentials(false, 'client-7');
    expect(calls).toEqual([{ method: 'POST', url: '/_control/client-credentials', body: { clientId: 'client-7', enabled: false } }]);
  });

  test('consent: the location on approval, status 422 with the error when the target refuses', async () => {
    const { control } = make();
    const ok = await control.consent('http://auth/authorization?x=1', 'u1', 'approve');
    expect(ok).toEqual({ status: 200, location: `https://app.example.test/cb?code=${CODE}&state=abc` });
    const refused = await control.consent('http://auth/authorization?x=1', 'u1', 'deny');
    expect(refused).toEqual({ status: 422, location: null, error: 'unregistered redirect_uri' });
  });

  test('non-2xx answers become ERR_CONTROL with the status and error code', async () => {
    const { control } = make();
    const bad = await control.emit({ kind: 'bogus' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(LockconfError);
    expect((bad as LockconfError).code).toBe('ERR_CONTROL');
    expect((bad as LockconfError).message).toBe('control POST /events answered 422 unknown_kind no kind bogus');
    const user = await control.consent('http://auth/authorization', 'nobody', 'approve').catch((e: unknown) => e);
    expect((user as LockconfError).message).toMatch(/404 unknown_user/);
    const { control: wrong } = make('wrong-token-value');
    const denied = await wrong.now().catch((e: unknown) => e);
    expect((denied as LockconfError).code).toBe('ERR_CONTROL');
    expect((denied as LockconfError).message).toMatch(/401 unauthorized/);
    expect((denied as LockconfError).message).not.toContain('wrong-token-value');
    expect(await control.advanceClock(-1).catch((e: LockconfError) => e.code)).toBe('ERR_CONTROL');
  });

  test('control calls are logged and redacted: the control token, revoked tokens and consent codes', async () => {
    const { control, http, redactor } = make();
    await control.consent('http://auth/authorization', 'u1', 'approve');
    await control.revokeRefreshToken('refresh-to-revoke-1');
    const log = JSON.stringify(http.exchanges());
    expect(http.exchanges()).toHaveLength(2);
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(CODE);
    expect(log).not.toContain('refresh-to-revoke-1');
    expect(log).toContain(redactor.label(TOKEN));
    expect(log).toContain(redactor.label(CODE));
  });
});
