/**
 * The webhook registry (spec: POST/DELETE {base_url}/webhook/...; Limits): one lock
 * registration per (lock, user), one user registration per user; registering again
 * overwrites, DELETE removes. Faults that break these rules are checked here.
 */
import { randomUUID } from 'node:crypto';
import type { FaultSet } from '../faults.js';
import type { Group } from './groups.js';
import type { SliceBreakId } from '../slice-faults.js';

export interface Registration {
  id: string;
  /** null for a user registration. */
  lockId: string | null;
  /** The registering user (null: the application's own client_credentials account). */
  userId: string | null;
  clientId: string;
  url: string;
  method: 'POST';
  /** The application-chosen header and its token; null when the registration named none. */
  header: string | null;
  token: string | null;
  notificationTypes: Group[];
  createdAtMs: number;
  /** How many registrations of its slot it follows (0: the first; the faults lock-overwrite-header-stuck and lock-overwrite-groups-stuck count them). */
  overwrites?: number;
}

export type RegistrationInput = Omit<Registration, 'id' | 'lockId' | 'createdAtMs' | 'overwrites'>;

/** Where a lock registration sits, as the slice faults of dimensions `lock` and `role` name it (mock/world.ts lockSlot, roleOn). */
export interface LockSlice {
  lock?: string | null;
  role?: string | null;
}

/** Far above what the rules allow (users × locks); only the appending faults or abuse get near it. */
export const MAX_REGISTRATIONS = 1000;

export class WebhookRegistry {
  #lock: Registration[] = [];
  #user: Registration[] = [];
  /** Under lock-reregister-keeps-deleted-header: the header and token of each deleted lock registration, by lock and user. */
  #deletedHeaders = new Map<string, { header: string | null; token: string | null }>();

  constructor(
    private readonly faults: FaultSet,
    private readonly now: () => number,
    private readonly capacity = MAX_REGISTRATIONS,
  ) {}

  /** The users who share a lock with a user (the bystanders a slice fault of a user registration disturbs); unset: every other user. */
  lockmatesOf: (userId: string) => ReadonlySet<string> | null = () => null;

  /** Whether one more registration would pass the capacity (the API then answers 429). */
  isFull(): boolean {
    return this.#lock.length + this.#user.length >= this.capacity;
  }

  registerLock(lockId: string, input: RegistrationInput, slice: LockSlice = {}): Registration {
    const registration: Registration = { ...input, id: randomUUID(), lockId, createdAtMs: this.now() };
    const previous = this.#lock.find((r) => r.lockId === lockId && r.userId === input.userId);
    if (previous && this.faults.has('lock-register-keeps-groups')) {
      registration.notificationTypes = [...new Set([...previous.notificationTypes, ...input.notificationTypes])];
    }
    // Slice fault: an overwrite without header and token keeps the earlier ones (a merge, not a replacement).
    const bare = input.header === null && this.faults.breaks('WEBHOOK-LOCK-OVERWRITE', { 'registration-fields': 'bare-overwrite' });
    if (previous && (this.faults.has('lock-register-keeps-token') || bare)) {
      registration.header = previous.header;
      registration.token = previous.token;
    }
    // Sequence-only faults: from the second overwrite on, the replaced registration's header and token (or its
    // notificationTypes) stay; a registration after a deletion takes the deleted one's header and token.
    registration.overwrites = previous ? (previous.overwrites ?? 0) + 1 : 0;
    if (previous && registration.overwrites >= 2 && this.faults.has('lock-overwrite-header-stuck')) {
      registration.header = previous.header;
      registration.token = previous.token;
    }
    if (previous && registration.overwrites >= 2 && this.faults.has('lock-overwrite-groups-stuck')) {
      registration.notificationTypes = [...previous.notificationTypes];
    }
    const deleted = this.#deletedHeaders.get(`${lockId}|${input.userId}`);
    this.#deletedHeaders.delete(`${lockId}|${input.userId}`);
    if (!previous && deleted?.header && this.faults.has('lock-reregister-keeps-deleted-header')) {
      registration.header = deleted.header;
      registration.token = deleted.token;
    }
    if (previous) this.#disturbBystanders('WEBHOOK-LOCK-OVERWRITE', lockId, input.userId);
    if (this.faults.has('lock-register-per-user')) {
      this.#lock = this.#lock.filter((r) => r.userId !== input.userId);
    }
    // Slice fault WEBHOOK-LOCK-PER-USER@receiver-url=<kind>: the other users' registrations on the lock whose url is the
    // same as the new one (shared: kept by lock and url) or another (own) are replaced by it.
    if (this.faults.anySlice()) {
      const urlKind = (r: Registration) => (r.url === input.url ? 'shared' : 'own');
      this.#lock = this.#lock.filter((r) => !(r.lockId === lockId && r.userId !== input.userId && this.faults.breaks('WEBHOOK-LOCK-PER-USER', { 'receiver-url': urlKind(r) })));
    }
    if (this.faults.has('lock-register-per-lock')) {
      this.#lock = this.#lock.filter((r) => r.lockId !== lockId);
      // Slice fault: on that lock of its set, or for a user of that role, the new registration is added beside the earlier one.
    } else if (!this.faults.has('lock-register-appends') && !(previous && this.faults.breaks('WEBHOOK-LOCK-OVERWRITE', { ...slice }))) {
      this.#lock = this.#lock.filter((r) => !(r.lockId === lockId && r.userId === input.userId));
    }
    this.#lock.push(registration);
    return registration;
  }

