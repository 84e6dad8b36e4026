/**
 * Request headers for API calls (spec: Authentication): x-api-key and x-access-token
 * on every call, and the rotated x-access-token on every successful answer.
 *
 * Answers (the spec leaves the API key case open; the token case is its rule):
 *   missing or wrong x-api-key           → 401 {"error":"invalid_api_key"}
 *   missing x-access-token               → 401 {"error":"invalid_token"}   (fault missing-token-400: 400)
 *   invalid, expired or revoked token    → 401 {"error":"invalid_token"}   (fault invalid-token-403: 403)
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokenClaims, MockContext } from '../context.js';
import { ApiError } from './errors.js';
import { knownApiKey } from '../oauth/other-clients.js';
import { actorOf } from '../oauth/approver.js';
import { clientSlice } from '../oauth/refresh-tokens.js';
import { isNarrowed } from '../oauth/narrowed-tokens.js';

/** Who is calling: the verified claims of the presented token. */
export interface ApiCaller {
  token: string;
  claims: AccessTokenClaims;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller: ApiCaller | null;
  }
}

/** A rotated token extends the presented one by this much at least. */
export const ROTATION_EXTENSION_MS = 60_000;
/** ...and is never valid for less than this (spec: tokens are not issued valid for less than 24 hours). */
export const ROTATION_MINIMUM_MS = 24 * 60 * 60 * 1000;
/** The minimum under the rotated-token-short fault. */
const SHORT_ROTATION_MINIMUM_MS = 60 * 60 * 1000;
/** Under rotation-capped, a session's rotated tokens never outlive its first token by more than this. */
const ROTATION_CAP_MS = 24 * 60 * 60 * 1000;

/** The endpoint as the spec names it (the slice dimension `endpoint`, mock/slice-faults.ts), or null. */
function specEndpoint(request: FastifyRequest): string | null {
  const url = request.routeOptions.url ?? '';
  if (url.endsWith('/users/me')) return 'GET /users/me';
  if (url.endsWith('/users/locks/mine')) return 'GET /users/locks/mine';
  if (url.endsWith('/webhook/user')) return `${request.method} /webhook/user`;
  if (url.endsWith('/webhook/:lockID')) return 'POST /webhook/:lockID';
  if (url.endsWith('/webhook/:lockID/:clientID')) return 'DELETE /webhook/:lockID/:clientID';
  if (url.includes('/remoteoperate/')) return '/remoteoperate/status';
  return null;
}

/** How an invalid token is invalid (the slice dimension `invalid-token`): not a JWT, a JWT of someone else's, or this mock's own with its signature spoilt. */
function invalidKind(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3) return 'garbage';
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof payload.client_id === 'string' && typeof payload.jti === 'string' ? 'tampered-signature' : 'unsigned-jwt';
  } catch {
    return 'garbage';
  }
}

/** The slice dimension `position` of a rotated token: the first of its chain, a later one (the third or after), or neither. */
function rotationPosition(generation: number): 'first' | 'later' | null {
  return generation === 1 ? 'first' : generation >= 3 ? 'later' : null;
}

/** The endpoint family of a route, for faults that break one family only. */
function family(request: FastifyRequest): 'users' | 'webhook' | 'status-check' | 'other' {
  const url = request.routeOptions.url ?? '';
  if (url.includes('/webhook/')) return 'webhook';
  if (url.includes('/remoteoperate/')) return 'status-check';
  if (url.includes('/users/')) return 'users';
  return 'other';
}

/**
 * State some faults need beside the token service: opaque rotated tokens
 * (rotated-token-opaque) and each session's expiry cap (rotation-capped). Kept by
 * token digest; empty unless one of those faults is on.
 */
class FaultState {
  readonly opaque = new Map<string, AccessTokenClaims>();
  readonly caps = new Map<string, number>();
  /** Under a slice fault only: how many rotations from its grant's token each rotated token is. */
  readonly generations = new Map<string, number>();
  /** Digest of a rotated token → the token presented for it (its predecessor in the chain). */
  readonly previous = new Map<string, string>();
  clear(): void {
    this.opaque.clear();
    this.caps.clear();
    this.generations.clear();
    this.previous.clear();
  }
}

