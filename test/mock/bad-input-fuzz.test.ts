/**
 * Bad input never breaks the API: a fast-check fuzz over every API route of the whole
 * mock (random methods, paths, bodies, content types, headers, oversized bodies)
 * asserts a 4xx JSON answer or a 2xx, never a 5xx, and that a registration made before
 * the fuzz still delivers afterwards (no state lost).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockEventService } from '../../mock/events/event-service.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let mock: RunningMock;
let receiver: Receiver;
let ownerToken: string;
let fuzzTokens: string[];

beforeAll(async () => {
  mock = await createMock({ deliveryTimeoutMs: 500 });
  receiver = await startReceiver();
  const [owner, guest, stranger] = mock.ctx.world.users;
  const issue = async (userId: string) => (await mock.ctx.tokens.issue({ userId, clientId: mock.profile.clientId })).token;
  ownerToken = await issue(owner!.userId);
  // The fuzz acts as users other than the owner, so no legitimate request can remove the owner's registration.
  fuzzTokens = [await issue(guest!.userId), await issue(stranger!.userId)];
  const res = await send('POST', `/webhook/${mock.ctx.world.locks[0]!.lockId}`, {
    token: ownerToken, contentType: 'application/json', body: JSON.stringify(validBody('/keep')),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

function validBody(path: string): Record<string, unknown> {
  return {
    url: `${receiver.url}${path}`, method: 'POST', clientID: mock.profile.clientId, header: 'x-fuzz', token: 'fuzz-token',
    notificationTypes: ['operation'],
  };
}

async function send(
  method: string,
  path: string,
  o: { token?: string | undefined; apiKey?: string | undefined; contentType?: string | undefined; body?: string | Uint8Array | undefined; extra?: Array<[string, string]> },
) {
  const headers = new Headers();
  headers.set('x-api-key', o.apiKey ?? mock.profile.apiKey);
  if (o.token !== undefined) headers.set('x-access-token', o.token);
  if (o.contentType !== undefined) headers.set('content-type', o.contentType);
  // Appended, so a repeated x-api-key or x-access-token arrives as two values.
  for (const [name, value] of o.extra ?? []) headers.append(name, value);
  const withBody = o.body !== undefined && method !== 'GET' && method !== 'HEAD';
  const res = await fetch(`${mock.profile.baseUrl}${path}`, { method, headers, ...(withBody ? { body: o.body } : {}) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
}

// ── Arbitraries ─────────────────────────────────────────────────────────
const lockIdArb = () =>
  fc.oneof(
    fc.constant(mock.ctx.world.locks[0]!.lockId),
    fc.constant(mock.ctx.world.locks[1]!.lockId),
    fc.constant('user'),
    fc.stringMatching(/^[0-9A-F]{32}$/),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.constant('%ZZ'),
    fc.constant('x'.repeat(300)),
  );
const clientIdArb = () => fc.oneof(fc.constant(mock.profile.clientId), fc.string({ maxLength: 20 }).map(encodeURIComponent));

const pathArb = () =>
  fc.oneof(
    fc.constant('/users/me'),
    fc.constant('/users/locks/mine'),
    lockIdArb().map((id) => `/remoteoperate/${id}/status`),
    lockIdArb().map((id) => `/webhook/${id}`),
    fc.constant('/webhook/user'),
    fc.tuple(lockIdArb(), clientIdArb()).map(([id, c]) => `/webhook/${id}/${c}`),
    fc.string({ maxLength: 30 }).map((s) => `/${encodeURIComponent(s)}`),
    fc.constant('/users/me?x=%00&y'),
  );

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;

/** Mostly a real route with its own method (so bodies reach validation), sometimes anything. */
const requestLineArb = () =>
  fc.oneof(
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...METHODS), pathArb()) },
    { weight: 3, arbitrary: fc.oneof(
      fc.constant(['GET', '/users/me'] as [string, string]),
      fc.constant(['GET', '/users/locks/mine'] as [string, string]),
      lockIdArb().map((id) => ['PUT', `/remoteoperate/${id}/status`] as [string, string]),
      lockIdArb().map((id) => ['POST', `/webhook/${id}`] as [string, string]),
      fc.constant(['POST', '/webhook/user'] as [string, string]),
      fc.constant(['DELETE', '/webhook/user'] as [string, string]),
      fc.tuple(lockIdArb(), clientIdArb()).map(([id, c]) => ['DELETE', `/webhook/${id}/${c}`] as [string, string]),
    ) },
  );

