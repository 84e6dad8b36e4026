/**
 * The example application's OAuth client for the Lock Access Service: how to do
 * each step the spec asks of an application.
 *
 * - Authorization: a random `state` per sign-in, kept on the server, checked on the
 *   way back (an `access_denied` redirect ends the attempt; nothing is exchanged).
 * - Token requests: form-encoded POSTs with client_id, client_secret and grant_type
 *   in the body; never a Basic header, never the secret anywhere else.
 * - The refresh chain: every refresh returns a new refresh token that replaces the
 *   old one; it is stored at once and the old one is never presented again. A
 *   refused refresh (400) is final: the user authorizes again.
 * - API calls: x-api-key, x-access-token and content-type application/json, values
 *   as they are (never URL-encoded); every answer's new x-access-token is adopted.
 *   A 401 means the token is dead: the user authorizes again.
 *
 * `faults` switches on the named mistakes of client-faults.ts (for lockconf's own
 * tests); leave it empty in a real application.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { ClientFault } from './client-faults.js';

export interface ClientConfig {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  redirectUri: string;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** When the access token was received (the spec: a stored token carries its receipt date). */
  receivedAt: number;
}

/** One user's session in the application (kept server-side, named by a cookie). */
export interface Session {
  id: string;
  /** The state of the authorization request in progress. */
  state: string | null;
  tokens: Tokens | null;
  /** The last code exchanged (only the reuses-code fault looks at it). */
  lastCode?: string;
}

/** The user has to go through authorization (again). */
export class NeedsAuthorization extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NeedsAuthorization';
  }
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export class LockClient {
  constructor(private readonly config: ClientConfig, private readonly faults: ReadonlySet<ClientFault> = new Set()) {}

  /** Step 1: where to send the user; the state is remembered in the session. */
  authorizationUrl(session: Session): string {
    session.state = randomBytes(24).toString('base64url');
    const url = new URL(`${this.config.authUrl}/authorization`);
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('redirect_uri', this.config.redirectUri);
    if (!this.faults.has('no-state')) url.searchParams.set('state', session.state);
    return url.toString();
  }

  /** Step 3–4: the redirect back. Checks state, then exchanges the code. */
  async handleCallback(session: Session, query: URLSearchParams): Promise<'connected' | 'denied' | 'refused'> {
    const expected = session.state;
    session.state = null; // one use, whatever happens
    if (!this.faults.has('ignores-state') && !this.faults.has('no-state') && (expected === null || query.get('state') !== expected)) return 'refused';
    if (query.get('error') === 'access_denied') {
      if (this.faults.has('exchanges-after-denial')) await this.exchangeCode(session, query.get('code') ?? session.lastCode ?? 'none');
      return 'denied';
    }
    const code = query.get('code');
    if (!code) return 'refused';
    return (await this.exchangeCode(session, code)) ? 'connected' : 'refused';
  }

  private async exchangeCode(session: Session, code: string): Promise<boolean> {
    const answer = await this.tokenRequest({ grant_type: 'authorization_code', code });
    if (this.faults.has('reuses-code')) await this.tokenRequest({ grant_type: 'authorization_code', code });
    session.lastCode = code;
    if (!answer) return false;
    session.tokens = answer;
    return true;
  }

  /** The refresh grant: the new pair replaces the old one at once. */
  async refresh(session: Session): Promise<void> {
    const current = session.tokens;
    if (!current) throw new NeedsAuthorization('not connected');
    const presented = this.faults.has('refreshes-with-access-token') ? current.accessToken : current.refreshToken;
    let answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: presented });
    if (!answer && this.faults.has('retries-refused-refresh')) answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: presented });
    if (!answer) {
      session.tokens = null; // a refused refresh token is dead: authorize again
      throw new NeedsAuthorization('the refresh was refused');
    }
    session.tokens = this.faults.has('reuses-refresh-token') ? { ...answer, refreshToken: current.refreshToken } : answer;
  }

  /** POST {auth_url}/access_token: a form with the client's credentials in the body. */
  private async tokenRequest(fields: Record<string, string>): Promise<Tokens | null> {
    const inBasic = this.faults.has('secret-in-basic-only');
    const form = new URLSearchParams(inBasic ? fields : { client_id: this.config.clientId, client_secret: this.config.clientSecret, ...fields });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (inBasic || this.faults.has('secret-in-basic')) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(this.config.clientSecret)}`).toString('base64')}`;
    }
    let body = form.toString();
    if (this.faults.has('token-request-as-json')) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(Object.fromEntries(form));
    }
    const url = new URL(`${this.config.authUrl}/access_token`);
    if (this.faults.has('secret-in-url')) url.searchParams.set('client_secret', this.config.clientSecret);
    const res = await request(url, { method: 'POST', headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) return null;
    const json = JSON.parse(text) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
    if (typeof json.access_token !== 'string' || typeof json.refresh_token !== 'string') return null;
    return { accessToken: json.access_token, refreshToken: json.refresh_token, expiresIn: Number(json.expires_in), receivedAt: Date.now() };
  }

  /** An API call with the three headers; adopts the answer's x-access-token; a 401 means authorize again. */
  async api(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer> {
    const tokens = session.tokens;
    if (!tokens) throw new NeedsAuthorization('not connected');
    const headers: Record<string, string> = {
      'x-api-key': this.faults.has('url-encodes-headers') ? encodeURIComponent(this.config.apiKey) : this.config.apiKey,
      'x-access-token': tokens.accessToken,
      'content-type': 'application/json',
    };
    if (this.faults.has('no-api-key')) delete headers['x-api-key'];
    if (this.faults.has('no-access-token')) delete headers['x-access-token'];
    if (this.faults.has('no-content-type')) delete headers['content-type'];
    const res = await request(`${this.config.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    const rotated = res.headers['x-access-token'];
    if (res.statusCode >= 200 && res.statusCode < 300 && typeof rotated === 'string' && rotated && !this.faults.has('keeps-old-access-token')) {
      session.tokens = { ...tokens, accessToken: rotated, receivedAt: Date.now() };
    }
    if (res.statusCode === 401) {
      if (this.faults.has('stays-on-401')) return { status: 401, body: null };
      session.tokens = null;
      throw new NeedsAuthorization('the access token was refused (401)');
    }
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.statusCode, body: parsed };
  }

  /** POST /webhook/:lockID: a lock registration naming this application's client_id. */
  async watchLock(session: Session, lockId: string, url: string, custom: { header: string; token: string }): Promise<ApiAnswer> {
    const groups = this.faults.has('webhook-user-group-on-lock') ? ['operation', 'lifecycle'] : ['operation', 'battery'];
    return this.api(session, 'POST', `/webhook/${encodeURIComponent(lockId)}`, {
      url,
      method: 'POST',
      clientID: this.faults.has('webhook-other-client-id') ? `${this.config.clientId}-other` : this.config.clientId,
      header: custom.header,
      token: custom.token,
      notificationTypes: groups,
    });
  }

  /** DELETE /webhook/:lockID/:clientID, with no body. */
  async unwatchLock(session: Session, lockId: string): Promise<ApiAnswer> {
    const path = `/webhook/${encodeURIComponent(lockId)}/${encodeURIComponent(this.config.clientId)}`;
    return this.api(session, 'DELETE', path, this.faults.has('delete-with-body') ? { lockId } : undefined);
  }
}
