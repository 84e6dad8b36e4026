/**
 * Authorization codes (spec: Authorization code flow; RFC 6749 §4.1.2): random,
 * single use, expire ten minutes after issue, bound to client, user and redirect URI.
 */
import { randomBytes } from 'node:crypto';
import { withGradingEscapes } from '../grading/escapes.js';
import type { MockContext } from '../context.js';
import { clientSlice } from './refresh-tokens.js';

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** Lifetime under the code-lives-an-hour fault. */
const LONG_CODE_LIFETIME_MS = 60 * 60 * 1000;

interface CodeRecord {
  clientId: string;
  userId: string;
  redirectUri: string;
  expiresAtMs: number;
  used: boolean;
  /** The grant the first redemption started (a second redemption revokes it). */
  grantId?: string;
}

export type CodeRedemption =
  | {
      ok: true; userId: string;
      /** Slice fault OAUTH-CODE-SINGLE-USE@presentation=two-at-once only: uses the code up; the caller calls it just before it answers. */
      spendLater?: () => void;
    }
  | { ok: false; reason: string; replayedGrant?: string };

export class AuthorizationCodes {
  readonly #codes = new Map<string, CodeRecord>();

  constructor(private readonly ctx: MockContext) {}

  issue(grant: { clientId: string; userId: string; redirectUri: string }): string {
    this.#sweep();
    if (this.ctx.faults.has('new-code-voids-others')) this.#codes.clear();
    const code = withGradingEscapes(this.ctx, randomBytes(24).toString('base64url'));
    const lifetime = this.ctx.faults.has('code-lives-an-hour') ? LONG_CODE_LIFETIME_MS : CODE_LIFETIME_MS;
    this.#codes.set(code, { ...grant, expiresAtMs: this.ctx.clock.now() + lifetime, used: false });
    return code;
  }

  /** grantId: the grant this redemption starts, remembered so a second redemption can name it (RFC 6749 §4.1.2). */
  redeem(code: string, clientId: string, redirectUri: string | undefined, grantId?: string): CodeRedemption {
    const record = this.#codes.get(code);
    if (!record) {
      const firstUser = this.ctx.world.users[0];
      if (this.ctx.faults.has('bogus-code-accepted') && firstUser) return { ok: true, userId: firstUser.userId };
      return { ok: false, reason: 'unknown authorization code' };
    }
    if (record.clientId !== clientId && !this.ctx.faults.has('code-redeemable-by-other-client')) return { ok: false, reason: 'authorization code was issued to another client' };
    if (record.used) return { ok: false, reason: 'authorization code already used', ...(record.grantId ? { replayedGrant: record.grantId } : {}) };
    if (record.expiresAtMs <= this.ctx.clock.now() && !this.#neverExpires(record.clientId)) return { ok: false, reason: 'authorization code expired' };
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) {
      return { ok: false, reason: 'redirect_uri does not match the authorization request' };
    }
    const reusable = this.ctx.faults.has('code-reusable') || this.ctx.faults.breaks('OAUTH-CODE-SINGLE-USE', { presentation: 'one-after-another' })
      || this.ctx.faults.breaks('OAUTH-CODE-SINGLE-USE', { client: clientSlice(this.ctx, record.clientId) });
    const spend = () => {
      record.used = true;
      if (grantId) record.grantId = grantId;
    };
    // Slice fault: a check-then-spend race; the code stays redeemable until this redemption answers.
    if (!reusable && this.ctx.faults.breaks('OAUTH-CODE-SINGLE-USE', { presentation: 'two-at-once' })) return { ok: true, userId: record.userId, spendLater: spend };
    if (!reusable) spend();
    return { ok: true, userId: record.userId };
  }

  clear(): void {
    this.#codes.clear();
  }

  /** Drop codes that can no longer be redeemed, so the map stays small. */
  #sweep(): void {
    const now = this.ctx.clock.now();
    for (const [code, record] of this.#codes) {
      if (record.expiresAtMs + CODE_LIFETIME_MS <= now && !this.#neverExpires(record.clientId)) this.#codes.delete(code);
    }
  }

  /** The faults that keep a code (every code, or that credential's) from expiring. */
  #neverExpires(clientId: string): boolean {
    return this.ctx.faults.has('code-never-expires') || this.ctx.faults.breaks('OAUTH-CODE-EXPIRES', { client: clientSlice(this.ctx, clientId) });
  }
}
