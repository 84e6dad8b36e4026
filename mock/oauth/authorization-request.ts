/**
 * The authorization request (spec: GET {auth_url}/authorization) and the
 * redirect that ends it (Authorization code flow step 3). Shared by the real
 * pages and by the control protocol's POST /consent, so both apply the same rules.
 */
import type { MockContext } from '../context.js';
import { registeredClient } from './other-clients.js';
import { alterByCharClass, differingUrlPart, redirectUriShapes, withoutShapes } from '../slice-values.js';
import { clientSlice } from './refresh-tokens.js';

/** Longest state the mock keeps (longer ones get a 400 page). */
export const MAX_STATE_LENGTH = 2048;
const MAX_PARAM_LENGTH = 2048;
/** Characters of state kept under the state-truncated fault. */
const TRUNCATED_STATE_LENGTH = 64;

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
}

export type AuthorizationValidation =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; status: 400 | 422; error: string; message: string };

/**
 * Validate the query of an authorization request. Parsed with URLSearchParams,
 * the same rules a client uses to build it, so every state value round-trips.
 */
export function validateAuthorizationRequest(ctx: MockContext, query: URLSearchParams): AuthorizationValidation {
  const single = (name: string): string | null | 'repeated' => {
    const all = query.getAll(name);
    if (all.length > 1) return 'repeated';
    return all[0] ?? null;
  };
  const clientId = single('client_id');
  const redirectUri = single('redirect_uri');
  const state = single('state');
  for (const [name, value] of [['client_id', clientId], ['redirect_uri', redirectUri], ['state', state]] as const) {
    if (value === null || value === '') return bad(400, 'invalid_request', `${name} is required`);
    if (value === 'repeated') return bad(400, 'invalid_request', `${name} is given more than once`);
  }
  const c = clientId as string;
  const r = redirectUri as string;
  const s = state as string;
  if (c.length > MAX_PARAM_LENGTH || r.length > MAX_PARAM_LENGTH) return bad(400, 'invalid_request', 'client_id or redirect_uri is too long');
  if (s.length > MAX_STATE_LENGTH) return bad(400, 'invalid_request', `state is longer than ${MAX_STATE_LENGTH} characters`);
  const unknownLetThrough = ctx.faults.has('unknown-client-redirected') && r === ctx.credentials.redirectUri;
  const client = registeredClient(ctx, c);
  if (client === null && !unknownLetThrough) return bad(400, 'invalid_client', 'unknown client_id');
  if (!redirectAllowed(ctx, r, client?.redirectUris)) return bad(400, 'invalid_redirect_uri', 'redirect_uri is not the one registered for this client');
  return { ok: true, request: { clientId: c, redirectUri: r, state: s } };
}

/** Exactly the registered redirect URI (RFC 6749 §3.1.2.4); anything absolute under open-redirect. */
function redirectAllowed(ctx: MockContext, redirectUri: string, registered?: readonly string[]): boolean {
  if (registered !== undefined ? registered.includes(redirectUri) : redirectUri === ctx.credentials.redirectUri) return true;
  if (registered === undefined && ctx.credentials.loginRedirectUri !== undefined && redirectUri === ctx.credentials.loginRedirectUri) return true;
  // Slice fault: a redirect_uri that differs from the registered one in one URL component only is taken for it.
  if (ctx.faults.anySlice() && (registered ?? [ctx.credentials.redirectUri]).some((uri) => ctx.faults.breaks('OAUTH-REDIRECT-URI-REGISTERED', { 'redirect-uri-part': differingUrlPart(uri, redirectUri) }))) return true;
  if (!ctx.faults.has('open-redirect')) return false;
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function bad(status: 400 | 422, error: string, message: string): AuthorizationValidation {
  return { ok: false, status, error, message };
}

/** The slices of the redirect that ends a request: the requesting credential, and what its registered redirect URI carries. */
export function redirectSlice(ctx: MockContext, request: AuthorizationRequest): { client: string; 'redirect-uri-shape': string[] } {
  return { client: clientSlice(ctx, request.clientId), 'redirect-uri-shape': redirectUriShapes(request.redirectUri) };
}

/**
 * The registered redirect URI the answer goes to, its query kept (RFC 6749 §3.1.2). Slice faults of
 * `rule` (OAUTH-AUTHZ-REDIRECT on approval, OAUTH-DENIAL-ACCESS-DENIED on cancellation): for a broken
 * shape the URI carries, that component is lost; for a broken credential, its path.
 */
function redirectBase(ctx: MockContext, request: AuthorizationRequest, rule: 'OAUTH-AUTHZ-REDIRECT' | 'OAUTH-DENIAL-ACCESS-DENIED'): URL {
  const url = new URL(request.redirectUri);
  if (!ctx.faults.anySlice()) return url;
  const slice = redirectSlice(ctx, request);
  const lost = slice['redirect-uri-shape'].filter((shape) => ctx.faults.breaks(rule, { 'redirect-uri-shape': shape }));
  if (ctx.faults.breaks(rule, { client: slice.client })) lost.push('path');
  withoutShapes(url, lost);
  return url;
}

/** Approve: redirect_uri?code=…&state=… */
export function approvalRedirect(ctx: MockContext, request: AuthorizationRequest, code: string): string {
  const url = redirectBase(ctx, request, 'OAUTH-AUTHZ-REDIRECT');
  url.searchParams.set('code', code);
  if (!ctx.faults.has('approval-drops-state')) url.searchParams.set('state', echoedState(ctx, request, 'OAUTH-STATE-ECHO'));
  return url.toString();
}

/** Cancel: redirect_uri?error=access_denied&state=… */
export function denialRedirect(ctx: MockContext, request: AuthorizationRequest): string {
  const url = redirectBase(ctx, request, 'OAUTH-DENIAL-ACCESS-DENIED');
  url.searchParams.set('error', ctx.faults.has('denial-without-error') ? 'server_error' : 'access_denied');
  if (!ctx.faults.has('denial-drops-state')) url.searchParams.set('state', echoedState(ctx, request, 'OAUTH-DENIAL-ACCESS-DENIED'));
  return url.toString();
}

/** Printable ASCII characters that no sample of the chars dimension holds (the faults *-unsampled-chars-dropped). */
const UNSAMPLED_CHARS = /[\^|`{}\\"<>]/g;

/** state comes back unchanged, whatever it holds. */
function echoedState(ctx: MockContext, request: AuthorizationRequest, rule: 'OAUTH-STATE-ECHO' | 'OAUTH-DENIAL-ACCESS-DENIED'): string {
  let state = request.state;
  // Slice faults: the characters of one class altered (slice-values.ts); on approval, for one credential, those of every class.
  if (ctx.faults.anySlice()) {
    const everyClass = rule === 'OAUTH-STATE-ECHO' && ctx.faults.breaks(rule, { client: clientSlice(ctx, request.clientId) });
    state = alterByCharClass(state, (chars) => everyClass || ctx.faults.breaks(rule, { chars }));
  }
  if (ctx.faults.has(rule === 'OAUTH-STATE-ECHO' ? 'state-unsampled-chars-dropped' : 'denial-state-unsampled-chars-dropped')) state = state.replace(UNSAMPLED_CHARS, '');
  if (!ctx.faults.has('state-truncated')) return state;
  return Array.from(state).slice(0, TRUNCATED_STATE_LENGTH).join('');
}
