/**
 * A small fastify app that serves only the mock's API (under /api), with a fake
 * AccessTokenService, so the API, webhook and event modules can be tested on their
 * own over real sockets.
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { Clock } from '../../mock/clock.js';
import type { AccessTokenClaims, AccessTokenService, Credentials, MockContext, ResolvedMockOptions } from '../../mock/context.js';
import { FaultSet } from '../../mock/faults.js';
import { FreedomSet } from '../../mock/freedoms.js';
import { createWorld } from '../../mock/world.js';
import { registerApi, type ApiServices } from '../../mock/api/index.js';

const FOUR_MONTHS_MS = 10_368_000_000;

/** Opaque random tokens remembered with their claims; expiry follows the mock's clock. */
export class FakeTokens implements AccessTokenService {
  readonly #tokens = new Map<string, AccessTokenClaims>();
  constructor(private readonly clock: Clock) {}

  async issue(claims: { userId: string | null; clientId: string; expiresAtMs?: number }) {
    const token = `tok_${randomBytes(16).toString('hex')}`;
    const expiresAtMs = claims.expiresAtMs ?? this.clock.now() + FOUR_MONTHS_MS;
    this.#tokens.set(token, { userId: claims.userId, clientId: claims.clientId, issuedAtMs: this.clock.now(), expiresAtMs });
    return { token, expiresAtMs };
  }

  async verify(token: string) {
    const claims = this.#tokens.get(token);
    return claims && claims.expiresAtMs > this.clock.now() ? { ...claims } : null;
  }
}

export interface ApiApp {
  url: string;
  baseUrl: string;
  ctx: MockContext;
  services: ApiServices;
  tokens: FakeTokens;
  /** A fresh access token for world.users[index]. */
  tokenFor(index: number, expiresAtMs?: number): Promise<string>;
  /** fetch() against the API with the credential's API key and the given token. */
  call(method: string, path: string, opts?: { token?: string | null; apiKey?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  close(): Promise<void>;
}

export async function startApiApp(opts: { faults?: string[]; freedoms?: string[]; options?: Partial<ResolvedMockOptions>; log?: (line: string) => void } = {}): Promise<ApiApp> {
  const options: ResolvedMockOptions = {
    host: '127.0.0.1', port: 0, control: true, accessTokenLifetimeSec: 10_368_000, signatureEncoding: 'hex',
    lowerCaseLockIds: false, extraFields: false, deliveryTimeoutMs: 5_000, ...opts.options,
  };
  const clock = new Clock();
  const credentials: Credentials = {
    clientId: `client-${randomBytes(4).toString('hex')}`,
    clientSecret: randomBytes(16).toString('hex'),
    apiKey: randomBytes(16).toString('hex'),
    redirectUri: 'http://127.0.0.1/callback',
    controlToken: randomBytes(16).toString('hex'),
  };
  const tokens = new FakeTokens(clock);
  const ctx = {
    options, clock, faults: new FaultSet(opts.faults ?? []), freedoms: new FreedomSet(opts.freedoms ?? []), credentials,
    world: createWorld({ lowerCaseLockIds: options.lowerCaseLockIds }),
    log: opts.log ?? (() => {}), tokens, clientCredentialsEnabled: new Set<string>(), onReset: [],
  } as unknown as MockContext;

  const app = Fastify({ logger: false });
  let services: ApiServices | undefined;
  await app.register(async (api) => {
    services = await registerApi(api, ctx);
  }, { prefix: '/api' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const baseUrl = `${url}/api`;

  return {
    url, baseUrl, ctx, services: services!, tokens,
    async tokenFor(index, expiresAtMs) {
      const user = ctx.world.users[index];
      if (!user) throw new Error(`no user ${index}`);
      return (await tokens.issue({ userId: user.userId, clientId: credentials.clientId, ...(expiresAtMs !== undefined ? { expiresAtMs } : {}) })).token;
    },
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
      if (o.apiKey !== null) headers['x-api-key'] = o.apiKey ?? credentials.apiKey;
      if (o.token) headers['x-access-token'] = o.token;
      const body = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
      const res = await fetch(baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async close() {
      await app.close();
    },
  };
}

/** An API app with the given faults for the length of fn, closed whatever happens. */
export async function withApiApp<T>(faults: string[], fn: (app: ApiApp) => Promise<T>): Promise<T> {
  const app = await startApiApp({ faults });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

/** A valid lock registration body for this app's credential. */
export function registrationBody(app: ApiApp, url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    url, method: 'POST', clientID: app.ctx.credentials.clientId, header: 'x-hook-token', token: 'hook-secret-1',
    notificationTypes: ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'], ...overrides,
  };
}
