/**
 * The OAuth flows the suites use (contracts.ts Flows): build an authorization
 * URL, walk the authorization step through the control protocol's consent hook,
 * call the token endpoint, refresh, and obtain a user session.
 *
 * The flows are plumbing, not judges: they report what the target answered and
 * leave verdicts to the suites. Only refresh() and userSession() insist on a
 * token response, because a suite that asks for them needs working tokens to go
 * on; when they get none, they throw PrerequisiteFailed naming the requirement
 * whose own test judges that step (harness/run/prerequisite.ts), so the test that
 * asked is reported blocked by it, not failed: the code on approval
 * (OAUTH-CODE-ON-APPROVAL), the code exchange (OAUTH-CODE-EXCHANGE), the refresh
 * grant (REFRESH-NEW-PAIR), expires_in of the token response (TOKEN-RESPONSE-SHAPE).
 * Every token and code is registered with the redactor the moment it is seen.
 *
 * Without consent, a user session comes from the token cache (npm run login):
 * its refresh token is redeemed and the successor stored before use, and every
 * later refresh of a cached token stores its successor too, so the chain of
 * single-use refresh tokens survives the run.
 */
import { randomBytes } from 'node:crypto';
import { LockconfError } from '../run/errors.js';
import { PrerequisiteFailed } from '../run/prerequisite.js';
import { harvestSecrets, locationParams } from './secret-harvest.js';
import { openTokenCache, type TokenCache } from '../sandbox/token-cache.js';
import { refreshAndStore } from '../sandbox/refresh-chain.js';
import type {
  AuthorizationResult,
  ControlClientLike,
  Flows,
  HttpClientLike,
  HttpResponse,
  Target,
  TokenSet,
} from '../contracts.js';

export type FormFields = Record<string, string> | Array<[string, string]>;

export interface TokenRequestOptions {
  headers?: Record<string, string>;
  /** Default POST. With GET or HEAD the fields travel as query parameters (the troubleshooting variant). */
  method?: string;
  /** Add client_id and client_secret to the fields (default true; fields given explicitly win). */
  credentialsInBody?: boolean;
}

export interface AuthorizeOptions {
  user?: number;
  decision?: 'approve' | 'deny';
  state?: string;
  redirectUri?: string;
  clientId?: string;
}

export interface LockconfAuthorizationResult extends AuthorizationResult {
  /** The exact authorization URL that was sent. */
  authorizationUrl: string;
  /** The state sent in it. */
  state: string;
  /** What GET {auth_url}/authorization itself answered, before the consent step. */
  initial: { status: number; location: string | null };
  /**
   * The HTTP status of the redirect that ends the authorization step, as the target
   * reports it (control POST /consent's optional `redirectStatus`); null when it does
   * not say. Never filled in by the harness.
   */
  redirectStatus: number | null;
}

/** Flows of contracts.ts, with additive options and helpers. */
export interface LockconfFlows extends Flows {
  authorize(opts?: AuthorizeOptions): Promise<LockconfAuthorizationResult>;
  tokenRequest(form: FormFields, opts?: TokenRequestOptions): Promise<HttpResponse>;
  /** POST grant_type=client_credentials; the raw answer. */
  clientCredentialsRaw(): Promise<HttpResponse>;
  /** A TokenSet from a token response; throws a clear (redacted) error unless it is HTTP 200 with the token fields. */
  tokenSet(res: HttpResponse, what: string): TokenSet;
}

export interface FlowsDeps {
  target: Target;
  http: HttpClientLike;
  control: ControlClientLike | null;
  /** Opens the token cache of a target without consent (default: the profile's tokenCache file). */
  openCache?: () => Promise<TokenCache>;
}

