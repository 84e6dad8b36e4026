/**
 * Refresh tokens (spec: States and transitions, Refresh token): random and
 * opaque, single use, expire one year after issue, revocable through the
 * control protocol. used / expired / revoked / unknown are refused.
 */
import { randomBytes } from 'node:crypto';
import type { MockContext } from '../context.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const REFRESH_LIFETIME_MS = 365 * DAY_MS;
/** Lifetime under the refresh-expires-early fault. */
const EARLY_LIFETIME_MS = 30 * DAY_MS;
/** What an issued refresh token looks like (43 base64url characters). */
const SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** refresh-unknown-accepted redeems anything that merely looks like a token. */
const LOOSE_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;

type RefreshState = 'issued' | 'used' | 'revoked';

interface RefreshRecord {
  clientId: string;
  /** null: the application's own account (client_credentials). */
  userId: string | null;
  issuedAtMs: number;
  state: RefreshState;
}

export type RefreshRedemption =
  | { ok: true; userId: string | null }
  | { ok: false; reason: string };

export function looksLikeRefreshToken(value: string): boolean {
  return SHAPE.test(value);
}

/** Every this many issues, records past their expiry are dropped (a long-running mock must not grow without bound). */
const SWEEP_EVERY = 1024;

export class RefreshTokens {
  readonly #tokens = new Map<string, RefreshRecord>();
  #issuedSinceSweep = 0;

  constructor(private readonly ctx: MockContext) {}

  issue(grant: { clientId: string; userId: string | null }): string {
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(token, { ...grant, issuedAtMs: this.ctx.clock.now(), state: 'issued' });
    if (++this.#issuedSinceSweep >= SWEEP_EVERY) this.#sweep();
    return token;
  }

  /** Redeem a refresh token: on success it is used up (single use). */
  redeem(token: string, clientId: string): RefreshRedemption {
    const record = this.#tokens.get(token);
    if (!record) {
      if (this.ctx.faults.has('refresh-unknown-accepted') && LOOSE_SHAPE.test(token)) {
        const firstUser = this.ctx.world.users[0];
        if (firstUser) return { ok: true, userId: firstUser.userId };
      }
      return { ok: false, reason: 'unknown refresh token' };
    }
    if (record.clientId !== clientId) return { ok: false, reason: 'refresh token was issued to another client' };
    if (record.state === 'used') return { ok: false, reason: 'refresh token already used' };
    if (record.state === 'revoked') return { ok: false, reason: 'refresh token revoked' };
    if (this.#expired(record)) return { ok: false, reason: 'refresh token expired' };
    if (!this.ctx.faults.has('refresh-reusable')) record.state = 'used';
    return { ok: true, userId: record.userId };
  }

  /** false when the token is unknown. */
  revoke(token: string): boolean {
    const record = this.#tokens.get(token);
    if (!record) return false;
    if (!this.ctx.faults.has('refresh-revocation-ignored')) record.state = 'revoked';
    return true;
  }

  clear(): void {
    this.#tokens.clear();
  }

  /** Drops expired records: redeeming one then reads as unknown, which is refused the same way (400 invalid_grant). */
  #sweep(): void {
    this.#issuedSinceSweep = 0;
    if (this.ctx.faults.has('refresh-never-expires')) return;
    for (const [token, record] of this.#tokens) {
      if (this.#expired(record)) this.#tokens.delete(token);
    }
  }

  /** How many records are kept (benchmarks watch it). */
  get size(): number {
    return this.#tokens.size;
  }

  #expired(record: RefreshRecord): boolean {
    if (this.ctx.faults.has('refresh-never-expires')) return false;
    const lifetime = this.ctx.faults.has('refresh-expires-early') ? EARLY_LIFETIME_MS : REFRESH_LIFETIME_MS;
    return this.ctx.clock.now() >= record.issuedAtMs + lifetime;
  }
}
