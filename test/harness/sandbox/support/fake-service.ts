/**
 * A minimal stand-in for the Lock Access Service, for unit tests of the token
 * cache and the login command: the authorization redirect (approve or deny at
 * once, no pages), the token endpoint (code and single-use refresh grants) and
 * GET /users/me with x-access-token rotation. The conformance of these rules is
 * the mock's business; this only lets the sandbox modules be tested alone.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { TargetProfile } from '../../../../harness/contracts.js';

export interface FakeService {
  url: string;
  profile: TargetProfile;
  /** What the authorization endpoint does with the next request. */
  decision: 'approve' | 'deny' | 'wrong-state';
  refreshTokens: Map<string, 'issued' | 'used'>;
  accessTokens: Set<string>;
  close(): Promise<void>;
}

const tok = (p: string) => `${p}_${randomBytes(12).toString('hex')}`;

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeService(opts: { redirectUri?: string } = {}): Promise<FakeService> {
  const clientId = 'client-' + randomBytes(4).toString('hex');
  const clientSecret = tok('secret');
  const apiKey = tok('apikey');
  const codes = new Set<string>();
  const svc = {
    decision: 'approve',
    refreshTokens: new Map<string, 'issued' | 'used'>(),
    accessTokens: new Set<string>(),
  } as FakeService;

  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  };
  const issuePair = () => {
    const pair = { access_token: tok('at'), refresh_token: tok('rt'), expires_in: 10_368_000 };
    svc.accessTokens.add(pair.access_token);
    svc.refreshTokens.set(pair.refresh_token, 'issued');
    return pair;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/oauth/authorization') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const state = url.searchParams.get('state') ?? '';
      if (svc.decision === 'deny') {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('state', state);
      } else {
        const code = tok('code');
        codes.add(code);
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', svc.decision === 'wrong-state' ? 'not-' + state : state);
      }
      res.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/oauth/access_token') {
      const form = new URLSearchParams(await body(req));
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(res, 400, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (!codes.delete(code)) return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issuePair());
      }
      if (form.get('grant_type') === 'refresh_token') {
        const rt = form.get('refresh_token') ?? '';
        if (svc.refreshTokens.get(rt) !== 'issued') return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token used or unknown' });
        svc.refreshTokens.set(rt, 'used');
        return json(res, 200, issuePair());
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'GET' && url.pathname === '/api/users/me') {
      const at = String(req.headers['x-access-token'] ?? '');
      if (req.headers['x-api-key'] !== apiKey || !svc.accessTokens.has(at)) return json(res, 401, { message: 'unauthorized' });
      const rotated = tok('at');
      svc.accessTokens.add(rotated);
      return json(res, 200, { UserID: 'user-1' }, { 'x-access-token': rotated });
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc.url = url;
  svc.profile = {
    authUrl: `${url}/oauth`, baseUrl: `${url}/api`, clientId, clientSecret, apiKey,
    redirectUri: opts.redirectUri ?? `${url}/callback`,
  };
  svc.close = () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); });
  return svc;
}

/** Seeds a pair directly (as a finished sign-in would). */
export function seedPair(svc: FakeService): { accessToken: string; refreshToken: string; expiresIn: number; receivedAt: number } {
  const at = tok('at');
  const rt = tok('rt');
  svc.accessTokens.add(at);
  svc.refreshTokens.set(rt, 'issued');
  return { accessToken: at, refreshToken: rt, expiresIn: 10_368_000, receivedAt: Date.now() };
}
