/**
 * Access tokens (spec: Token response, Access token): JWTs signed with a
 * per-instance HS256 key, issued and checked on the mock's one clock.
 * The API side uses the same service for the rotated x-access-token header.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { AccessTokenClaims, AccessTokenService, MockContext } from '../context.js';
import type { Grants } from './grants.js';
import { signHs256 } from './jwt-sign.js';

/** Default lifetime of a token issued by the token endpoint: four months. */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_SEC = 10_368_000;
/** Lifetime under the short-access-token fault: one hour. */
const SHORT_LIFETIME_SEC = 3600;
/** jose clock tolerance that makes every exp acceptable (expired-token-accepted). */
const IGNORE_EXPIRY_SEC = 1_000_000_000;

export interface MockAccessTokens extends AccessTokenService {
  /** Lifetime in seconds of tokens the token endpoint issues. */
  lifetimeSec(): number;
  /** A token of the right shape that this service will never accept (refresh-access-token-dead). */
  issueDead(claims: { userId: string | null; clientId: string }): Promise<{ token: string; expiresAtMs: number }>;
  /** Forget every token issued so far (control reset). */
  reset(): void;
}

/** The sub claim of client_credentials tokens: the application's own account. */
export function applicationAccountId(clientId: string): string {
  return `application:${clientId}`;
}

export function createAccessTokens(ctx: MockContext, grants?: Grants): MockAccessTokens {
  // A new key on reset drops every JWT issued before it.
  let key = randomBytes(32);
  // Under access-token-opaque the tokens are random strings, remembered here.
  const opaque = new Map<string, AccessTokenClaims>();

  const lifetimeSec = (): number =>
    ctx.faults.has('short-access-token') ? SHORT_LIFETIME_SEC : ctx.options.accessTokenLifetimeSec;

  /** The token's claims, in the order jose's SignJWT wrote them (payload, sub, iat, exp, jti). */
  function sign(claims: { userId: string | null; clientId: string; grantId?: string }, iatSec: number, expSec: number, withKey: Uint8Array): string {
    return signHs256({
      client_id: claims.clientId,
      account: claims.userId === null ? 'application' : 'user',
      ...(claims.grantId ? { gid: claims.grantId } : {}),
      sub: claims.userId ?? applicationAccountId(claims.clientId),
      iat: iatSec,
      exp: expSec,
      jti: randomUUID(),
    }, withKey);
  }

  return {
    lifetimeSec,

    async issue(claims) {
      const nowMs = ctx.clock.now();
      const iatSec = Math.floor(nowMs / 1000);
      // JWT exp has whole seconds; round up so a requested later expiry stays later.
      const expSec = claims.expiresAtMs !== undefined ? Math.ceil(claims.expiresAtMs / 1000) : iatSec + lifetimeSec();
      const expiresAtMs = expSec * 1000;
      if (ctx.faults.has('access-token-opaque') || claims.opaque) {
        const token = randomBytes(32).toString('hex');
        opaque.set(token, { userId: claims.userId, clientId: claims.clientId, issuedAtMs: iatSec * 1000, expiresAtMs, ...(claims.grantId ? { grantId: claims.grantId } : {}) });
        return { token, expiresAtMs };
      }
      return { token: sign(claims, iatSec, expSec, key), expiresAtMs };
    },

    async issueDead(claims) {
      const iatSec = ctx.clock.nowSeconds();
      const expSec = iatSec + lifetimeSec();
      // Signed with a throw-away key: well formed, never verifiable.
      return { token: sign(claims, iatSec, expSec, randomBytes(32)), expiresAtMs: expSec * 1000 };
    },

    async verify(token, opts) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return null;
      const ignoreExpiry = ctx.faults.has('expired-token-accepted') || opts?.ignoreExpiry === true;
      const known = opaque.get(token);
      if (known) return (ignoreExpiry || known.expiresAtMs > ctx.clock.now()) && (!grants?.isRevoked(known.grantId) || ctx.faults.has('code-replay-keeps-tokens')) ? { ...known } : null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          currentDate: new Date(ctx.clock.now()),
          requiredClaims: ['sub', 'exp', 'iat'],
          ...(ignoreExpiry ? { clockTolerance: IGNORE_EXPIRY_SEC } : {}),
        });
        if (typeof payload.client_id !== 'string' || payload.exp === undefined || payload.iat === undefined) return null;
        const grantId = typeof payload.gid === 'string' ? payload.gid : undefined;
        // A revoked grant ends every access token issued under it (rotated ones too).
        if (grants?.isRevoked(grantId) && !ctx.faults.has('code-replay-keeps-tokens')) return null;
        return {
          userId: payload.account === 'application' ? null : (payload.sub ?? null),
          clientId: payload.client_id,
          issuedAtMs: payload.iat * 1000,
          expiresAtMs: payload.exp * 1000,
          ...(grantId ? { grantId } : {}),
        };
      } catch {
        return null; // malformed, badly signed or expired
      }
    },

    reset() {
      key = randomBytes(32);
      opaque.clear();
    },
  };
}