const fieldValueArb = () =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(''),
    fc.constant('GET'),
    fc.constant('ftp://x'),
    fc.constant('Content-Type'),
    fc.constant('a\r\nb'),
    fc.constant(['operation', 'lifecycle']),
    fc.constant('y'.repeat(5000)),
  );

/** A valid registration with one field replaced, removed or added. */
const mutatedRegistrationArb = () =>
  fc.tuple(fc.constantFrom('url', 'method', 'clientID', 'header', 'token', 'notificationTypes', 'extra', '__proto__', 'constructor'), fc.option(fieldValueArb(), { nil: undefined }))
    .map(([field, value]) => {
      const body: Record<string, unknown> = validBody('/fuzz');
      if (value === undefined) delete body[field];
      else body[field] = value;
      return JSON.stringify(body);
    });

const bodyArb = () =>
  fc.oneof(
    fc.constant(undefined),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    mutatedRegistrationArb(),
    mutatedRegistrationArb(),
    mutatedRegistrationArb(),
    fc.constant(JSON.stringify(validBody('/fuzz'))),
    fc.constant('{"__proto__":{"polluted":true}}'),
    fc.constant('{"constructor":{"prototype":{"polluted":true}}}'),
    fc.constant(`{"pad":"${'z'.repeat(200_000)}"}`),
    fc.uint8Array({ maxLength: 200 }),
  );

const contentTypeArb = () =>
  fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(
    undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x', 'application/octet-stream', 'a/b/c', ';;', 'application/json; charset=latin1',
  ) });

const authArb = () =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...fuzzTokens).map((token) => ({ token, apiKey: undefined as string | undefined })) },
    { weight: 1, arbitrary: fc.constant({ token: undefined, apiKey: undefined }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).filter((s) => /^[\x21-\x7e]*$/.test(s)).map((token) => ({ token, apiKey: undefined })) },
    { weight: 1, arbitrary: fc.constant({ token: fuzzTokens[0], apiKey: 'wrong-key' }) },
  );

const extraHeadersArb = () =>
  fc.array(
    fc.tuple(
      fc.constantFrom('x-access-token', 'x-api-key', 'accept', 'authorization', 'cookie', 'x-request-id', 'accept-encoding'),
      fc.string({ maxLength: 80 }).filter((v) => /^[\x20-\x7e]*$/.test(v)),
    ),
    { maxLength: 2 },
  );

describe('bad input fuzz over every API route', () => {
  it('answers 2xx or a 4xx JSON error, never a 5xx, and loses no state', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestLineArb(), bodyArb(), contentTypeArb(), authArb(), extraHeadersArb(),
        async ([method, path], body, contentType, auth, extra) => {
          const res = await send(method, path, { token: auth.token, apiKey: auth.apiKey, contentType, body, extra });
          expect(res.status, `${method} ${path} answered ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400 && method !== 'HEAD') {
            expect(res.contentType).toContain('application/json');
            const parsed = JSON.parse(res.text);
            expect(typeof parsed.error).toBe('string');
            expect(typeof parsed.message).toBe('string');
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // The owner's registration made before the fuzz still delivers.
    await (mock.ctx.events as LockEventService).idle();
    receiver.reset();
    const result = await mock.ctx.events.emit({ kind: 'operation.app', lockId: mock.ctx.world.locks[0]!.lockId, value: 'lock' });
    expect(result.emitted).toBeGreaterThanOrEqual(1);
    const [delivery] = await receiver.waitFor('/keep', 1);
    expect(delivery!.json.Event).toBe('lock');
    expect((await send('GET', '/users/me', { token: ownerToken })).status).toBe(200);
  });
});
