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
/** Bound on requests kept at once; past it new sign-ins are refused, none is evicted. */
export const MAX_PENDING = 1000;
/** Sign-ins in progress from one client address; a new one replaces that address's oldest. */
export const MAX_PENDING_PER_ADDRESS = 20;

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
  /** The client address that started it (a flood from one address evicts only its own). */
  address: string;
}

export class PendingAuthorizations {
  readonly #byId = new Map<string, PendingAuthorization>();
  readonly #byAddress = new Map<string, Set<string>>();

  constructor(private readonly ctx: MockContext) {}

  /** A new sign-in, or null when the mock holds as many as it can (the caller answers 429). */
  start(request: AuthorizationRequest, address = ''): PendingAuthorization | null {
    this.#sweep();
    let own = this.#byAddress.get(address);
    // Fault new-sign-in-ends-others (and slice fault OAUTH-SIGN-IN-SCREENS@sign-ins=interleaved): a new sign-in ends the ones in progress.
    const endsOthers = this.ctx.faults.has('new-sign-in-ends-others') || this.ctx.faults.breaks('OAUTH-SIGN-IN-SCREENS', { 'sign-ins': 'interleaved' });
    if (own && own.size > 0 && endsOthers) {
      for (const id of [...own]) this.#delete(id);
      own = this.#byAddress.get(address);
    }
    if (own && own.size >= MAX_PENDING_PER_ADDRESS) {
      // Set order is insertion order: this address's oldest sign-in makes room.
      this.#delete(own.values().next().value!);
    }
    if (this.#byId.size >= MAX_PENDING) return null;
    const pending: PendingAuthorization = {
      id: randomBytes(18).toString('base64url'),
      request,
      step: 'sign-in',
      userId: null,
      smsCode: null,
      failedAttempts: 0,
      expiresAtMs: this.ctx.clock.now() + PENDING_LIFETIME_MS,
      address,
    };
    this.#byId.set(pending.id, pending);
    if (own) own.add(pending.id);
    else this.#byAddress.set(address, new Set([pending.id]));
    return pending;
  }

  #delete(id: string): void {
    const pending = this.#byId.get(id);
    if (!pending) return;
    this.#byId.delete(id);
    const own = this.#byAddress.get(pending.address);
    own?.delete(id);
    if (own?.size === 0) this.#byAddress.delete(pending.address);
  }

  get(id: unknown): PendingAuthorization | null {
    if (typeof id !== 'string') return null;
    const pending = this.#byId.get(id);
    if (!pending) return null;
    if (pending.expiresAtMs <= this.ctx.clock.now()) {
      this.#delete(id);
      return null;
    }
    return pending;
  }

  /** Counts a failed attempt; true when the request is used up and dropped. */
  fail(pending: PendingAuthorization): boolean {
    pending.failedAttempts += 1;
    if (pending.failedAttempts < MAX_ATTEMPTS) return false;
    this.#delete(pending.id);
    return true;
  }

  /** Signed in: a fresh six-digit SMS code (100000-999999: six digits as drawn, no padding) goes to the user's phone. */
  signedIn(pending: PendingAuthorization, userId: string): string {
    pending.userId = userId;
    pending.step = 'sms';
    pending.failedAttempts = 0;
    pending.smsCode = String(randomInt(100_000, 1_000_000));
    return pending.smsCode;
  }

  verified(pending: PendingAuthorization): void {
    pending.step = 'consent';
    pending.smsCode = null;
  }

  finish(pending: PendingAuthorization): void {
    this.#delete(pending.id);
  }

  clear(): void {
    this.#byId.clear();
    this.#byAddress.clear();
  }

  get size(): number {
    return this.#byId.size;
  }

  #sweep(): void {
    const now = this.ctx.clock.now();
    for (const [id, pending] of this.#byId) {
      if (pending.expiresAtMs <= now) this.#delete(id);
    }
  }
}
