/**
 * User-webhook payloads (spec: Events → User events): registered through POST
 * /webhook/user; all carry EventType=authorization, UserID, LockID, EventID,
 * timeStamp and Timestamp, plus UserType or AccessType where the row says. The
 * row's own checks take fixtures.users[1], the guest on locks[0], as the subject;
 * "All carry" is then checked about every kind of subject (slices `subject`: a
 * member, the owner, a user who is no member of the lock; support/event-subject.ts).
 */
// Every test of this file leases a fixture set of its own: the sections run side by side.
import { describeLeased as describe } from '../../harness/service/conformance.js';
import type { Capability } from '../../harness/catalog/index.js';
import { conformance } from '../../harness/service/conformance.js';
import * as S from '../schemas/events.js';
import type { SuiteContext } from '../support/context.js';
import { control } from '../support/context.js';
import { LOOPING_TEST_TIMEOUT_MS, QUIET_WINDOW_MS } from '../support/deliveries.js';
import { emitAndCatch, expectSchema, listenToUser } from '../support/events.js';
import { firstLock, sameId, user } from '../support/fixtures.js';
import { expectFields } from '../support/event-slices.js';
import { UserInboxes, eachSubject } from '../support/event-subject.js';
import type { Delivery, Inbox } from '../../harness/contracts.js';

const needs = (): { needs: Capability[] } => ({ needs: ['second-user', 'capture', 'events'] });
/** The same, for rows that loop over several values, each waiting for its delivery. */
const needsLooping = (): { needs: Capability[]; timeout: number } => ({ ...needs(), timeout: LOOPING_TEST_TIMEOUT_MS });

function expectSubject(t: SuiteContext, body: { UserID: string; LockID: string }, row: string): void {
  t.expect(sameId(body.UserID, user(t, 1).userId), `${row}: UserID must be the user concerned (${user(t, 1).userId}); got ${JSON.stringify(body.UserID)}`).toBe(true);
  t.expect(sameId(body.LockID, firstLock(t).lockId), `${row}: LockID must be the lock concerned (${firstLock(t).lockId}); got ${JSON.stringify(body.LockID)}`).toBe(true);
}

async function userRow(t: SuiteContext, kind: string, value?: string, listening?: Inbox) {
  const inbox = listening ?? await listenToUser(t, 1);
  return emitAndCatch(t, inbox, { kind, lockId: firstLock(t).lockId, userId: user(t, 1).userId, ...(value ? { value } : {}) }, kind);
}

describe('User events', () => {
  conformance('EVENT-USER-LOCK-USER-ADD', 'lock_user_add: authorization, UserID, LockID, EventID, timeStamp, Timestamp', needs(), async (t) => {
    const inboxes = new UserInboxes(t);
    await eachSubject(t, inboxes, 'lock_user_add', S.userLockUserAdd);
    const d = await userRow(t, 'lock_user_add', undefined, await inboxes.of(1));
    await expectFields(t, S.userLockUserAdd, [d], 'user event lock_user_add');
    expectSubject(t, expectSchema(t, S.userLockUserAdd, d, 'user event lock_user_add'), 'user event lock_user_add');
  });

  conformance('EVENT-USER-LOCK-USER-REMOVE', 'lock_user_remove: authorization, UserID, LockID, EventID, timeStamp, Timestamp', needs(), async (t) => {
    const inboxes = new UserInboxes(t);
    await eachSubject(t, inboxes, 'lock_user_remove', S.userLockUserRemove);
    const d = await userRow(t, 'lock_user_remove', undefined, await inboxes.of(1));
    await expectFields(t, S.userLockUserRemove, [d], 'user event lock_user_remove');
    expectSubject(t, expectSchema(t, S.userLockUserRemove, d, 'user event lock_user_remove'), 'user event lock_user_remove');
  });

  conformance('EVENT-USER-USERTYPE-CHANGED', 'lock_usertype_changed: the common fields and UserType, every level', needsLooping(), async (t) => {
    const inboxes = new UserInboxes(t);
    await eachSubject(t, inboxes, 'lock_usertype_changed', S.userUsertypeChanged, (relation) => (relation === 'owner' ? 'superuser' : 'user'));
    const inbox = await inboxes.of(1);
    const got: Delivery[] = [];
    await t.eachSlice('enum-value', async (value) => {
      const d = await userRow(t, 'lock_usertype_changed', value, inbox);
      got.push(d);
      t.expect(d.json?.UserType, `user event lock_usertype_changed (${value}): UserType`).toBe(value);
    });
    await expectFields(t, S.userUsertypeChanged, got, 'user event lock_usertype_changed');
    for (const d of got) expectSubject(t, expectSchema(t, S.userUsertypeChanged, d, `user event lock_usertype_changed (${d.json?.UserType})`), 'user event lock_usertype_changed');
  });

  conformance('EVENT-USER-ACCESSTYPE-CHANGED', 'lock_accesstype_changed: the common fields and AccessType, every schedule', needsLooping(), async (t) => {
    const inboxes = new UserInboxes(t);
    await eachSubject(t, inboxes, 'lock_accesstype_changed', S.userAccesstypeChanged, () => 'rule_access_always');
    const inbox = await inboxes.of(1);
    const got: Delivery[] = [];
    await t.eachSlice('enum-value', async (value) => {
      const d = await userRow(t, 'lock_accesstype_changed', value, inbox);
      got.push(d);
      t.expect(d.json?.AccessType, `user event lock_accesstype_changed (${value}): AccessType`).toBe(value);
    });
    await expectFields(t, S.userAccesstypeChanged, got, 'user event lock_accesstype_changed');
    for (const d of got) expectSubject(t, expectSchema(t, S.userAccesstypeChanged, d, `user event lock_accesstype_changed (${d.json?.AccessType})`), 'user event lock_accesstype_changed');
  });

  conformance('EVENT-LIFECYCLE', 'what a lifecycle registration receives when the user deletes the account (payload not shown)', needs(), async (t) => {
    const inbox = await listenToUser(t, 1, ['lifecycle']);
    const answer = await control(t).emit({ kind: 'lifecycle.deleted', userId: user(t, 1).userId });
    const got = await inbox.collectFor(QUIET_WINDOW_MS * 2);
    t.observe('control answer', answer);
    t.observe('deliveries', got.map((d) => d.json ?? d.bodyText.slice(0, 300)));
  });
});
