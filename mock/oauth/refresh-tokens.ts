/**
 * Refresh tokens (spec: States and transitions, Refresh token): random and
 * opaque, single use, expire one year after issue, revocable through the
 * control protocol. used / expired / revoked / unknown are refused.
 *
 * Only a SHA-256 hash of each token is kept, never the token. Live tokens are
 * kept until they expire; spent ones (used or revoked) only as long as a bound
 * allows, since a forgotten spent token reads as unknown, which is refused the
 * same way (400 invalid_grant). Expired records are swept. So memory stays flat
 * under any number of refreshes.
 */
import { createHash } from 'node:crypto';
import type { MockContext } from '../context.js';
import type { Grants } from './grants.js';
import { randomBase64url } from './random-tokens.js';
import { actorOf } from './approver.js';
import { withGradingEscapes } from '../grading/escapes.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const REFRESH_LIFETIME_MS = 365 * DAY_MS;
/** Lifetime under the refresh-expires-early fault. */
const EARLY_LIFETIME_MS = 30 * DAY_MS;
/** Under refresh-forgotten-after-month: how long a used token is remembered. */
const FORGOTTEN_AFTER_MS = 30 * DAY_MS;
/** What an issued refresh token looks like (43 base64url characters). */
const SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** refresh-unknown-accepted redeems anything that merely looks like a token. */
const LOOSE_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;
/** Spent tokens remembered (so a reuse is reported as reuse and a replay is recognised); the oldest forgotten first. */
export const MAX_SPENT = 5_000;
/** Live tokens kept at once; past it the oldest stops working (a mock under abuse, not a real client). */
export const MAX_LIVE = 100_000;

interface LiveRecord {
  clientId: string;
  /** null: the application's own account (client_credentials). */
  userId: string | null;
  issuedAtMs: number;
  grantId?: string;
  /** Its link in the refresh chain (1: from the code or client_credentials grant) and when the chain began. */
  link: number;
  chainStartMs: number;
}

interface SpentRecord {
  state: 'used' | 'revoked';
  /** When it was spent, and the live record it was (kept only under refresh-forgotten-after-month). */
  spentAtMs?: number;
  was?: LiveRecord;
  clientId: string;
  issuedAtMs: number;
  grantId?: string;
}

export type RefreshRedemption =
  | {
      ok: true; userId: string | null; grantId?: string; link: number; chainStartMs: number;
      /** When the redeemed token was issued (its age gives the slice dimension `refresh-age`). */
      issuedAtMs: number;
      /** Slice fault REFRESH-SINGLE-USE@presentation=two-at-once only: uses the token up; the caller calls it just before it answers. */
      spendLater?: () => void;
    }
  | { ok: false; reason: string; replayedGrant?: string };

/** The link from which on a token is far down its chain (the slice dimension `chain-length`): after 30 redemptions. */
export const LONG_CHAIN_LINK = 31;

/** The slice dimension `chain-length` of a chain link: long from the 31st on. */
export function chainLength(link: number): 'long' | null {
  return link >= LONG_CHAIN_LINK ? 'long' : null;
}

/** The slice dimension `client`: the profile's own credential, or a further one of the fixtures. */
export function clientSlice(ctx: MockContext, clientId: string): 'profile' | 'second' {
  return clientId === ctx.credentials?.clientId ? 'profile' : 'second'; // a store made without credentials (unit tests) has one client only
}

/**
 * The slice dimension `refresh-age` of a presentation, by the token's age: a window around each
 * age the tests present a token at (31, 334 and 364 days; 366 days and a minute; three years),
 * so a slice fault breaks that age and no step of building a chain (links 200 days apart).
 */
export function refreshAge(ageMs: number): string | null {
  const days = ageMs / DAY_MS;
  if (days >= 28 && days < 35) return 'one-month';
  if (days >= 330 && days < 340) return 'eleven-months';
  if (days >= 360 && days < 365) return 'just-under-year';
  if (days >= 365 && days < 400) return 'just-past-year';
  if (days >= 400) return 'years-past';
  return null;
}

