/**
 * Every listener a delivery rule holds for (issue 32, slice dimensions `lock` and `role`): a lock
 * registration on either fixture lock (the second, of another kind, too), made by the lock's owner or by a
 * guest on it. The pairs are those the fixtures hold (GET /fixtures: the first user owns both locks, the
 * second is a guest on the first, or on the locks whose `guestUserIds` name them): every value of each
 * dimension is drawn, and a value the fixtures cannot give (no second lock, no guest) is its slices' "not
 * tested", with the reason.
 *
 * One registration per pair, each to an inbox of its own (its own url, header and token: a delivery is told
 * to be a pair's by where it arrived, never by order); one status check per lock, by its owner, reaches
 * every pair of the lock ("all listeners of that lock"), and every pair's delivery is awaited together.
 */
import type { Delivery, FixtureLock, Inbox, TokenSet } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { newInbox } from './context.js';
import { expectDelivery, isAbout } from './deliveries.js';
import { fixtures } from './fixtures.js';
import { triggerStatusCheck } from './status-check.js';
import { expectAccepted, registerLock, type Registration } from './webhooks.js';

export type LockSlot = 'first' | 'second';
export type Role = 'owner' | 'guest';

/** A (lock, role) pair: the fixture lock in that slot and the fixture user of that role on it. */
export interface LockRole {
  lock: LockSlot;
  role: Role;
  fixture: FixtureLock;
  /** fixtures.users index of the user of that role (0: the owner, 1: the guest). */
  userIndex: 0 | 1;
}

export interface Listener extends LockRole {
  registration: Registration;
  session: TokenSet;
}

export interface ListenerDelivery extends Listener {
  /** The status event of the status check made on the pair's lock. */
  delivery: Delivery;
}

const SLOTS: readonly LockSlot[] = ['first', 'second'];

/** Whether users[1] is a guest on the lock: its `guestUserIds` say so, or, without them, the fixtures' rule (a guest on the first lock). */
function guestOn(t: SuiteContext, lock: FixtureLock, slot: LockSlot): boolean {
  const guest = fixtures(t).users[1];
  if (!guest) return false;
  return lock.guestUserIds ? lock.guestUserIds.includes(guest.userId) : slot === 'first';
}

/** Every (lock, role) pair the fixtures hold, over the first two locks; with `roles`, only users of those roles. */
export function lockRoles(t: SuiteContext, roles: readonly Role[] = ['owner', 'guest']): LockRole[] {
  const locks = fixtures(t).locks;
  const out: LockRole[] = [];
  SLOTS.forEach((slot, i) => {
    const fixture = locks[i];
    if (!fixture) return;
    if (roles.includes('owner')) out.push({ lock: slot, role: 'owner', fixture, userIndex: 0 });
    if (roles.includes('guest') && t.target.has('second-user') && guestOn(t, fixture, slot)) out.push({ lock: slot, role: 'guest', fixture, userIndex: 1 });
  });
  return out;
}

/** Why the fixtures give no pair with that value. */
function missingReason(dim: 'lock' | 'role', value: string): string {
  if (dim === 'lock') return `the fixtures have no ${value} lock (GET /fixtures locks)`;
  return value === 'guest' ? 'the fixtures have no guest on either fixture lock (a second user, guestUserIds)' : `no fixture user has the role ${value}`;
}

/**
 * One lock registration per pair, side by side, each to an inbox of its own (every group; `inboxFor` makes it: one
 * answering as a test needs, or another url); each must be accepted.
 */
export async function registerListeners(t: SuiteContext, pairs: readonly LockRole[], label: string, inboxFor?: (p: LockRole, label: string) => Promise<Inbox>): Promise<Listener[]> {
  const sessions = new Map<number, TokenSet>();
  for (const p of pairs) if (!sessions.has(p.userIndex)) sessions.set(p.userIndex, await t.flows.userSession(p.userIndex));
  return Promise.all(pairs.map(async (p) => {
    const session = sessions.get(p.userIndex)!;
    const what = `${label}: the ${p.role} on the ${p.lock} lock`;
    const inbox = inboxFor ? await inboxFor(p, what) : await newInbox(t, { label: what });
    const registration = await registerLock(t, { lockId: p.fixture.lockId, inbox, accessToken: session.accessToken });
    expectAccepted(t, registration, `the ${p.role}'s registration on the ${p.lock} lock`);
    return { ...p, registration, session };
  }));
}