  registerUser(input: RegistrationInput): Registration {
    const registration: Registration = { ...input, id: randomUUID(), lockId: null, createdAtMs: this.now() };
    const previous = this.#user.find((r) => r.userId === input.userId);
    if (previous && this.faults.has('user-register-keeps-groups')) {
      registration.notificationTypes = [...new Set([...previous.notificationTypes, ...input.notificationTypes])];
    }
    // Sequence-only fault: an overwrite that leaves out header and token keeps the replaced registration's.
    if (previous && input.header === null && this.faults.has('user-bare-overwrite-keeps-header')) {
      registration.header = previous.header;
      registration.token = previous.token;
    }
    if (previous) this.#disturbBystanders('WEBHOOK-USER-OVERWRITE', null, input.userId);
    if (!this.faults.has('user-register-appends')) {
      this.#user = this.#user.filter((r) => r.userId !== input.userId);
    }
    this.#user.push(registration);
    return registration;
  }

  /**
   * Slice faults (`untouched`): a step of a registration's life (overwrite, delete
   * of the lock registration on lockId, or of the user registration when lockId is
   * null) that also removes the registrations of that class it must leave alone:
   * the user's own on other locks, other users' (on the lock; or their user
   * registrations), the user's user registration, the user's lock registrations.
   */
  #disturbBystanders(requirement: SliceBreakId, lockId: string | null, userId: string | null): void {
    const hit = (what: string) => this.faults.breaks(requirement, { untouched: what });
    if (lockId !== null && hit('other-lock')) this.#lock = this.#lock.filter((r) => !(r.userId === userId && r.lockId !== lockId));
    if (lockId !== null && hit('other-user')) this.#lock = this.#lock.filter((r) => !(r.lockId === lockId && r.userId !== userId));
    if (lockId === null && hit('other-user')) {
      // Other users' user registrations: those of the users who share a lock with this one (a
      // fixture set's own people), so that the fault breaks the rule where the test looks and
      // leaves the registrations of the other sets' tests, running beside it, alone.
      const mates = userId === null ? null : this.lockmatesOf(userId);
      this.#user = this.#user.filter((r) => r.userId === userId || (mates !== null && !mates.has(r.userId ?? '')));
    }
    if (hit('user-registration')) this.#user = this.#user.filter((r) => r.userId !== userId);
    if (hit('lock-registration')) this.#lock = this.#lock.filter((r) => r.userId !== userId);
  }

  /** Removes the caller's registrations on the lock made with clientId; false when there are none. */
  deleteLock(lockId: string, userId: string | null, clientId: string, slice: LockSlice = {}): boolean {
    const match = (r: Registration) => r.lockId === lockId && r.userId === userId && r.clientId === clientId;
    if (!this.#lock.some(match)) return false;
    // Slice fault: on that lock of its set, or by a user of that role, the deletion is answered but the registration kept.
    const keep = this.faults.breaks('WEBHOOK-LOCK-DELETE', { ...slice });
    if (this.faults.has('lock-reregister-keeps-deleted-header')) {
      const gone = this.#lock.find(match)!;
      this.#deletedHeaders.set(`${lockId}|${userId}`, { header: gone.header, token: gone.token });
    }
    if (!this.faults.has('lock-delete-ignored') && !keep) this.#lock = this.#lock.filter((r) => !match(r));
    this.#disturbBystanders('WEBHOOK-LOCK-DELETE', lockId, userId);
    return true;
  }

  /** Removes the caller's user registration; false when there is none. */
  deleteUser(userId: string | null, clientId: string): boolean {
    const match = (r: Registration) => r.userId === userId && r.clientId === clientId;
    if (!this.#user.some(match)) return false;
    if (!this.faults.has('user-delete-ignored')) this.#user = this.#user.filter((r) => !match(r));
    this.#disturbBystanders('WEBHOOK-USER-DELETE', null, userId);
    return true;
  }

  /** Every registration on any of these locks, in registration order. */
  forLocks(lockIds: readonly string[]): Registration[] {
    return this.#lock.filter((r) => r.lockId !== null && lockIds.includes(r.lockId));
  }

  forUser(userId: string): Registration[] {
    return this.#user.filter((r) => r.userId === userId);
  }

  /** Registrations currently held (tests and diagnostics). */
  size(): { lock: number; user: number } {
    return { lock: this.#lock.length, user: this.#user.length };
  }

  clear(): void {
    this.#lock = [];
    this.#user = [];
    this.#deletedHeaders.clear();
  }
}
