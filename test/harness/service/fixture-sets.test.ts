import { describe, expect, it } from 'vitest';
import { fixtureSets } from '../../../harness/service/fixture-sets.js';
import { leasedControl, runPlan } from '../../../harness/service/run-plan.js';
import type { ControlClientLike, Fixtures, LockconfSetup } from '../../../harness/contracts.js';

const MINIMUM: Fixtures = {
  users: [{ userId: 'owner' }, { userId: 'guest' }],
  locks: [
    { lockId: 'L1', ownerUserId: 'owner', bridgeId: 'B0' },
    { lockId: 'L2', ownerUserId: 'owner', bridgeId: 'B0' },
  ],
};

/** The minimum plus one set per owner: owner<n> with locks F<n>, K<n> on bridge B<n>, guest<n> on F<n>. */
function withSets(n: number, tweak: (f: Fixtures) => void = () => {}): Fixtures {
  const f: Fixtures = structuredClone(MINIMUM);
  f.locks[0]!.guestUserIds = ['guest'];
  for (let i = 1; i <= n; i++) {
    f.users.push({ userId: `owner${i}` }, { userId: `guest${i}` });
    f.locks.push(
      { lockId: `F${i}`, ownerUserId: `owner${i}`, bridgeId: `B${i}`, guestUserIds: [`guest${i}`] },
      { lockId: `K${i}`, ownerUserId: `owner${i}`, bridgeId: `B${i}`, guestUserIds: [] },
    );
  }
  tweak(f);
  return f;
}

function setup(fixtures: Fixtures | null, capabilities = ['control', 'user-token', 'second-user']): LockconfSetup {
  return { fixtures, capabilities } as unknown as LockconfSetup;
}

describe('fixture sets', () => {
  it('the minimum (no guestUserIds) is one set: the fixtures as given', () => {
    const sets = fixtureSets(MINIMUM);
    expect(sets).toHaveLength(1);
    expect(sets[0]).toBe(MINIMUM);
  });

  it('no fixtures, no sets', () => {
    expect(fixtureSets(null)).toEqual([]);
  });

  it('further owners with a guest on their first lock are sets of their own; set 0 keeps the rest', () => {
    const f = withSets(2);
    f.users.splice(2, 0, { userId: 'bystander' });
    const sets = fixtureSets(f);
    expect(sets.map((s) => s.users.map((u) => u.userId))).toEqual([
      ['owner', 'guest', 'bystander'],
      ['owner1', 'guest1'],
      ['owner2', 'guest2'],
    ]);
    expect(sets.map((s) => s.locks.map((l) => l.lockId))).toEqual([['L1', 'L2'], ['F1', 'K1'], ['F2', 'K2']]);
  });

  it('an owner without a guest of its own, or sharing a bridge with another set, stays in set 0', () => {
    const sets = fixtureSets(withSets(3, (f) => {
      f.locks[2]!.guestUserIds = ['guest']; // set 1's only guest is the base guest
      f.locks[4]!.bridgeId = 'B0'; // set 2's first lock is on the base bridge
    }));
    expect(sets.map((s) => s.users.map((u) => u.userId))).toEqual([
      ['owner', 'guest', 'owner1', 'guest1', 'owner2', 'guest2'],
      ['owner3', 'guest3'],
    ]);
    expect(sets[0]!.locks.map((l) => l.lockId)).toEqual(['L1', 'L2', 'F1', 'K1', 'F2', 'K2']);
  });

  it('every set carries the target-wide fields: further client credentials and the delivery timeout', () => {
    const clients = [{ clientId: 'second', clientSecret: 's', apiKey: 'k', redirectUri: 'http://127.0.0.1:1/cb' }];
    const sets = fixtureSets(withSets(2, (f) => {
      f.clients = clients;
      f.deliveryTimeoutMs = 1000;
    }));
    expect(sets).toHaveLength(3);
    expect(sets.map((s) => s.clients)).toEqual([clients, clients, clients]);
    expect(sets.map((s) => s.deliveryTimeoutMs)).toEqual([1000, 1000, 1000]);
  });
});

describe('run plan', () => {
  it('concurrent with two sets or more and control', () => {
    const plan = runPlan(setup(withSets(2)), {});
    expect([plan.concurrent, plan.sets.length, plan.sequentialBecause]).toEqual([true, 3, null]);
  });

  it('falls back to sequential with the minimum fixtures', () => {
    const plan = runPlan(setup(MINIMUM), {});
    expect(plan.concurrent).toBe(false);
    expect(plan.sequentialBecause).toMatch(/one set only/);
    expect(plan.sets).toEqual([MINIMUM]);
  });

  it('falls back to sequential without control, without fixtures, or when asked', () => {
    expect(runPlan(setup(withSets(2), ['user-token']), {}).sequentialBecause).toMatch(/no control protocol/);
    expect(runPlan(setup(null), {}).sequentialBecause).toMatch(/one set only/);
    expect(runPlan(setup(withSets(2)), { LOCKCONF_SEQUENTIAL: '1' }).sequentialBecause).toBe('LOCKCONF_SEQUENTIAL=1');
    expect(runPlan(undefined, {}).concurrent).toBe(false);
  });
});

describe('the control client of a leased test', () => {
  const calls: string[] = [];
  const inner = {
    advanceClock: async (ms: number) => void calls.push(`advance ${ms}`),
    resetClock: async () => void calls.push('resetClock'),
    reset: async () => void calls.push('reset'),
    setClientCredentials: async () => void calls.push('cc'),
    emit: async () => {
      calls.push('emit');
      return { emitted: 1, eventId: null };
    },
  } as unknown as ControlClientLike;

  it('refuses what changes every test\'s state outside t.exclusive(), allows it inside', async () => {
    let alone = false;
    const control = leasedControl(inner, () => alone);
    await expect(control.advanceClock(1000)).rejects.toThrow(/advanceClock\(\) in a test that leased a fixture set/);
    await expect(control.reset()).rejects.toThrow(/reset\(\)/);
    await expect(control.setClientCredentials(true)).rejects.toThrow(/setClientCredentials\(\)/);
    await control.emit({ kind: 'door', lockId: 'F1', value: 'open' });
    alone = true;
    await control.advanceClock(1000);
    expect(calls).toEqual(['emit', 'advance 1000']);
  });
});