/**
 * One status check per lock of the listeners, by the lock's owner, then every listener's status event, awaited
 * together. Its arrival is the way to the caller's check: a missing one blocks the test by the rule that makes it
 * arrive (the registration, a check reaching every listener, a check sending every time) when that failed in the run.
 */
export async function statusEventOfEach(t: SuiteContext, listeners: readonly Listener[]): Promise<ListenerDelivery[]> {
  await checkEachLock(t, listeners);
  return Promise.all(listeners.map(async (l) => {
    const restsOn = ['WEBHOOK-LOCK-REGISTER', 'DELIVERY-STATUS-EVERY-CHECK', ...(l.role === 'owner' ? [] : ['DELIVERY-STATUS-CHECK-FANOUT'])];
    const delivery = await expectDelivery(t, l.registration.inbox, `a status check on the ${l.lock} lock by its owner: the ${l.role}'s registration`, { predicate: isAbout(l.fixture.lockId), restsOn });
    return { ...l, delivery };
  }));
}

/** One status check on each lock of the listeners, by the lock's owner: its status event goes "to all listeners of that lock". */
export async function checkEachLock(t: SuiteContext, listeners: readonly LockRole[]): Promise<void> {
  const owner = await t.flows.userSession(0);
  for (const lockId of new Set(listeners.map((l) => l.fixture.lockId))) await triggerStatusCheck(t, lockId, owner.accessToken);
}

/** The pairs of `roles` registered (every group), then the status event of each: the setting of a rule checked on every listener. */
export async function statusEventPerListener(t: SuiteContext, label: string, roles: readonly Role[] = ['owner', 'guest']): Promise<ListenerDelivery[]> {
  return statusEventOfEach(t, await registerListeners(t, lockRoles(t, roles), label));
}

/** The dimensions among `lock` and `role` the current requirement (the test's, or the running t.check's) declares. */
function declaredListenerDims(t: SuiteContext): Array<'lock' | 'role'> {
  return (['lock', 'role'] as const).filter((dim) => {
    try {
      return t.slices(dim).length > 0;
    } catch {
      return false;
    }
  });
}

/**
 * Runs check on every listener, each as the slice of the current requirement its pair gives ({ lock, role }, or only
 * the dimension it declares: the listeners of one value then share a slice). A declared value no pair has is
 * not tested, with the reason. `also`: the slice of another dimension every listener's check is on too (or each one's own).
 */
export async function eachListener<L extends Pick<LockRole, 'lock' | 'role'>>(t: SuiteContext, listeners: readonly L[], check: (l: L) => void | Promise<void>, also: Readonly<Record<string, string>> | ((l: L) => Readonly<Record<string, string>>) = {}): Promise<void> {
  const dims = declaredListenerDims(t);
  if (dims.length === 0) throw new Error(`suite error: ${t.requirement.id} declares neither lock nor role slices`);
  const groups = new Map<string, { slice: Record<string, string>; members: L[] }>();
  for (const l of listeners) {
    const slice = { ...(typeof also === 'function' ? also(l) : also), ...Object.fromEntries(dims.map((d) => [d, l[d]])) };
    const key = JSON.stringify(slice);
    const group = groups.get(key) ?? { slice, members: [] };
    group.members.push(l);
    groups.set(key, group);
  }
  for (const { slice, members } of groups.values()) {
    await t.slice(slice, async () => {
      for (const l of members) await check(l);
    });
  }
  for (const dim of dims) {
    for (const value of t.slices(dim)) {
      if (!listeners.some((l) => l[dim] === value)) await t.slice({ ...(typeof also === 'function' ? {} : also), [dim]: value }, () => t.notTested(missingReason(dim, value)));
    }
  }
}
