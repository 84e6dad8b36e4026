/**
 * POST {auth_url}/access_token (spec: Token response, Authentication, Errors):
 * grants authorization_code, client_credentials and refresh_token. A malformed
 * request, or any other method, is answered with a 302 to /error.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.js';
import type { MockAccessTokens } from './access-tokens.js';
import { authenticateClient } from './client-auth.js';
import { isMalformedForm } from './form-body.js';
import type { AuthorizationCodes } from './codes.js';
import type { Grants } from './grants.js';
import { chainLength, chainPosition, clientSlice, refreshAge, type RefreshTokens } from './refresh-tokens.js';
import { actorOf } from './approver.js';
import { narrowToken } from './narrowed-tokens.js';
import { OAUTH_SCHEMAS } from '../docs/oauth-schemas.js';
import { documented } from '../docs/common-schemas.js';
import { approverRole, partnerOf } from './approver.js';

/** A refused refresh token's reason (refresh-tokens.ts) → its cause, as the Errors table names it. */
/** The reason oauth/refresh-tokens.ts gives a token it never issued. */
const UNKNOWN_REFRESH_TOKEN = 'unknown refresh token';

const REFUSAL_CAUSES: Readonly<Record<string, string>> = {
  'refresh token already used': 'used',
  'refresh token expired': 'expired',
  'refresh token revoked': 'revoked',
};

export const TOKEN_PATH = '/access_token';
/** The access token lifetime under the slice fault HEADERS-TOKEN-LIFETIME-24H@grant=…: one hour. */
const SHORT_GRANT_LIFETIME_SEC = 3600;
/** Under access-token-ends-early and the slice faults TOKEN-ACCESS-LIFETIME-HONOURED@…: the access token stops working this long before its expires_in (still over 24 hours on every legal lifetime). */
const EARLY_END_MS = 3_600_000;
/** Under refresh-stops-rotating: the link whose redemption first answers the token it was given (the fourth refresh; the chain tests stop at the third link). */
const STOPS_ROTATING_AT_LINK = 4;
/** Slice faults REFRESH-SINGLE-USE and OAUTH-CODE-SINGLE-USE @presentation=two-at-once: how long a redemption keeps its token or code redeemable before it answers. */
const RACE_WINDOW_MS = 300;

/** Those faults only (a redemption with spendLater): the answer waits out the race window, the token or code is used up just before it. */
async function spendAfterRaceWindow(redeemed: { spendLater?: () => void }): Promise<void> {
  if (!redeemed.spendLater) return;
  await new Promise((resolve) => setTimeout(resolve, RACE_WINDOW_MS));
  redeemed.spendLater();
}

/** The grant_type a body names, whatever the method it came with (for slice faults of malformed requests). */
function grantTypeOf(body: unknown): string | undefined {
  return fieldOf(body, 'grant_type');
}

/** A string field of a body, whatever the method it came with; undefined when absent. */
function fieldOf(body: unknown, name: string): string | undefined {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}
/** The route config flag the OAuth error handler looks for. */
export const TOKEN_ENDPOINT_CONFIG = { tokenEndpoint: true } as const;

export interface TokenEndpointDeps {
  tokens: MockAccessTokens;
  codes: AuthorizationCodes;
  refresh: RefreshTokens;
  grants: Grants;
}

/** The one place TOKEN-MALFORMED-302-ERROR is implemented; `grant`: the grant_type the malformed request names, if any. */
export function answerMalformed(ctx: MockContext, reply: FastifyReply, grant?: string, clientId?: string): FastifyReply {
  const client = clientId === undefined ? undefined : clientSlice(ctx, clientId);
  if (ctx.faults.has('malformed-400') || ctx.faults.breaks('TOKEN-MALFORMED-302-ERROR', { grant, client })) {
    return oauthError(reply, 400, 'invalid_request', 'malformed token request');
  }
  return reply.code(302).header('location', '/error').header('cache-control', 'no-store').send();
}

export function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error, error_description: description, message: description });
}

/** The form body as single values; null when it is not a form or a field is repeated. */
function readForm(request: FastifyRequest): Map<string, string> | null {
  const type = String(request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || isMalformedForm(body)) return null;
  const form = new Map<string, string>();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value !== 'string') return null;
    form.set(name, value);
  }
  return form;
}