/** Tokens the API refuses although they verify (faults that revoke or spoil rotated tokens). */
export class TokenDenylist {
  readonly #hashes = new Set<string>();
  add(token: string): void {
    this.#hashes.add(digest(token));
  }
  has(token: string): boolean {
    return this.#hashes.has(digest(token));
  }
  clear(): void {
    this.#hashes.clear();
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? undefined : value;
}

/** The caller of a route behind installAuthentication (never null there). */
export function callerOf(request: FastifyRequest): ApiCaller {
  if (!request.apiCaller) throw new ApiError(401, 'invalid_token', 'x-access-token is missing or invalid');
  return request.apiCaller;
}

export function installAuthentication(app: FastifyInstance, ctx: MockContext, denylist: TokenDenylist): void {
  app.decorateRequest('apiCaller', null);
  const faulty = new FaultState();
  ctx.onReset.push(() => faulty.clear());

  /** An opaque rotated token (rotated-token-opaque), checked like a JWT: known and not expired. */
  const opaqueClaims = (token: string): AccessTokenClaims | null => {
    const claims = faulty.opaque.get(digest(token));
    return claims && claims.expiresAtMs > ctx.clock.now() ? claims : null;
  };

  app.addHook('onRequest', async (request) => {
    const apiKey = singleHeader(request, 'x-api-key');
    if (!apiKey || !knownApiKey(ctx, apiKey)) {
      throw new ApiError(401, 'invalid_api_key', 'x-api-key is missing or does not match the credential');
    }
    const token = singleHeader(request, 'x-access-token');
    if (!token) {
      const status = ctx.faults.has('missing-token-400') || ctx.faults.anySlice() && ctx.faults.breaks('HEADERS-MISSING-TOKEN-401', { endpoint: specEndpoint(request) }) ? 400 : 401;
      throw new ApiError(status, 'invalid_token', 'x-access-token is missing');
    }
    const ignoreExpiry = ctx.faults.anySlice() && ctx.faults.breaks('HEADERS-EXPIRED-TOKEN-401', { endpoint: specEndpoint(request) });
    let claims = denylist.has(token) ? null : (opaqueClaims(token) ?? await ctx.tokens.verify(token, { ignoreExpiry }));
    // HEADERS-EXPIRED-TOKEN-401@client=<c> (@actor=<a>): a token of that credential (of that account) is accepted past its expiry (never a revoked or spoilt one).
    if (!claims && ctx.faults.anySlice() && !denylist.has(token)) {
      const late = await ctx.tokens.verify(token, { ignoreExpiry: true });
      if (late && ctx.faults.breaks('HEADERS-EXPIRED-TOKEN-401', { client: clientSlice(ctx, late.clientId), actor: actorOf(ctx.world, late.userId) })) claims = late;
    }
    // Sequence-only fault: the second credential's token from the refresh grant is refused where the locks are listed.
    if (claims && ctx.faults.has('refresh-second-client-locks-refused') && specEndpoint(request) === 'GET /users/locks/mine' && isNarrowed(ctx, token)) claims = null;
    if (claims?.userId === null && ctx.faults.anySlice() && ctx.faults.breaks('TOKEN-CC-TOKEN-WORKS', { endpoint: specEndpoint(request), client: clientSlice(ctx, claims.clientId) })) claims = null;
    if (!claims) {
      const offUsers = ctx.faults.has('invalid-token-403-on-webhooks') && (family(request) === 'webhook' || family(request) === 'status-check');
      const sliceBroken = ctx.faults.anySlice() && ctx.faults.breaks('HEADERS-INVALID-TOKEN-401', { endpoint: specEndpoint(request), 'invalid-token': invalidKind(token) });
      const status = ctx.faults.has('invalid-token-403') || offUsers || sliceBroken ? 403 : 401;
      throw new ApiError(status, 'invalid_token', 'x-access-token is invalid or expired; the user must authorize again');
    }
    request.apiCaller = { token, claims };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    await rotate(ctx, denylist, faulty, request, reply);
    return payload;
  });
}

/** Every 2xx answer carries a new token for the same user and client, valid a little longer. */
async function rotate(ctx: MockContext, denylist: TokenDenylist, faulty: FaultState, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const caller = request.apiCaller;
  if (!caller || reply.statusCode < 200 || reply.statusCode >= 300) return;
  if (ctx.faults.has('no-rotation-header') && request.method === 'GET' && request.routeOptions.url?.endsWith('/users/locks/mine')) return;
  const where = family(request);
  if (ctx.faults.has('no-rotation-on-webhooks') && where === 'webhook') return;
  if (ctx.faults.has('no-rotation-on-status-check') && where === 'status-check') return;
  // Slice faults (mock/slice-faults.ts): one endpoint, one link of the rotation chain, one account, one credential.
  const generation = ctx.faults.anySlice() ? (faulty.generations.get(digest(caller.token)) ?? 0) + 1 : 0;
  const at = generation > 0
    ? { endpoint: specEndpoint(request), position: rotationPosition(generation), client: clientSlice(ctx, caller.claims.clientId), actor: actorOf(ctx.world, caller.claims.userId) }
    : {};
  if (ctx.faults.breaks('HEADERS-ROTATION-ON-SUCCESS', at)) return;

  const presented = caller.claims.expiresAtMs;
  const minimum = ctx.faults.has('rotated-token-short') ? SHORT_ROTATION_MINIMUM_MS : ROTATION_MINIMUM_MS;
  let expiresAtMs = ctx.faults.has('rotation-not-extending') || ctx.faults.breaks('HEADERS-ROTATION-EXTENDS', at)
    ? presented
    : Math.max(presented + ROTATION_EXTENSION_MS, ctx.clock.now() + minimum);
  if (ctx.faults.breaks('HEADERS-TOKEN-LIFETIME-24H', at)) expiresAtMs = ctx.clock.now() + SHORT_ROTATION_MINIMUM_MS;
  if (ctx.faults.breaks('HEADERS-NEWEST-KEEPS-ACCESS', at)) expiresAtMs = presented + SHORT_ROTATION_MINIMUM_MS;
  const cap = ctx.faults.has('rotation-capped') ? (faulty.caps.get(digest(caller.token)) ?? presented + ROTATION_CAP_MS) : null;
  if (cap !== null) expiresAtMs = Math.min(expiresAtMs, cap);
  const grantId = caller.claims.grantId;
  const claims = { userId: caller.claims.userId, clientId: caller.claims.clientId, expiresAtMs, ...(grantId ? { grantId } : {}) };
  const issued = ctx.faults.has('rotated-token-opaque') || ctx.faults.breaks('HEADERS-ROTATED-TOKEN-JWT', at)
    ? opaqueToken(faulty, { ...claims, issuedAtMs: ctx.clock.now() })
    : await ctx.tokens.issue(claims);
  if (cap !== null) faulty.caps.set(digest(issued.token), cap);
  if (generation > 0) faulty.generations.set(digest(issued.token), generation);
  if (ctx.faults.has('rotated-token-invalid') || ctx.faults.breaks('HEADERS-ROTATED-TOKEN-WORKS', at)) denylist.add(issued.token);
  if (ctx.faults.has('rotated-token-invalid-on-webhooks') && where === 'webhook') denylist.add(issued.token);
  if (ctx.faults.has('rotation-revokes-previous') || ctx.faults.breaks('HEADERS-PREVIOUS-TOKEN-VALID', { ...at, 'rotations-after': 'one' })) denylist.add(caller.token);
  if (generation > 0) faulty.previous.set(digest(issued.token), caller.token);
  // Broken after many rotations: a session keeps only its last four tokens (the one four back from the new one is refused).
  if (generation > 0 && ctx.faults.breaks('HEADERS-PREVIOUS-TOKEN-VALID', { 'rotations-after': 'many' })) {
    let back: string | undefined = caller.token;
    for (let n = 0; n < 3 && back; n++) back = faulty.previous.get(digest(back));
    if (back) denylist.add(back);
  }
  reply.header('x-access-token', issued.token);
  // The answer carries a token: no cache may keep it (RFC 6749 §5.1 asks the same of the token endpoint).
  reply.header('cache-control', 'no-store');
}

/** A random token the API accepts until expiresAtMs (rotated-token-opaque). */
function opaqueToken(faulty: FaultState, claims: AccessTokenClaims): { token: string } {
  const token = randomBytes(32).toString('hex');
  faulty.opaque.set(digest(token), claims);
  return { token };
}
