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
  clear(): void {
    this.opaque.clear();
    this.caps.clear();
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
      const status = ctx.faults.has('missing-token-400') ? 400 : 401;
      throw new ApiError(status, 'invalid_token', 'x-access-token is missing');
    }
    const claims = denylist.has(token) ? null : (opaqueClaims(token) ?? await ctx.tokens.verify(token));
    if (!claims) {
      const offUsers = ctx.faults.has('invalid-token-403-on-webhooks') && (family(request) === 'webhook' || family(request) === 'status-check');
      const status = ctx.faults.has('invalid-token-403') || offUsers ? 403 : 401;
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

  const presented = caller.claims.expiresAtMs;
  const minimum = ctx.faults.has('rotated-token-short') ? SHORT_ROTATION_MINIMUM_MS : ROTATION_MINIMUM_MS;
  let expiresAtMs = ctx.faults.has('rotation-not-extending')
    ? presented
    : Math.max(presented + ROTATION_EXTENSION_MS, ctx.clock.now() + minimum);
  const cap = ctx.faults.has('rotation-capped') ? (faulty.caps.get(digest(caller.token)) ?? presented + ROTATION_CAP_MS) : null;
  if (cap !== null) expiresAtMs = Math.min(expiresAtMs, cap);
  const grantId = caller.claims.grantId;
  const claims = { userId: caller.claims.userId, clientId: caller.claims.clientId, expiresAtMs, ...(grantId ? { grantId } : {}) };
  const issued = ctx.faults.has('rotated-token-opaque')
    ? opaqueToken(faulty, { ...claims, issuedAtMs: ctx.clock.now() })
    : await ctx.tokens.issue(claims);
  if (cap !== null) faulty.caps.set(digest(issued.token), cap);
  if (ctx.faults.has('rotated-token-invalid')) denylist.add(issued.token);
  if (ctx.faults.has('rotated-token-invalid-on-webhooks') && where === 'webhook') denylist.add(issued.token);
  if (ctx.faults.has('rotation-revokes-previous')) denylist.add(caller.token);
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
