/**
 * Sign-in attempt limits (finding 4): wrong passwords and wrong SMS codes are
 * counted per account and per client address over a sliding window; past the
 * limit the account (or the address) is locked out for a while and every form
 * answers 429 with a page saying so. Times follow the mock's clock, so a test
 * moves the clock instead of waiting. The maps are bounded and swept.
 *
 * These come on top of the per-sign-in limit (pending.ts: five wrong answers end
 * that sign-in), which alone let one account be guessed at without end by
 * starting new sign-ins.
 */
import type { MockContext } from '../context.js';

export const WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_MS = 15 * 60 * 1000;
/** Wrong answers (passwords and SMS codes together) for one account within the window. */
export const ACCOUNT_FAILURE_LIMIT = 10;
/** Wrong answers from one client address within the window, whatever the account. */
export const ADDRESS_FAILURE_LIMIT = 50;
/** Accounts and addresses tracked at once; the oldest entry goes first. */
const MAX_TRACKED = 10_000;

interface Counter {
  failures: number[];
  lockedUntilMs: number;
}

export type Lockout = { locked: false } | { locked: true; what: 'account' | 'address'; retryAfterMs: number };

class FailureCounter {
  readonly #entries = new Map<string, Counter>();

  constructor(private readonly limit: number) {}

  lockedUntil(key: string, now: number): number {
    const entry = this.#entries.get(key);
    return entry && entry.lockedUntilMs > now ? entry.lockedUntilMs : 0;
  }

  /** Counts a failure; true when this one locks the key out. */
  fail(key: string, now: number): boolean {
    let entry = this.#entries.get(key);
    if (!entry) {
      if (this.#entries.size >= MAX_TRACKED) this.#evict(now);
      entry = { failures: [], lockedUntilMs: 0 };
      this.#entries.set(key, entry);
    }
    entry.failures = entry.failures.filter((t) => t > now - WINDOW_MS);
    entry.failures.push(now);
    if (entry.failures.length < this.limit) return false;
    entry.failures = [];
    entry.lockedUntilMs = now + LOCKOUT_MS;
    return true;
  }

  #evict(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.lockedUntilMs <= now && entry.failures.every((t) => t <= now - WINDOW_MS)) this.#entries.delete(key);
    }
    // Still full: drop the oldest (Map order is insertion order).
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < MAX_TRACKED) break;
      this.#entries.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}

export class SignInLimits {
  readonly #accounts = new FailureCounter(ACCOUNT_FAILURE_LIMIT);
  readonly #addresses = new FailureCounter(ADDRESS_FAILURE_LIMIT);

  constructor(private readonly ctx: MockContext) {}

  /** Whether the address, or the account when known, is locked out now. */
  check(address: string, account: string | null): Lockout {
    const now = this.ctx.clock.now();
    const byAddress = this.#addresses.lockedUntil(address, now);
    if (byAddress) return { locked: true, what: 'address', retryAfterMs: byAddress - now };
    const byAccount = account === null ? 0 : this.#accounts.lockedUntil(accountKey(account), now);
    if (byAccount) return { locked: true, what: 'account', retryAfterMs: byAccount - now };
    return { locked: false };
  }

  /** Counts a wrong password or SMS code; the lockout it caused, if any. */
  fail(address: string, account: string | null, kind: 'password' | 'sms'): Lockout {
    const now = this.ctx.clock.now();
    if (this.#addresses.fail(address, now)) {
      this.ctx.logger?.warn({ signIn: { kind, lockedOut: 'address' } }, 'sign-in: a client address is locked out after too many wrong answers');
    }
    if (account !== null && this.#accounts.fail(accountKey(account), now)) {
      // The account is named by its user ID in the log: no e-mail address, no guessed secret.
      this.ctx.logger?.warn({ signIn: { kind, lockedOut: 'account' } }, 'sign-in: an account is locked out after too many wrong answers');
    }
    return this.check(address, account);
  }

  clear(): void {
    this.#accounts.clear();
    this.#addresses.clear();
  }
}

function accountKey(account: string): string {
  return account.trim().toLowerCase();
}

/** "15 minutes", "1 minute". */
export function minutesOf(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
