/**
 * Fixture sets: the target's fixtures split into disjoint groups, each shaped like
 * the minimum the control protocol asks for (an owner of one or more locks, a guest
 * on the first of them). A concurrent test leases one set for its duration and sees
 * only that set as its fixtures (users[0] the owner, users[1] the guest, locks the
 * owner's), so tests that run side by side never share a lock, a user or a webhook
 * registration.
 *
 * Every set carries the target-wide fields (clients, deliveryTimeoutMs) as they are.
 * Set 0 is the base: the fixtures as given, less the users and locks of the other sets.
 * Further sets need the additive `guestUserIds` field on their first lock
 * (docs/control-protocol-extensions.md); a target that lists only the minimum, or no
 * guests, yields the base set alone, and its tests run one after another as before.
 * Pure: tested in test/harness/service/fixture-sets.test.ts.
 */
import type { FixtureLock, Fixtures } from '../contracts.js';

export function fixtureSets(fixtures: Fixtures | null): Fixtures[] {
  if (!fixtures) return [];
  // What belongs to the whole target (further client credentials, the delivery timeout) goes with every set.
  const { users: _users, locks: _locks, ...targetWide } = fixtures;
  const base = { owner: fixtures.users[0]?.userId, guest: fixtures.users[1]?.userId };
  const owners = new Set(fixtures.locks.map((l) => l.ownerUserId).filter((id): id is string => Boolean(id)));
  const taken = new Set([base.owner, base.guest].filter((id): id is string => Boolean(id)));
  const byOwner = new Map<string, FixtureLock[]>();
  for (const lock of fixtures.locks) {
    if (!lock.ownerUserId || lock.ownerUserId === base.owner) continue;
    byOwner.set(lock.ownerUserId, [...(byOwner.get(lock.ownerUserId) ?? []), lock]);
  }
  const extra: Fixtures[] = [];
  for (const [ownerId, locks] of byOwner) {
    const owner = fixtures.users.find((u) => u.userId === ownerId);
    if (!owner || taken.has(ownerId)) continue;
    // The guest must belong to this set alone: not an owner, not the guest of another set.
    const guestId = (locks[0]!.guestUserIds ?? []).find((id) => !owners.has(id) && !taken.has(id));
    const guest = guestId ? fixtures.users.find((u) => u.userId === guestId) : undefined;
    if (!guest) continue;
    // A bridge event reaches every lock on the bridge: a set keeps its bridges to itself.
    const bridges = new Set(locks.map((l) => l.bridgeId).filter(Boolean));
    if (fixtures.locks.some((l) => l.ownerUserId !== ownerId && l.bridgeId && bridges.has(l.bridgeId))) continue;
    taken.add(ownerId).add(guest.userId);
    extra.push({ ...targetWide, users: [owner, guest], locks });
  }
  const inExtra = new Set(extra.flatMap((s) => s.users.map((u) => u.userId)));
  const rest: Fixtures = {
    ...targetWide,
    users: fixtures.users.filter((u) => !inExtra.has(u.userId)),
    locks: fixtures.locks.filter((l) => !l.ownerUserId || !inExtra.has(l.ownerUserId)),
  };
  return [extra.length === 0 ? fixtures : rest, ...extra];
}
