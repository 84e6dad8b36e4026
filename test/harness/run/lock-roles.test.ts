/** Every listener (suites/support/lock-roles.ts): the (lock, role) pairs the fixtures hold, and one slice per pair. */
import { describe, expect, it } from 'vitest';
import { eachListener, lockRoles } from '../../../suites/support/lock-roles.js';
import type { SuiteContext } from '../../../suites/support/context.js';
import type { Fixtures } from '../../../harness/contracts.js';

const OWNER = { userId: 'u-owner' };
const GUEST = { userId: 'u-guest' };

/** A context with the fixtures, capabilities and declared slices given; t.slice records what it ran. */
function fake(fixtures: Fixtures, opts: { secondUser?: boolean; declared?: Record<string, string[]> } = {}) {
  const ran: Array<{ slice: Record<string, string>; status: string }> = [];
  const declared = opts.declared ?? { lock: ['first', 'second'], role: ['owner', 'guest'] };
  const t = {
    requirement: { id: 'DELIVERY-CUSTOM-HEADER' },
    target: { fixtures, has: (c: string) => c !== 'second-user' || opts.secondUser !== false },
    notTested: (reason: string) => { throw Object.assign(new Error(reason), { notTested: true }); },
    slices: (dim: string) => {
      if (!declared[dim]) throw new Error(`declares no slices over ${dim}`);
      return declared[dim]!;
    },
    slice: async (slice: Record<string, string>, fn: () => unknown) => {
      try {
        await fn();
        ran.push({ slice, status: 'passed' });
      } catch (err) {
        ran.push({ slice, status: (err as { notTested?: boolean }).notTested ? 'not-tested' : 'failed' });
      }
    },
  } as unknown as SuiteContext;
  return { t, ran };
}

const TWO_LOCKS: Fixtures = { users: [OWNER, GUEST] as Fixtures['users'], locks: [{ lockId: 'L1' }, { lockId: 'L2' }] };

describe('lockRoles', () => {
  it('the owner on both locks, the guest on the first (the fixtures\' rule without guestUserIds)', () => {
    const { t } = fake(TWO_LOCKS);
    expect(lockRoles(t).map((p) => `${p.lock}/${p.role}`)).toEqual(['first/owner', 'first/guest', 'second/owner']);
  });

  it('guestUserIds say where the guest is; no second user, no guest', () => {
    const onBoth: Fixtures = { ...TWO_LOCKS, locks: [{ lockId: 'L1', guestUserIds: [] }, { lockId: 'L2', guestUserIds: ['u-guest'] }] };
    expect(lockRoles(fake(onBoth).t).map((p) => `${p.lock}/${p.role}`)).toEqual(['first/owner', 'second/owner', 'second/guest']);
    expect(lockRoles(fake(TWO_LOCKS, { secondUser: false }).t).map((p) => p.role)).toEqual(['owner', 'owner']);
    expect(lockRoles(fake(TWO_LOCKS).t, ['owner']).map((p) => p.lock)).toEqual(['first', 'second']);
  });
});

describe('eachListener', () => {
  it('one slice per pair over the dimensions declared; a value no pair has is not tested', async () => {
    const { t, ran } = fake({ ...TWO_LOCKS, locks: [{ lockId: 'L1' }] });
    const seen: string[] = [];
    await eachListener(t, lockRoles(t), (l) => { seen.push(`${l.lock}/${l.role}`); });
    expect(seen).toEqual(['first/owner', 'first/guest']);
    expect(ran).toEqual([
      { slice: { lock: 'first', role: 'owner' }, status: 'passed' },
      { slice: { lock: 'first', role: 'guest' }, status: 'passed' },
      { slice: { lock: 'second' }, status: 'not-tested' },
    ]);
  });

  it('with one dimension declared, the listeners of a value share its slice; another dimension rides along', async () => {
    const { t, ran } = fake(TWO_LOCKS, { declared: { lock: ['first', 'second'], 'receiver-answer': ['302'] } });
    let checks = 0;
    await eachListener(t, lockRoles(t), () => { checks++; }, { 'receiver-answer': '302' });
    expect(checks).toBe(3);
    expect(ran.map((r) => r.slice)).toEqual([{ 'receiver-answer': '302', lock: 'first' }, { 'receiver-answer': '302', lock: 'second' }]);
  });
});
