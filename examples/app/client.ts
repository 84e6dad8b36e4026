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
 * `faults` switches on the mistakes of client-faults.ts, named or one slice of a
 * rule (for lockconf's own tests); leave it empty in a real application.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { ClientFaults, stateDifference, type SlicedRequirement } from './client-faults.js';
import { isClientVariant, type ClientVariant } from './client-variants.js';

export type { ApiAnswer, ClientConfig, Session, Tokens } from './client-types.js';
export { NeedsAuthorization, RefreshInProgress } from './client-types.js';
import { NeedsAuthorization, RefreshInProgress, type ApiAnswer, type ClientConfig, type Session, type Tokens } from './client-types.js';

/** The spec's name of an API call (`GET /users/me`, `POST /webhook/:lockID`, …). */
function endpointOf(method: string, path: string): string {
  if (path.startsWith('/remoteoperate/')) return '/remoteoperate/status';
  if (path === '/webhook/user') return `${method} /webhook/user`;
  if (path.startsWith('/webhook/')) return method === 'DELETE' ? 'DELETE /webhook/:lockID/:clientID' : 'POST /webhook/:lockID';
  return `${method} ${path}`;
}

const STATE: SlicedRequirement = 'CLIENT-STATE-CHECKED';

export class LockClient {
  readonly #faults: ClientFaults;
  /** Every state handed out and not yet used (only the state-tamper=other-session fault accepts any of them). */
  readonly #issuedStates = new Set<string>();
  readonly #variants: ReadonlySet<ClientVariant>;

  constructor(private readonly config: ClientConfig, faults: Iterable<string> = [], variants: Iterable<string> = []) {
    this.#faults = new ClientFaults(faults);
    const chosen = [...variants];
    for (const v of chosen) if (!isClientVariant(v)) throw new Error(`unknown example client variant: ${v}`);
    this.#variants = new Set(chosen as ClientVariant[]);
  }

  /** A legal variant of client-variants.ts is on. */
  variant(name: ClientVariant): boolean {
    return this.#variants.has(name);
  }

  /** A script for the application's page (its public settings); a fault leaks a credential into it. */
  pageScript(): string {
    const settings: Record<string, string> = { clientId: this.config.clientId };
    if (this.breaks('CLIENT-SECRET-ONLY-IN-FORM', { 'request-kind': 'browser' }) || this.#faults.has('secret-in-page')) settings.clientSecret = this.config.clientSecret;
    if (this.#faults.has('api-key-in-page')) settings.apiKey = this.config.apiKey;
    return `<script>window.lockApp = ${JSON.stringify(settings).replace(/</g, '\\u003c')};</script>`;
  }

  private breaks(id: SlicedRequirement, slice: Readonly<Record<string, string | null>>): boolean {
    return this.#faults.breaks(id, slice);
  }

  /**
   * Step 1: where to send the user; the state is remembered in the session. `host` is the
   * request's Host header (the name the browser used): the redirect_uri never comes from it.
   */
  authorizationUrl(session: Session, host?: string): string {
    session.state = this.variant('hex-state') ? randomBytes(16).toString('hex') : randomBytes(24).toString('base64url');
    session.flows = (session.flows ?? 0) + 1;
    this.#issuedStates.add(session.state);
    const params: Array<[string, string]> = [];
    const leaves = (p: string) => this.breaks('CLIENT-AUTHZ-REQUEST', { 'authz-param': p });
    if (!leaves('client_id')) params.push(['client_id', this.config.clientId]);
    if (!leaves('redirect_uri')) params.push(['redirect_uri', this.redirectUriSent(host)]);
    if (!leaves('state') && !this.#faults.has('no-state')) params.push(['state', session.state]);
    if (this.breaks('CLIENT-SECRET-ONLY-IN-FORM', { 'request-kind': 'authorization' })) params.push(['client_secret', this.config.clientSecret]);
    const raw = (k: string) => this.breaks('CLIENT-AUTHZ-URL-ENCODED', { 'authz-param': k }) || (k === 'redirect_uri' && this.#faults.has('raw-redirect-uri'));
    const query = params.map(([k, v]) => `${k}=${raw(k) ? v : encodeURIComponent(v)}`).join('&');
    return `${this.config.authUrl}/authorization?${query}`;
  }

  /** The registered redirect URI (a fault changes one component of it, or builds it from the request's Host). */
  private redirectUriSent(host?: string): string {
    const registered = this.config.redirectUri;
    const reachedAs = host === undefined ? null : host === new URL(registered).host ? 'configured' : 'other-name';
    if (reachedAs === 'other-name' && this.breaks('CLIENT-AUTHZ-REDIRECT-URI', { 'reached-as': 'other-name' })) {
      const url = new URL(registered);
      return `${url.protocol}//${host}${url.pathname}${url.search}`; // the name the browser used, not the registered one
    }
    if (reachedAs === 'configured' && this.breaks('CLIENT-AUTHZ-REDIRECT-URI', { 'reached-as': 'configured' })) {
      const url = new URL(registered);
      url.searchParams.set('via', 'configured-name');
      return url.toString();
    }
    const part = ['scheme', 'host', 'port', 'path', 'query', 'case'].find((p) => this.breaks('CLIENT-AUTHZ-REDIRECT-URI', { 'redirect-uri-part': p })
      || (p === 'query' && this.#faults.has('redirect-uri-extra-query')));
    if (!part) return registered;
    const url = new URL(registered);
    if (part === 'case') return registered.replace(url.pathname, url.pathname.toUpperCase());
    if (part === 'scheme') url.protocol = url.protocol === 'https:' ? 'http:' : 'https:';
    if (part === 'host') url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    if (part === 'port') url.port = String(Number(url.port || 80) + 1);
    if (part === 'path') url.pathname = `${url.pathname}/again`;
    if (part === 'query') url.searchParams.set('from', 'app');
    return url.toString();
  }

  /** Does the state of the redirect back match the one in progress? (Each fault compares one way wrongly.) */
  private stateMatches(session: Session, expected: string | null, got: string | null, approval: boolean): boolean {
    if (this.#faults.has('ignores-state') || this.#faults.has('no-state')) return true;
    if (approval && this.breaks(STATE, { 'flow-end': 'approval' })) return true;
    // A browser the application never sent to authorization (no session cookie), or the flow's own browser, taken on trust.
    if (!session.flows && this.breaks(STATE, { 'arrives-in': 'no-cookie' })) return true;
    if (session.flows && expected !== null && this.breaks(STATE, { 'arrives-in': 'flow-browser' })) return true;
    if (got === null) return this.breaks(STATE, { 'state-tamper': 'missing' });
    if (got === '') return expected === '' || this.breaks(STATE, { 'state-tamper': 'empty' });
    // A state this application sent, but to another browser: accepted only by the unbound variant and the binding faults.
    const unbound = this.variant('state-in-global-set') || this.#faults.has('state-in-global-set');
    const bound = (b: string) => this.breaks('CLIENT-STATE-SESSION-BOUND', { 'session-binding': b });
    if (this.#issuedStates.has(got) && got !== expected && (unbound || (expected === null ? bound('no-cookie') : bound('other-session')))) return true;
    if (expected === null) return false;
    if (got === expected) return true;
    const wrongly = (tamper: string) => this.breaks(STATE, { 'state-tamper': tamper });
    if (wrongly('suffix') && got.startsWith(expected)) return true;
    if (wrongly('prefix') && got.endsWith(expected)) return true;
    if (wrongly('truncated') && expected.startsWith(got)) return true;
    if (wrongly('forged') && got.length === expected.length) return true; // compares the length only
    if (wrongly('altered-first') && got.slice(1) === expected.slice(1)) return true; // skips the first character
    if (wrongly('altered-last') && got.slice(0, -1) === expected.slice(0, -1)) return true; // skips the last character
    if (wrongly('altered-drawn') && got.length === expected.length && got[0] === expected[0] && got.at(-1) === expected.at(-1)) return true; // the ends only
    return wrongly('case') && got.toLowerCase() === expected.toLowerCase();
  }

  /** A cancellation whose state does not match, taken for the application's own (only the cancellation faults). */
  private takesCancellation(expected: string | null, got: string | null): boolean {
    if (this.#faults.has('cancellation-unchecked')) return true;
    return expected !== null && this.breaks('CLIENT-CANCELLATION-STATE-CHECKED', { 'state-tamper': stateDifference(expected, got) });
  }

  /**
   * Step 3–4: the redirect back. Checks state, then exchanges the code. A redirect whose state does not match
   * is not the end of the sign-in in progress (it is refused, the flow stays open); one that matches ends it.
   */
  async handleCallback(session: Session, query: URLSearchParams): Promise<'connected' | 'denied' | 'refused'> {
    const expected = session.state;
    const denied = query.get('error') === 'access_denied';
    const got = query.get('state');
    // The reloaded callback: its code was exchanged already (only the reloaded fault exchanges it again).
    const code = query.get('code');
    if (code && code === session.lastCode && this.breaks('CLIENT-CODE-ONCE', { 'callback-visit': 'reloaded' })) await this.exchangeCode(session, code);
    if (!this.stateMatches(session, expected, got, !denied && query.has('code')) && !(denied && this.takesCancellation(expected, got))) {
      if (this.variant('gives-up-on-wrong-state')) session.state = null; // the variant: a wrong state ends the sign-in in progress too
      return 'refused';
    }
    session.state = null; // one use, whatever happens next
    const outcome = await this.#callback(session, query, denied);
    const keeps = (flowEnd: string) => this.breaks('CLIENT-STATE-ONE-USE', { 'flow-end': flowEnd });
    if (expected !== null && outcome === 'connected' && (keeps('approval') || this.#faults.has('reuses-state'))) session.state = expected;
    if (expected !== null && outcome === 'denied' && keeps('cancellation')) session.state = expected;
    if (outcome === 'denied' && this.breaks(STATE, { 'flow-end': 'cancellation' })) session.state = ''; // a reset that leaves an empty string
    if (outcome !== 'refused' && expected !== null) this.#issuedStates.delete(expected);
    return outcome;
  }

  async #callback(session: Session, query: URLSearchParams, denied: boolean): Promise<'connected' | 'denied' | 'refused'> {
    if (denied) {
      if (this.#faults.has('exchanges-after-denial')) await this.exchangeCode(session, query.get('code') ?? session.lastCode ?? 'none');
      return 'denied';
    }
    const code = query.get('code');
    if (!code) return 'refused';
    return (await this.exchangeCode(session, code)) ? 'connected' : 'refused';
  }

  private async exchangeCode(session: Session, code: string): Promise<boolean> {
    const answer = await this.tokenRequest({ grant_type: this.#faults.has('code-grant-type-wrong') ? 'code' : 'authorization_code', code });
    if (this.#faults.has('reuses-code') || this.breaks('CLIENT-CODE-ONCE', { 'callback-visit': 'first' })) await this.tokenRequest({ grant_type: 'authorization_code', code });
    session.lastCode = code;
    if (!answer) return false;
    session.tokens = answer;
    session.refreshLinks = 0;
    session.lastGrant = 'code';
    session.callsSinceGrant = 0;
    return true;
  }

  /**
   * The refresh grant, one at a time per session: a request for a refresh while one is in flight joins it
   * (its refresh token is valid for exactly one use; a second refresh would present it again and be refused).
   */
  async refresh(session: Session): Promise<void> {
    if (this.#faults.has('refresh-not-serialized')) return this.#refresh(session);
    if (session.refreshing && this.variant('refuses-concurrent-refresh')) throw new RefreshInProgress();
    if (session.refreshing) return session.refreshing;
    session.refreshing = this.#refresh(session).finally(() => {
      session.refreshing = null;
    });
    return session.refreshing;
  }

  /** The refresh grant: the new pair replaces the old one at once, and the new token is verified (GET /users/me). */
  async #refresh(session: Session): Promise<void> {
    const current = session.tokens;
    if (!current) throw new NeedsAuthorization('not connected');
    const links = session.refreshLinks ?? 0;
    const position = links === 0 ? 'first' : 'later';
    const useAccess = this.#faults.has('refreshes-with-access-token') || this.breaks('CLIENT-REFRESH-STORE-NEW', { position });
    const presented = useAccess ? current.accessToken : current.refreshToken;
    const grantType = this.#faults.has('refresh-grant-type-wrong') ? 'refresh' : 'refresh_token';
    const fields: Record<string, string> = this.#faults.has('refreshes-without-token') ? { grant_type: grantType } : { grant_type: grantType, refresh_token: presented };
    let answer = await this.tokenRequest(fields);
    if (!answer && this.#faults.has('retries-refused-refresh')) answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: presented });
    if (!answer) {
      session.tokens = null; // a refused refresh token is dead: authorize again
      throw new NeedsAuthorization('the refresh was refused');
    }
    if (this.breaks('CLIENT-REFRESH-SINGLE-USE', { position })) await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: presented });
    const keepOld = this.#faults.has('reuses-refresh-token') || (this.#faults.has('stores-refresh-token-once') && links >= 1);
    session.tokens = keepOld ? { ...answer, refreshToken: current.refreshToken } : answer;
    session.refreshLinks = links + 1;
    session.lastGrant = 'refresh';
    session.callsSinceGrant = 0;
    await this.api(session, 'GET', '/users/me'); // the spec's cheap call to verify a new access token
  }

  /** POST {auth_url}/access_token: a form with the client's credentials in the body. */
  private async tokenRequest(fields: Record<string, string>): Promise<Tokens | null> {
    const grant = { grant: fields.code ? 'authorization_code' : fields.refresh_token ? 'refresh_token' : fields.grant_type ?? null };
    const inBasic = this.#faults.has('secret-in-basic-only');
    const idInQuery = this.breaks('CLIENT-TOKEN-BODY-FIELDS', grant);
    const credentials = { ...(idInQuery ? {} : { client_id: this.config.clientId }), client_secret: this.config.clientSecret };
    const form = new URLSearchParams(inBasic ? fields : { ...credentials, ...fields });
    if (this.#faults.has('repeats-client-id') || this.breaks('CLIENT-TOKEN-FIELD-ONCE', grant)) form.append('client_id', this.config.clientId);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (inBasic || this.#faults.has('secret-in-basic') || this.breaks('CLIENT-TOKEN-NO-BASIC', grant)) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(this.config.clientSecret)}`).toString('base64')}`;
    }
    let body = this.#faults.has('form-not-encoded') ? [...form].map(([k, v]) => `${k}=${v}`).join('&') : form.toString();
    if (this.#faults.has('token-request-as-json') || this.breaks('CLIENT-TOKEN-FORM-POST', grant)) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(Object.fromEntries(form));
    }
    const url = new URL(`${this.config.authUrl}/access_token`);
    if (this.#faults.has('secret-in-url') || this.breaks('CLIENT-SECRET-ONLY-IN-FORM', { 'request-kind': 'token' })) url.searchParams.set('client_secret', this.config.clientSecret);
    if (idInQuery) url.searchParams.set('client_id', this.config.clientId);
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
    const point = session.callsSinceGrant === 0 ? (session.lastGrant === 'refresh' ? 'after-refresh' : 'after-sign-in') : 'drawn-call';
    session.callsSinceGrant = (session.callsSinceGrant ?? 0) + 1;
    const at = { endpoint: endpointOf(method, path) };
    const encodeKey = this.#faults.has('url-encodes-headers') || this.breaks('CLIENT-API-HEADERS-NOT-ENCODED', at);
    const headers: Record<string, string> = {
      'x-api-key': encodeKey ? encodeURIComponent(this.config.apiKey) : this.config.apiKey,
      'x-access-token': this.#faults.has('refresh-token-as-access-token') ? tokens.refreshToken : tokens.accessToken,
      'content-type': 'application/json',
    };
    if (this.#faults.has('no-api-key') || this.breaks('CLIENT-API-KEY-HEADER', at)) delete headers['x-api-key'];
    if (this.#faults.has('no-access-token') || this.breaks('CLIENT-API-ACCESS-TOKEN-HEADER', at)) delete headers['x-access-token'];
    if (this.#faults.has('no-content-type') || this.breaks('CLIENT-API-CONTENT-TYPE', at)) delete headers['content-type'];
    if (this.breaks('CLIENT-SECRET-ONLY-IN-FORM', { 'request-kind': 'api' })) {
      headers.authorization = `Basic ${Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64')}`;
    }
    const res = await request(`${this.config.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    const rotated = res.headers['x-access-token'];
    const adopts = !this.#faults.has('keeps-old-access-token') && !this.breaks('CLIENT-ADOPT-NEW-ACCESS-TOKEN', { ...at, 'answer-status': String(res.statusCode), 'answer-body': text ? 'with-body' : 'no-body' });
    if (res.statusCode >= 200 && res.statusCode < 300 && typeof rotated === 'string' && rotated && adopts && session.tokens) {
      session.tokens = { ...session.tokens, accessToken: rotated, receivedAt: Date.now() };
    }
    if (res.statusCode === 401) {
      if (this.#faults.has('stays-on-401') || this.breaks('CLIENT-REAUTHORIZE-ON-401', { ...at, 'flow-point': point })) return { status: 401, body: null };
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

  private clientIdFor(endpoint: string): string {
    const other = this.#faults.has('webhook-other-client-id') || this.breaks('CLIENT-WEBHOOK-CLIENT-ID', { endpoint });
    return other ? `${this.config.clientId}-other` : this.config.clientId;
  }

  /** The registration's token (a string; a fault sends a number). */
  private tokenFor(endpoint: string, token: string): string | number {
    return this.#faults.has('webhook-token-as-number') || this.breaks('CLIENT-WEBHOOK-FIELD-TYPES', { endpoint }) ? 1234 : token;
  }

  /** POST /webhook/:lockID: a lock registration naming this application's client_id. */
  async watchLock(session: Session, lockId: string, url: string, custom: { header: string; token: string }): Promise<ApiAnswer> {
    const endpoint = 'POST /webhook/:lockID';
    const wrong = this.#faults.has('webhook-user-group-on-lock') || this.breaks('CLIENT-WEBHOOK-GROUPS', { endpoint });
    const groups = wrong ? ['operation', 'lifecycle'] : ['operation', 'battery'];
    const method = this.#faults.has('registers-with-put') || this.breaks('CLIENT-WEBHOOK-ENDPOINT', { endpoint }) ? 'PUT' : 'POST';
    return this.api(session, method, `/webhook/${encodeURIComponent(lockId)}`, {
      url, method: 'POST', clientID: this.clientIdFor(endpoint), header: custom.header, token: this.tokenFor(endpoint, custom.token),
      notificationTypes: this.#faults.has('notification-types-as-string') ? groups.join(',') : groups,
    });
  }

  /** POST /webhook/user: the user registration, same body shape, user groups. */
  async watchUser(session: Session, url: string, custom: { header: string; token: string }): Promise<ApiAnswer> {
    const endpoint = 'POST /webhook/user';
    const wrong = this.breaks('CLIENT-WEBHOOK-GROUPS', { endpoint });
    const method = this.breaks('CLIENT-WEBHOOK-ENDPOINT', { endpoint }) ? 'PUT' : 'POST';
    return this.api(session, method, '/webhook/user', {
      url, method: 'POST', clientID: this.clientIdFor(endpoint), header: custom.header, token: this.tokenFor(endpoint, custom.token),
      notificationTypes: wrong ? ['lockmembership', 'battery'] : ['lockmembership', 'lifecycle'],
    });
  }

  /** DELETE /webhook/:lockID/:clientID, with no body. */
  async unwatchLock(session: Session, lockId: string): Promise<ApiAnswer> {
    const endpoint = 'DELETE /webhook/:lockID/:clientID';
    const withoutClientId = this.#faults.has('deletes-without-client-id') || this.breaks('CLIENT-WEBHOOK-ENDPOINT', { endpoint });
    const path = withoutClientId ? `/webhook/${encodeURIComponent(lockId)}` : `/webhook/${encodeURIComponent(lockId)}/${encodeURIComponent(this.clientIdFor(endpoint))}`;
    const withBody = this.#faults.has('delete-with-body') || this.breaks('CLIENT-DELETE-NO-BODY', { endpoint });
    return this.api(session, 'DELETE', path, withBody ? { lockId } : undefined);
  }

  /** DELETE /webhook/user, with no body. */
  async unwatchUser(session: Session): Promise<ApiAnswer> {
    const path = this.breaks('CLIENT-WEBHOOK-ENDPOINT', { endpoint: 'DELETE /webhook/user' }) ? '/webhook/users' : '/webhook/user';
    return this.api(session, 'DELETE', path, this.breaks('CLIENT-DELETE-NO-BODY', { endpoint: 'DELETE /webhook/user' }) ? { user: true } : undefined);
  }

  /** The status check: the service sends a status webhook to every listener of the lock. */
  async checkStatus(session: Session, lockId: string): Promise<ApiAnswer> {
    return this.api(session, 'PUT', `/remoteoperate/${encodeURIComponent(lockId)}/status`);
  }
}