export function registerTokenEndpoint(app: FastifyInstance, ctx: MockContext, deps: TokenEndpointDeps): void {
  const { tokens, codes, refresh, grants } = deps;
  /** Under refresh-same-access-token only: the access token issued with each refresh token. */
  const issuedWith = new Map<string, string>();

  async function tokenResponse(reply: FastifyReply, grant: { grantType: string; userId: string | null; clientId: string; grantId?: string; withRefresh: boolean; refreshToken?: string; deadAccessToken?: boolean; accessToken?: string; chain?: { link: number; chainStartMs: number }; refreshAge?: string | null }) {
    const claims = { userId: grant.userId, clientId: grant.clientId, ...(grant.grantId ? { grantId: grant.grantId } : {}) };
    const at = { grant: grant.grantType, client: clientSlice(ctx, grant.clientId) };
    // Slice faults (mock/slice-faults.ts): a short lifetime or an opaque token on this grant (or this credential's responses) only.
    // (HEADERS-TOKEN-LIFETIME-24H@client=… shortens the tokens that credential's calls receive in x-access-token: mock/api/authentication.ts.)
    const short = ctx.faults.breaks('HEADERS-TOKEN-LIFETIME-24H', { grant: at.grant });
    // Fault access-token-ends-early, or the slice fault of that grant (or of a refresh token redeemed at that age): the token ends an hour before its expires_in says.
    const endsEarly = !short && (ctx.faults.has('access-token-ends-early') || ctx.faults.breaks('TOKEN-ACCESS-LIFETIME-HONOURED', { grant: grant.grantType, 'refresh-age': grant.refreshAge, client: at.client }));
    const expiresAtMs = short ? ctx.clock.now() + SHORT_GRANT_LIFETIME_SEC * 1000 : endsEarly ? ctx.clock.now() + tokens.lifetimeSec() * 1000 - EARLY_END_MS : undefined;
    const issueClaims = { ...claims, ...(expiresAtMs !== undefined ? { expiresAtMs } : {}), ...(ctx.faults.breaks('TOKEN-ACCESS-TOKEN-JWT', at) ? { opaque: true } : {}) };
    const access = grant.accessToken !== undefined
      ? { token: grant.accessToken }
      : grant.deadAccessToken ? await tokens.issueDead(claims) : await tokens.issue(issueClaims);
    const lifetime = short ? SHORT_GRANT_LIFETIME_SEC : tokens.lifetimeSec();
    const body: Record<string, unknown> = {
      access_token: access.token,
      expires_in: ctx.faults.has('expires-in-string') || ctx.faults.breaks('TOKEN-RESPONSE-SHAPE', { ...at, 'token-field': 'expires_in' }) ? String(lifetime) : lifetime,
      token_type: 'Bearer',
    };
    if (grant.withRefresh) body.refresh_token = grant.refreshToken ?? refresh.issue(claims, grant.chain);
    if (ctx.faults.has('refresh-same-access-token') && typeof body.refresh_token === 'string') issuedWith.set(body.refresh_token, access.token);
    if (ctx.faults.has('refresh-second-client-locks-refused') && grant.grantType === 'refresh_token' && grant.clientId !== ctx.credentials.clientId) narrowToken(ctx, access.token);
    for (const field of ['access_token', 'refresh_token']) {
      if (ctx.faults.breaks('TOKEN-RESPONSE-SHAPE', { 'token-field': field }) && field in body) body[field] = 1;
    }
    if (ctx.options.extraFields) body.x_mock_session_hint = 'unknown fields must be ignored';
    // Faults token-response-cacheable and TOKEN-NO-STORE@grant=…: the token response says nothing of caching.
    const cacheable = ctx.faults.has('token-response-cacheable') || ctx.faults.breaks('TOKEN-NO-STORE', at);
    const answer = cacheable ? reply.code(200) : reply.code(200).header('cache-control', 'no-store').header('pragma', 'no-cache');
    if (ctx.faults.has('token-response-form-encoded') || ctx.faults.breaks('TOKEN-RESPONSE-JSON', at)) {
      const form = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]));
      return answer.type('application/x-www-form-urlencoded').send(form.toString());
    }
    return answer.send(body);
  }

  app.post(TOKEN_PATH, { config: TOKEN_ENDPOINT_CONFIG, ...documented(OAUTH_SCHEMAS.accessToken) }, async (request, reply) => {
    const form = readForm(request);
    const grantType = form?.get('grant_type');
    if (!form || !grantType) return answerMalformed(ctx, reply, undefined, form?.get('client_id'));

    const client = authenticateClient(ctx, form, request.headers.authorization);
    if (!client.ok) return oauthError(reply, 400, 'invalid_client', 'secrets did not match');
    const clientId = client.clientId;

    switch (grantType) {
      case 'authorization_code': {
        const code = form.get('code');
        // A required parameter missing: malformed (Errors), as when an unquoted & cuts the request.
        if (!code) return missingParameter(reply, 'code', grantType, clientId);
        const grantId = grants.start();
        const redeemed = codes.redeem(code, clientId, form.get('redirect_uri'), grantId);
        if (!redeemed.ok) {
          // RFC 6749 §4.1.2: a code used twice revokes what its first redemption issued.
          if (redeemed.replayedGrant) grants.revoke(redeemed.replayedGrant, 'code-replayed');
          return oauthError(reply, 400, 'invalid_grant', redeemed.reason);
        }
        await spendAfterRaceWindow(redeemed);
        // Slice fault: the token of that approver's code acts for another user (their partner on a lock).
        const userId = ctx.faults.breaks('OAUTH-CODE-EXCHANGE', { approver: approverRole(ctx.world, redeemed.userId) }) ? partnerOf(ctx.world, redeemed.userId) : redeemed.userId;
        return tokenResponse(reply, { grantType, userId, clientId, grantId, withRefresh: !ctx.faults.has('code-grant-no-refresh-token'), deadAccessToken: ctx.faults.has('code-grant-token-refused') });
      }
      case 'client_credentials': {
        const sharedPermission = ctx.faults.has('cc-permission-shared') && ctx.clientCredentialsEnabled.size > 0;
        // Slice fault: while no credential has the permission (the default), that credential's grant is served.
        const defaultBroken = ctx.clientCredentialsEnabled.size === 0 && ctx.faults.breaks('TOKEN-CC-DISABLED-BY-DEFAULT', { client: clientSlice(ctx, clientId) });
        // Slice fault: that credential's grant is refused although it has the permission.
        const permittedBroken = ctx.clientCredentialsEnabled.has(clientId) && ctx.faults.breaks('TOKEN-CC-ENABLED-WORKS', { client: clientSlice(ctx, clientId) });
        if ((!ctx.clientCredentialsEnabled.has(clientId) && !ctx.faults.has('cc-enabled-by-default') && !sharedPermission && !defaultBroken) || permittedBroken) {
          // How the refusal is answered is not described (Errors): a freedom (CC-REFUSAL-ANSWER).
          return oauthError(reply, ctx.freedoms.chooses('CC-REFUSAL-ANSWER', 'forbidden-403') ? 403 : 400, 'unauthorized_client', 'the client_credentials grant is not enabled for this client');
        }
        return tokenResponse(reply, {
          grantType,
          userId: null,
          clientId,
          grantId: grants.start(),
          withRefresh: !ctx.faults.has('cc-no-refresh-token'),
          // Same shape as an issued refresh token, never stored: the refresh grant refuses it.
          ...(ctx.faults.has('cc-refresh-token-dead') ? { refreshToken: randomBytes(32).toString('base64url') } : {}),
          deadAccessToken: ctx.faults.has('cc-token-refused'),
        });
      }
      case 'refresh_token': {
        const token = form.get('refresh_token');
        if (!token) return missingParameter(reply, 'refresh_token', grantType, clientId);
        const redeemed = refresh.redeem(token, clientId);
        if (!redeemed.ok) {
          // RFC 9700 §4.14.2, only when asked for (the spec gives a used token's reuse no other effect).
          if (redeemed.replayedGrant && ctx.options.revokeOnRefreshReplay) grants.revoke(redeemed.replayedGrant, 'refresh-replayed');
          return refreshRefused(reply, redeemed.reason, clientId);
        }
        await spendAfterRaceWindow(redeemed);
        // Slice faults on one link of the chain, or on the application's own account.
        const link = { position: chainPosition(redeemed.link), actor: actorOf(ctx.world, redeemed.userId), client: clientSlice(ctx, clientId), 'chain-length': chainLength(redeemed.link) };
        if (redeemed.userId === null && ctx.faults.breaks('TOKEN-CC-REFRESH-WORKS', link)) return refreshRefused(reply, 'refresh token refused', clientId);
        return tokenResponse(reply, {
          grantType,
          userId: redeemed.userId,
          clientId,
          ...(redeemed.grantId ? { grantId: redeemed.grantId } : {}),
          withRefresh: true,
          chain: { link: redeemed.link, chainStartMs: redeemed.chainStartMs },
          refreshAge: refreshAge(ctx.clock.now() - redeemed.issuedAtMs),
          ...(ctx.faults.has('refresh-no-new-token') || ctx.faults.breaks('REFRESH-NEW-PAIR', link) || (ctx.faults.has('refresh-stops-rotating') && redeemed.link >= STOPS_ROTATING_AT_LINK) ? { refreshToken: token } : {}),
          deadAccessToken: ctx.faults.has('refresh-access-token-dead') || ctx.faults.breaks('REFRESH-NEW-ACCESS-TOKEN-WORKS', link) || (ctx.faults.has('refresh-second-client-access-dead') && clientId !== ctx.credentials.clientId),
          ...(issuedWith.has(token) ? { accessToken: issuedWith.get(token)! } : {}),
        });
      }
      default:
        return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type must be authorization_code, client_credentials or refresh_token');
    }
  });

  /**
   * A grant's request without the parameter that grant requires: no token (TOKEN-REQUIRED-PARAMETER). How it is
   * refused is a freedom (MISSING-PARAMETER-REFUSAL; checked by TOKEN-MISSING-PARAMETER-ANSWER): a 302 to /error, the Errors row's malformed request
   * (default), or RFC 6749 §5.2's 400 invalid_request.
   */
  async function missingParameter(reply: FastifyReply, name: string, grantType: string, clientId: string): Promise<FastifyReply> {
    // Fault missing-parameter-token-issued (or the slice fault of that credential): the request is served as if for the first user of the fixtures.
    if (ctx.faults.has('missing-parameter-token-issued') || ctx.faults.breaks('TOKEN-REQUIRED-PARAMETER', { client: clientSlice(ctx, clientId) })) {
      return tokenResponse(reply, { grantType, userId: ctx.world.users[0]?.userId ?? null, clientId, grantId: grants.start(), withRefresh: true });
    }
    // Fault missing-parameter-plain-400: a 400 that follows neither reading (a plain-text body, no OAuth 2.0 error).
    if (ctx.faults.has('missing-parameter-plain-400') || ctx.faults.breaks('TOKEN-MISSING-PARAMETER-ANSWER', { client: clientSlice(ctx, clientId) })) return reply.code(400).type('text/plain').send(`${name} is required`);
    if (ctx.freedoms.chooses('MISSING-PARAMETER-REFUSAL', 'invalid-request')) return oauthError(reply, 400, 'invalid_request', `${name} is required`);
    return answerMalformed(ctx, reply);
  }

  /** A used, expired, revoked or unknown refresh token: 400 with an OAuth 2.0 error body. */
  function refreshRefused(reply: FastifyReply, reason: string, clientId: string): FastifyReply {
    // The slice dimensions `refusal-cause` (mock/slice-faults.ts: used, expired or revoked) and `client` (who presented it).
    const cause = { 'refusal-cause': REFUSAL_CAUSES[reason] ?? 'other', client: clientSlice(ctx, clientId) };
    const unknown = reason === UNKNOWN_REFRESH_TOKEN;
    // Fault refresh-unknown-401: a never-issued token refused with another status (REFRESH-UNKNOWN-ERROR-ANSWER).
    if (unknown && ctx.faults.has('refresh-unknown-401')) return oauthError(reply, 401, 'invalid_grant', reason);
    // Fault refresh-error-not-oauth: the Errors row's refusals (expired, used, revoked) get a text body; a never-issued token is another rule's.
    if ((ctx.faults.has('refresh-error-not-oauth') && !unknown) || ctx.faults.breaks('REFRESH-ERROR-RESPONSE', cause)) {
      return reply.code(400).type('text/plain; charset=utf-8').send(`refresh failed: ${reason}`);
    }
    const error = ctx.faults.has('refresh-error-invalid-request') || ctx.faults.breaks('REFRESH-ERROR-INVALID-GRANT', cause) ? 'invalid_request' : 'invalid_grant';
    return oauthError(reply, 400, error, reason);
  }

  // The wrong HTTP method is a malformed request too (spec: Errors).
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: TOKEN_PATH,
    config: TOKEN_ENDPOINT_CONFIG,
    handler: async (request, reply) => {
      if (request.method !== 'GET' && ctx.faults.has('wrong-method-404')) return reply.code(404).send({ error: 'not_found', message: 'no such route' });
      return answerMalformed(ctx, reply, grantTypeOf(request.body), fieldOf(request.body, 'client_id'));
    },
  });
}