export function createFlows(deps: FlowsDeps): LockconfFlows {
  const { target, http, control } = deps;
  const { profile } = target;
  const redactor = target.redactor;
  const tokenUrl = `${trimSlash(profile.authUrl)}/access_token`;
  let cache: TokenCache | null = null;

  function authorizationUrl(opts: { state?: string; redirectUri?: string; clientId?: string } = {}): string {
    const query = new URLSearchParams({
      client_id: opts.clientId ?? profile.clientId,
      redirect_uri: opts.redirectUri ?? profile.redirectUri,
      state: opts.state ?? randomState(),
    });
    return `${trimSlash(profile.authUrl)}/authorization?${query.toString()}`;
  }

  function consentClient(): ControlClientLike {
    if (!control || !target.has('consent')) {
      const why = target.whyMissing('consent') ?? 'no control interface';
      throw new LockconfError('ERR_CAPABILITY_MISSING', `needs consent: ${why}`);
    }
    return control;
  }

  function fixtureUser(index: number): string {
    const user = target.fixtures?.users[index];
    if (!user) {
      const count = target.fixtures?.users.length ?? 0;
      throw new LockconfError('ERR_CAPABILITY_MISSING', `needs fixture user #${index}: the target provides ${count} user(s)`);
    }
    return user.userId;
  }

  async function authorize(opts: AuthorizeOptions = {}): Promise<LockconfAuthorizationResult> {
    const consent = consentClient();
    const userId = fixtureUser(opts.user ?? 0);
    const state = opts.state ?? randomState();
    const url = authorizationUrl({ state, redirectUri: opts.redirectUri, clientId: opts.clientId });
    // The browser's first request: its answer (a sign-in page, or a redirect) is recorded as evidence.
    const first = await http.request({ method: 'GET', url });
    harvestSecrets(first, redactor);
    const answer = await consent.consent(url, userId, opts.decision ?? 'approve');
    const params = locationParams(answer.location);
    redactor.add(params.get('code'), 'code');
    return {
      location: answer.location,
      params,
      // The consent hook's own answer; the redirect's status is redirectStatus, when the target reports it.
      status: answer.status,
      redirectStatus: answer.redirectStatus ?? null,
      ...(answer.error !== undefined ? { error: answer.error } : {}),
      authorizationUrl: url,
      state,
      initial: { status: first.status, location: first.location },
    };
  }

  async function tokenRequest(form: FormFields, opts: TokenRequestOptions = {}): Promise<HttpResponse> {
    const given: Array<[string, string]> = Array.isArray(form) ? [...form] : Object.entries(form);
    for (const [name, value] of given) {
      if (name === 'code') redactor.add(value, 'code');
      if (name === 'refresh_token') redactor.add(value, 'refresh_token');
    }
    const names = new Set(given.map(([name]) => name));
    const fields: Array<[string, string]> = [];
    if (opts.credentialsInBody !== false) {
      if (!names.has('client_id')) fields.push(['client_id', profile.clientId]);
      if (!names.has('client_secret')) fields.push(['client_secret', profile.clientSecret]);
    }
    fields.push(...given);
    const method = (opts.method ?? 'POST').toUpperCase();
    const res = method === 'GET' || method === 'HEAD'
      ? await http.request({ method, url: `${tokenUrl}?${new URLSearchParams(fields).toString()}`, ...(opts.headers ? { headers: opts.headers } : {}) })
      : await http.request({ method, url: tokenUrl, form: fields, ...(opts.headers ? { headers: opts.headers } : {}) });
    harvestSecrets(res, redactor);
    return res;
  }

  function tokenSet(res: HttpResponse, what: string): TokenSet {
    return tokenSetFor(res, what, null);
  }

  /**
   * A TokenSet, or an error: with `pairRequirement` (the requirement whose own test judges
   * that this grant answers HTTP 200 with access_token and refresh_token), a
   * PrerequisiteFailed naming it, or TOKEN-RESPONSE-SHAPE when only expires_in is wrong.
   */
  function tokenSetFor(res: HttpResponse, what: string, pairRequirement: string | null): TokenSet {
    const json: unknown = res.json;
    const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
    const accessToken = body?.access_token;
    const refreshToken = body?.refresh_token;
    // Lenient on expires_in's type here: its exact shape is TOKEN-RESPONSE-SHAPE's business.
    const expiresIn = typeof body?.expires_in === 'string' ? Number(body.expires_in) : body?.expires_in;
    const pairOk = res.status === 200 && typeof accessToken === 'string' && accessToken !== '' && typeof refreshToken === 'string' && refreshToken !== '';
    if (!pairOk || typeof expiresIn !== 'number' || !Number.isFinite(expiresIn)) {
      const shown = redactor.redact(res.text).slice(0, 500);
      const message = `${what}: expected HTTP 200 with a token response {access_token, expires_in, refresh_token}; got HTTP ${res.status}: ${shown}`;
      if (pairRequirement === null) throw new Error(message);
      // A 200 whose tokens are there but of another type rests on the response's shape too (a scoped run may not judge pairRequirement).
      const typeOnly = res.status === 200 && accessToken != null && accessToken !== '' && refreshToken != null && refreshToken !== '';
      throw new PrerequisiteFailed(pairOk ? 'TOKEN-RESPONSE-SHAPE' : typeOnly ? [pairRequirement, 'TOKEN-RESPONSE-SHAPE'] : pairRequirement, message);
    }
    redactor.add(accessToken, 'access_token');
    redactor.add(refreshToken, 'refresh_token');
    return { accessToken, refreshToken, expiresIn, receivedAt: Date.now() };
  }

  const flows: LockconfFlows = {
    authorizationUrl,
    authorize,
    tokenRequest,
    tokenSet,
    exchangeCode: (code) => tokenRequest({ grant_type: 'authorization_code', code }),
    async refreshRaw(refreshToken) {
      const res = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
      // Redeeming the cached refresh token spends it: store its successor before anyone uses it.
      if (cache) await cache.recordRefreshResponse(refreshToken, res);
      return res;
    },
    clientCredentialsRaw: () => tokenRequest({ grant_type: 'client_credentials' }),
    async refresh(refreshToken) {
      return tokenSetFor(await flows.refreshRaw(refreshToken), 'refresh grant', 'REFRESH-NEW-PAIR');
    },
    async userSession(user = 0) {
      if (!target.has('consent') && target.has('user-token')) return cachedSession(user);
      const auth = await authorize({ user, decision: 'approve' });
      const code = auth.params.get('code');
      if (!code) {
        const where = auth.location === null ? `no redirect (${auth.error ?? `status ${auth.status}`})` : redactor.redact(auth.location);
        throw new PrerequisiteFailed('OAUTH-CODE-ON-APPROVAL', `authorization of fixture user #${user} yielded no code: ${where}`);
      }
      return tokenSetFor(await flows.exchangeCode(code), 'authorization code exchange', 'OAUTH-CODE-EXCHANGE');
    },
  };
  /** A session from the token cache (npm run login): redeem, store, verify with GET /users/me. */
  async function cachedSession(user: number): Promise<TokenSet> {
    if (user !== 0) {
      throw new LockconfError('ERR_CAPABILITY_MISSING', `needs consent for fixture user #${user}: the token cache holds the first user's tokens only`);
    }
    cache ??= await (deps.openCache ?? (() => openTokenCache(profile)))();
    const session = await refreshAndStore(cache, {
      redeem: (refreshToken) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      verify: (accessToken) => http.api('GET', '/users/me', { accessToken }),
    });
    redactor.add(session.accessToken, 'access_token');
    redactor.add(session.refreshToken, 'refresh_token');
    return session;
  }

  return flows;
}

function randomState(): string {
  return randomBytes(16).toString('base64url');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
