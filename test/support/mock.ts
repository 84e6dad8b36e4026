/**
 * Starting the reference mock in a test, and the OAuth exchanges tests of the
 * mock repeat: authorization URLs, consent through the control protocol,
 * token requests. Requests go through fastify's inject (no sockets) unless a
 * test needs a real client.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { MockOptions } from '../../mock/context.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { freePort } from './net.js';

/** Starts a mock before the file's tests and closes it after them. */
export function useMock(options: MockOptions = {}): { readonly mock: RunningMock } {
  let mock: RunningMock | null = null;
  beforeAll(async () => {
    mock = await createMock(options);
  });
  afterAll(async () => {
    await mock?.close();
  });
  return {
    get mock(): RunningMock {
      if (!mock) throw new Error('the mock is not started yet (use it inside a test)');
      return mock;
    },
  };
}

/** A mock for the length of fn, closed whatever happens. */
export async function withMock<T>(options: MockOptions, fn: (mock: RunningMock) => Promise<T>): Promise<T> {
  const mock = await createMock(options);
  try {
    return await fn(mock);
  } finally {
    await mock.close();
  }
}

/**
 * The mock the way a real sandbox is: no control interface, a loopback
 * redirect URI on a free port, and the user's phone: each SMS code it sends
 * lands in smsFile, which a browser script's codeCommand reads.
 */
export async function createSandboxMock(smsFile: string, options: { deliveryTimeoutMs?: number } = {}): Promise<RunningMock> {
  return createMock({
    ...options,
    control: false,
    credentials: { redirectUri: `http://127.0.0.1:${await freePort()}/callback` },
    log: (line) => {
      const code = /code is (\d{6})/.exec(line)?.[1];
      if (code) writeFileSync(smsFile, code + '\n');
    },
  });
}

/** The path and query of an authorization request (defaults: the registered client and redirect URI). */
export function authorizationPath(mock: RunningMock, params: Partial<Record<'client_id' | 'redirect_uri' | 'state', string | null>> = {}): string {
  const query = new URLSearchParams();
  const values = { client_id: mock.profile.clientId, redirect_uri: mock.profile.redirectUri, state: 'state-123', ...params };
  for (const [name, value] of Object.entries(values)) if (value !== null) query.set(name, value);
  return `/oauth/authorization?${query.toString()}`;
}

export function authorizationUrl(mock: RunningMock, params: Parameters<typeof authorizationPath>[1] = {}): string {
  return mock.url + authorizationPath(mock, params);
}

export async function control(mock: RunningMock, method: 'GET' | 'POST', path: string, body?: unknown, token: string | null = mock.profile.controlToken ?? null): Promise<LightMyRequestResponse> {
  return mock.app.inject({
    method,
    url: `/_control${path}`,
    headers: { ...(token === null ? {} : { 'x-control-token': token }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** POST /_control/consent; answers the Location (or null) and the status. */
export async function consent(mock: RunningMock, opts: { user?: number; decision?: 'approve' | 'deny'; url?: string } = {}): Promise<{ status: number; location: string | null; json: any }> {
  const user = mock.ctx.world.users[opts.user ?? 0];
  if (!user) throw new Error('no such user');
  const res = await control(mock, 'POST', '/consent', {
    authorizationUrl: opts.url ?? authorizationUrl(mock),
    userId: user.userId,
    decision: opts.decision ?? 'approve',
  });
  const json = res.json();
  return { status: res.statusCode, location: json.location ?? null, json };
}

/** An authorization code for users[user], through control consent. */
export async function authorizationCode(mock: RunningMock, user = 0): Promise<string> {
  const { location } = await consent(mock, { user });
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error('consent gave no code');
  return code;
}

export interface InjectedResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  location: string | null;
  text: string;
  json: any;
}

function wrap(res: LightMyRequestResponse): InjectedResponse {
  let json: any;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  const location = res.headers.location;
  return { status: res.statusCode, headers: res.headers, location: typeof location === 'string' ? location : null, text: res.body, json };
}

/** POST /oauth/access_token with a form body; the client's credentials are added unless given (null leaves one out). */
export async function tokenRequest(
  mock: RunningMock,
  form: Record<string, string | null>,
  opts: { headers?: Record<string, string>; raw?: string } = {},
): Promise<InjectedResponse> {
  const body = new URLSearchParams();
  const fields = { client_id: mock.profile.clientId, client_secret: mock.profile.clientSecret, ...form };
  for (const [name, value] of Object.entries(fields)) if (value !== null) body.set(name, value);
  const res = await mock.app.inject({
    method: 'POST',
    url: '/oauth/access_token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers },
    payload: opts.raw ?? body.toString(),
  });
  return wrap(res);
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/** Fresh tokens for users[user]: consent, then the code grant. */
export async function userTokens(mock: RunningMock, user = 0): Promise<Tokens> {
  const code = await authorizationCode(mock, user);
  const res = await tokenRequest(mock, { grant_type: 'authorization_code', code });
  if (res.status !== 200) throw new Error(`code grant failed: ${res.status} ${res.text}`);
  return { accessToken: res.json.access_token, refreshToken: res.json.refresh_token, expiresIn: res.json.expires_in };
}

export async function refreshRequest(mock: RunningMock, refreshToken: string): Promise<InjectedResponse> {
  return tokenRequest(mock, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

export const DAY_MS = 24 * 60 * 60 * 1000;
