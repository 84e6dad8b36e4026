/**
 * The state the spec's rules speak of, as the model keeps it: the credentials and
 * their client_credentials permission, the codes, refresh tokens (issued, used,
 * expired, revoked; one year of life) and access tokens (their validity, what
 * superseded them) a sequence holds, and the clock. It holds no secret: the real
 * strings stay with whoever drives the target, keyed by the ids given here.
 *
 * Only what the spec fixes is kept as a certainty; where it leaves room (the year's
 * length, how long a rotated token lives, a code's lifetime) the model keeps the
 * bounds it knows and predict.ts allows every answer between them.
 */

import type { Hook } from './webhooks.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** "used within one year of issue": 364 days is surely within, whatever a year's length. */
export const SURELY_WITHIN_YEAR_MS = 364 * DAY;
/** "a year passes": 366 days and a minute is surely past it. */
export const SURELY_PAST_YEAR_MS = 366 * DAY + MINUTE;
/** "access tokens are not issued valid for less than 24 hours". */
export const MIN_ACCESS_LIFETIME_MS = 24 * HOUR;
/**
 * Room around every time bound: the target's clock runs on in real time while a
 * sequence runs, and an expiry may have a few minutes of clock-skew leeway
 * (HEADERS-EXPIRED-TOKEN-401's reading).
 */
export const MARGIN_MS = 10 * MINUTE;

export type Account = 'user' | 'application';
export type RefreshStatus = 'issued' | 'used' | 'expired' | 'revoked';
export type AccessSource = 'authorization_code' | 'client_credentials' | 'refresh_token' | 'rotation';

export interface RefreshToken {
  id: number;
  /** The credential it was issued to (0: the profile's, 1: the second of the fixtures). */
  cred: number;
  account: Account;
  /** The authorization it continues (a code exchange or a client_credentials grant). */
  session: number;
  issuedAt: number;
  status: RefreshStatus;
  /** 1: from the grant; n: after n-1 refreshes. */
  link: number;
  /** Another credential tried to redeem it: whether that spent it is not described. */
  contested: boolean;
  /** The fixture user who approved the session (null: the application's own account). */
  user: number | null;
}

export interface AccessToken {
  id: number;
  cred: number;
  account: Account;
  session: number;
  source: AccessSource;
  receivedAt: number;
  /** Surely accepted before this time (expires_in, 24 hours, or the token it was rotated from). */
  validUntil: number;
  /** Surely expired after this time (a grant's expires_in), or null when the spec gives no bound. */
  expiresBy: number | null;
  /** Its grant answered expires_in under 24 hours. */
  shortLived: boolean;
  /** A newer access token of the same session exists. */
  superseded: boolean;
  /** Accepted by the API at least once. */
  used: boolean;
  /** The fixture user who approved the session (null: the application's own account). */
  user: number | null;
}

export interface Code {
  id: number;
  cred: number;
  issuedAt: number;
  /** 'contested': another credential tried it (whether that spent it is not described). */
  status: 'fresh' | 'contested' | 'exchanged';
  /** The fixture user who approved it. */
  user: number;
}

export interface ModelState {
  now: number;
  /** How many credentials the sequence can act as (1 or 2). */
  credentials: number;
  ccPermitted: boolean[];
  codes: Code[];
  refresh: RefreshToken[];
  access: AccessToken[];
  nextId: number;
  nextSession: number;
  /**
   * Sessions one of whose refresh tokens was revoked: what revocation does to their
   * access tokens is not described ("The operation that revokes a token is not
   * described"), so the model no longer vouches for them.
   */
  revokedSessions: number[];
  /** The webhook registrations the sequence made (harness/model/webhooks.ts). */
  hooks: Hook[];
  /** Steps of this sequence that made an event (each costs a delivery wait). */
  hookSteps: number;
}

export function initialState(now: number, credentials: number): ModelState {
  return { now, credentials, ccPermitted: Array.from({ length: credentials }, () => false), codes: [], refresh: [], access: [], nextId: 1, nextSession: 1, revokedSessions: [], hooks: [], hookSteps: 0 };
}

/** A reset (control protocol): every token and code dropped, permissions back to their default (off). The clock is left alone. */
export function reset(m: ModelState): void {
  m.codes = [];
  m.refresh = [];
  m.access = [];
  m.revokedSessions = [];
  // A reset wipes the registrations too (control protocol): what it does to them is not the spec's, so their inboxes are no longer judged.
  m.hooks = [];
  m.ccPermitted = m.ccPermitted.map(() => false);
}

export function advance(m: ModelState, ms: number): void {
  m.now += ms;
}

export function issueCode(m: ModelState, cred: number, user = 0): Code {
  const code: Code = { id: m.nextId++, cred, issuedAt: m.now, status: 'fresh', user };
  m.codes.push(code);
  return code;
}

/** A token pair received from a grant: the access token and refresh token it starts or continues. */
export function receivePair(
  m: ModelState,
  from: { cred: number; account: Account; source: Exclude<AccessSource, 'rotation'>; expiresInSec: number; session?: number; link?: number; user?: number | null },
): { access: AccessToken; refresh: RefreshToken } {
  const session = from.session ?? m.nextSession++;
  const access = receiveAccess(m, {
    cred: from.cred, account: from.account, session, source: from.source,
    validUntil: m.now + Math.max(from.expiresInSec * 1000, MIN_ACCESS_LIFETIME_MS),
    expiresBy: from.expiresInSec * 1000 >= MIN_ACCESS_LIFETIME_MS ? m.now + from.expiresInSec * 1000 : null,
    shortLived: from.expiresInSec * 1000 < MIN_ACCESS_LIFETIME_MS,
    user: from.user ?? null,
  });
  const refresh: RefreshToken = { id: m.nextId++, cred: from.cred, account: from.account, session, issuedAt: m.now, status: 'issued', link: from.link ?? 1, contested: false, user: from.user ?? null };
  m.refresh.push(refresh);
  return { access, refresh };
}

/**
 * The x-access-token of a successful API answer: valid at least 24 hours, and at
 * least as long as the token presented ("each new token extends validity slightly").
 */
export function receiveRotated(m: ModelState, presented: AccessToken): AccessToken {
  return receiveAccess(m, {
    cred: presented.cred, account: presented.account, session: presented.session, source: 'rotation',
    validUntil: Math.max(presented.validUntil, m.now + MIN_ACCESS_LIFETIME_MS),
    expiresBy: null,
    shortLived: false,
    user: presented.user,
  });
}

function receiveAccess(m: ModelState, t: Omit<AccessToken, 'id' | 'receivedAt' | 'superseded' | 'used'>): AccessToken {
  for (const older of m.access) if (older.session === t.session) older.superseded = true;
  const access: AccessToken = { ...t, id: m.nextId++, receivedAt: m.now, superseded: false, used: false };
  m.access.push(access);
  return access;
}

/** The control protocol revoked this refresh token (it stands in for the revocation the spec does not describe). */
export function revoke(m: ModelState, token: RefreshToken): void {
  token.status = 'revoked';
  if (!m.revokedSessions.includes(token.session)) m.revokedSessions.push(token.session);
}

export function setPermission(m: ModelState, cred: number, enabled: boolean): void {
  m.ccPermitted[cred] = enabled;
}