/** The slice dimension `position` of a chain link: the first, a later one (the third or after), or neither (the second). */
export function chainPosition(link: number): 'first' | 'later' | null {
  return link === 1 ? 'first' : link >= 3 ? 'later' : null;
}

export function looksLikeRefreshToken(value: string): boolean {
  return SHAPE.test(value);
}

/** Every this many issues, records past their expiry are dropped (a long-running mock must not grow without bound). */
const SWEEP_EVERY = 1024;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export class RefreshTokens {
  readonly #live = new Map<string, LiveRecord>();
  readonly #spent = new Map<string, SpentRecord>();
  #issuedSinceSweep = 0;

  constructor(private readonly ctx: MockContext, private readonly grants?: Grants) {}

  /** `chain`: the redeemed token's link and chain start, when this one replaces it. */
  issue(grant: { clientId: string; userId: string | null; grantId?: string }, chain?: { link: number; chainStartMs: number }): string {
    const token = withGradingEscapes(this.ctx, randomBase64url(32));
    const now = this.ctx.clock.now();
    const link = chain ? chain.link + 1 : 1;
    this.#live.set(hashOf(token), { clientId: grant.clientId, userId: grant.userId, issuedAtMs: now, ...(grant.grantId ? { grantId: grant.grantId } : {}), link, chainStartMs: chain?.chainStartMs ?? now });
    if (this.#live.size > MAX_LIVE) this.#live.delete(this.#live.keys().next().value!);
    if (++this.#issuedSinceSweep >= SWEEP_EVERY) this.#sweep();
    return token;
  }

  /** Redeem a refresh token: on success it is used up (single use). */
  redeem(token: string, clientId: string): RefreshRedemption {
    const hash = hashOf(token);
    const live = this.#live.get(hash);
    if (live) {
      if (live.clientId !== clientId && !this.ctx.faults.has('refresh-redeemable-by-other-client')) return { ok: false, reason: 'refresh token was issued to another client' };
      if (this.grants?.isRevoked(live.grantId)) return { ok: false, reason: 'refresh token revoked' };
      if (this.#expired(live.issuedAtMs, live)) return { ok: false, reason: 'refresh token expired' };
      const reusable = this.ctx.faults.has('refresh-reusable') || this.ctx.faults.breaks('REFRESH-SINGLE-USE', {
        position: chainPosition(live.link), presentation: 'one-after-another', client: clientSlice(this.ctx, live.clientId), 'chain-length': chainLength(live.link),
      });
      const redeemed = { ok: true as const, userId: live.userId, ...(live.grantId ? { grantId: live.grantId } : {}), link: live.link, chainStartMs: live.chainStartMs, issuedAtMs: live.issuedAtMs };
      // Slice fault: a check-then-spend race; the token stays redeemable until this redemption answers.
      if (!reusable && this.ctx.faults.breaks('REFRESH-SINGLE-USE', { presentation: 'two-at-once' })) return { ...redeemed, spendLater: () => this.#spend(hash, live, 'used') };
      if (!reusable) this.#spend(hash, live, 'used');
      return redeemed;
    }
    const spent = this.#spent.get(hash);
    if (spent) {
      if (spent.clientId !== clientId) return { ok: false, reason: 'refresh token was issued to another client' };
      if (spent.state === 'revoked') return { ok: false, reason: 'refresh token revoked' };
      // Fault refresh-forgotten-after-month: a month after its use the token is forgotten, and taken again.
      if (spent.was && spent.spentAtMs !== undefined && this.ctx.clock.now() - spent.spentAtMs >= FORGOTTEN_AFTER_MS) {
        spent.spentAtMs = this.ctx.clock.now();
        return { ok: true, userId: spent.was.userId, ...(spent.was.grantId ? { grantId: spent.was.grantId } : {}), link: spent.was.link, chainStartMs: spent.was.chainStartMs, issuedAtMs: spent.was.issuedAtMs };
      }
      return { ok: false, reason: 'refresh token already used', ...(spent.grantId ? { replayedGrant: spent.grantId } : {}) };
    }
    if (this.ctx.faults.has('refresh-unknown-accepted') && LOOSE_SHAPE.test(token)) {
      const firstUser = this.ctx.world.users[0];
      if (firstUser) return { ok: true, userId: firstUser.userId, link: 1, chainStartMs: this.ctx.clock.now(), issuedAtMs: this.ctx.clock.now() };
    }
    return { ok: false, reason: 'unknown refresh token' };
  }

  /** Revokes the token and, with it, its grant (its access tokens too); false when the token is unknown. */
  revoke(token: string): boolean {
    const hash = hashOf(token);
    const live = this.#live.get(hash);
    const spent = this.#spent.get(hash);
    if (!live && !spent) return false;
    if (this.ctx.faults.has('refresh-revocation-ignored')) return true;
    if (live && this.ctx.faults.breaks('REFRESH-REVOKED', { position: chainPosition(live.link), actor: actorOf(this.ctx.world, live.userId), client: clientSlice(this.ctx, live.clientId) })) return true;
    if (live) this.#spend(hash, live, 'revoked');
    else spent!.state = 'revoked';
    const grantId = live?.grantId ?? spent?.grantId;
    if (grantId) this.grants?.revoke(grantId, 'refresh-revoked');
    return true;
  }

  #spend(hash: string, record: LiveRecord, state: SpentRecord['state']): void {
    this.#live.delete(hash);
    const forgetful = state === 'used' && this.ctx.faults.has('refresh-forgotten-after-month') ? { spentAtMs: this.ctx.clock.now(), was: record } : {};
    this.#spent.set(hash, { state, clientId: record.clientId, issuedAtMs: record.issuedAtMs, ...(record.grantId ? { grantId: record.grantId } : {}), ...forgetful });
    if (this.#spent.size > MAX_SPENT) this.#spent.delete(this.#spent.keys().next().value!);
  }

  clear(): void {
    this.#live.clear();
    this.#spent.clear();
  }

  /** Drops expired records: redeeming one then reads as unknown, which is refused the same way (400 invalid_grant). */
  #sweep(): void {
    this.#issuedSinceSweep = 0;
    if (this.ctx.faults.has('refresh-never-expires')) return;
    for (const [hash, record] of this.#live) if (this.#expired(record.issuedAtMs, record)) this.#live.delete(hash);
    for (const [hash, record] of this.#spent) if (this.#expired(record.issuedAtMs)) this.#spent.delete(hash);
  }

  /** How many records are kept, live and spent (benchmarks watch it). */
  get size(): number {
    return this.#live.size + this.#spent.size;
  }

  /** `live`: a live token's chain, for the slice faults that break one link of it. */
  #expired(issuedAtMs: number, live?: LiveRecord): boolean {
    if (this.ctx.faults.has('refresh-never-expires')) return false;
    const position = live ? chainPosition(live.link) : null;
    const client = live ? clientSlice(this.ctx, live.clientId) : null;
    const age = refreshAge(this.ctx.clock.now() - issuedAtMs);
    if (this.ctx.faults.breaks('REFRESH-EXPIRED-AFTER-YEAR', { position, 'refresh-age': age, client })) return false;
    // Broken on one link (or one credential's tokens): the lifetime is short and counted from the chain's start, not its own issue.
    if (live && this.ctx.faults.breaks('REFRESH-VALID-WITHIN-YEAR', { position, client })) return this.ctx.clock.now() >= live.chainStartMs + EARLY_LIFETIME_MS;
    // Broken at one age: a token presented that long after its issue is taken for expired.
    if (this.ctx.faults.breaks('REFRESH-VALID-WITHIN-YEAR', { 'refresh-age': age })) return true;
    const lifetime = this.ctx.faults.has('refresh-expires-early') ? EARLY_LIFETIME_MS : REFRESH_LIFETIME_MS;
    return this.ctx.clock.now() >= issuedAtMs + lifetime;
  }
}
