/**
 * Authorization requests in progress at the real pages: sign-in, then SMS
 * code, then consent. The request (state included) stays server-side; the
 * pages carry only its random ID.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { MockContext } from '../context.js';
import type { AuthorizationRequest } from './authorization-request.js';

/** A person gets half an hour to finish signing in. */
const PENDING_LIFETIME_MS = 30 * 60 * 1000;
/** Wrong passwords or SMS codes before the request is dropped. */
export const MAX_ATTEMPTS = 5;
/** Bound on requests kept at once; the oldest goes first. */
const MAX_PENDING = 1000;

export type PendingStep = 'sign-in' | 'sms' | 'consent';

export interface PendingAuthorization {
  id: string;
  request: AuthorizationRequest;
  step: PendingStep;
  userId: string | null;
  /** The SMS code sent to the user's phone (step 'sms'). */
  smsCode: string | null;
  failedAttempts: number;
  expiresAtMs: number;
}

export class PendingAuthorizations {
  readonly #byId = new Map<string, PendingAuthorization>();

  constructor(private readonly ctx: MockContext) {}

  start(request: AuthorizationRequest): PendingAuthorization {
    this.#sweep();
    const pending: PendingAuthorization = {
      id: randomBytes(18).toString('base64url'),
      request,
      step: 'sign-in',
      userId: null,
      smsCode: null,
      failedAttempts: 0,
      expiresAtMs: this.ctx.clock.now() + PENDING_LIFETIME_MS,
    };
    this.#byId.set(pending.id, pending);
    return pending;
  }

  get(id: unknown): PendingAuthorization | null {
    if (typeof id !== 'string') return null;
    const pending = this.#byId.get(id);
    if (!pending) return null;
    if (pending.expiresAtMs <= this.ctx.clock.now()) {
      this.#byId.delete(id);
      return null;
    }
    return pending;
  }

  /** Counts a failed attempt; true when the request is used up and dropped. */
  fail(pending: PendingAuthorization): boolean {
    pending.failedAttempts += 1;
    if (pending.failedAttempts < MAX_ATTEMPTS) return false;
    this.#byId.delete(pending.id);
    return true;
  }

  /** Signed in: a fresh six-digit SMS code goes to the user's phone. */
  signedIn(pending: PendingAuthorization, userId: string): string {
    pending.userId = userId;
    pending.step = 'sms';
    pending.failedAttempts = 0;
    pending.smsCode = String(randomInt(0, 1_000_000)).padStart(6, '0');
    return pending.smsCode;
  }

  verified(pending: PendingAuthorization): void {
    pending.step = 'consent';
    pending.smsCode = null;
  }

  finish(pending: PendingAuthorization): void {
    this.#byId.delete(pending.id);
  }

  clear(): void {
    this.#byId.clear();
  }

  #sweep(): void {
    const now = this.ctx.clock.now();
    for (const [id, pending] of this.#byId) {
      if (pending.expiresAtMs <= now) this.#byId.delete(id);
    }
    // Map iteration order is insertion order: drop the oldest beyond the bound.
    for (const id of this.#byId.keys()) {
      if (this.#byId.size < MAX_PENDING) break;
      this.#byId.delete(id);
    }
  }
}
