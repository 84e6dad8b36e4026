/**
 * Registration lifecycle (slices `untouched`, harness/catalog/slices/webhooks-events.ts):
 * a step of one registration's life (overwrite, delete) leaves every other
 * registration in force. For each declared bystander: the bystander registers,
 * the step is taken, and an event the bystander listens to must still reach it.
 * Lock steps are the owner's (users[0]) on locks[0]; user steps the guest's (users[1]).
 */
import type { Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { control, newInbox } from './context.js';
import { expectDelivery, isAbout, isEvent, type Predicate } from './deliveries.js';
import { firstLock, fixtures, sameId, user } from './fixtures.js';
import { triggerStatusCheck } from './status-check.js';
import { deleteRegistration, expectAccepted, registerLock, registerUser } from './webhooks.js';

export type Step = 'lock-overwrite' | 'lock-delete' | 'user-overwrite' | 'user-delete';

interface Bystander {
  inbox: Inbox;
  fire: () => Promise<unknown>;
  predicate: Predicate;
}

export async function bystandersUntouched(t: SuiteContext, step: Step): Promise<void> {
  const owner = await t.flows.userSession(0);
  const guest = await t.flows.userSession(1);
  const lock = firstLock(t);
  const lockStep = step.startsWith('lock');
  const actor = lockStep ? owner : guest;
  const actorIndex = lockStep ? 0 : 1;
  const userAdd = (index: number) => async () => {
    if (!t.target.has('events')) t.notTested('this bystander listens to user events: the control protocol\'s events are needed');
    return control(t).emit({ kind: 'lock_user_add', lockId: lock.lockId, userId: user(t, index).userId });
  };

  const bystander = async (who: string): Promise<Bystander> => {
    const inbox = await newInbox(t, { label: `bystander ${who} of ${step}` });
    switch (who) {
      case 'other-lock': {
        const other = fixtures(t).locks.find((l) => !sameId(l.lockId, lock.lockId));
        if (!other) t.notTested('GET /fixtures lists one lock: no other lock to register');
        expectAccepted(t, await registerLock(t, { lockId: other.lockId, inbox, accessToken: actor.accessToken }), 'the same user\'s registration on another lock');
        return { inbox, fire: () => triggerStatusCheck(t, other.lockId, actor.accessToken), predicate: isAbout(other.lockId) };
      }
      case 'other-user':
        if (lockStep) {
          expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: guest.accessToken }), 'another user\'s registration on the same lock');
          return { inbox, fire: () => triggerStatusCheck(t, lock.lockId, owner.accessToken), predicate: isAbout(lock.lockId) };
        }
        expectAccepted(t, await registerUser(t, { inbox, accessToken: owner.accessToken }), 'another user\'s user registration');
        return { inbox, fire: userAdd(0), predicate: isEvent('lock_user_add') };
      case 'user-registration':
        expectAccepted(t, await registerUser(t, { inbox, accessToken: actor.accessToken }), 'the same user\'s user registration');
        return { inbox, fire: userAdd(actorIndex), predicate: isEvent('lock_user_add') };
      case 'lock-registration':
        expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: actor.accessToken }), 'the same user\'s lock registration');
        return { inbox, fire: () => triggerStatusCheck(t, lock.lockId, actor.accessToken), predicate: isAbout(lock.lockId) };
      default:
        throw new Error(`suite error: no bystander ${who}`);
    }
  };

  const takeStep = async () => {
    const inbox = await newInbox(t, { label: `${step} (the step)` });
    const reg = lockStep
      ? await registerLock(t, { lockId: lock.lockId, inbox, accessToken: actor.accessToken })
      : await registerUser(t, { inbox, accessToken: actor.accessToken });
    expectAccepted(t, reg, `the registration whose life goes on (${step})`);
    if (step.endsWith('overwrite')) {
      const again = await newInbox(t, { label: `${step} (registered again)` });
      expectAccepted(t, lockStep
        ? await registerLock(t, { lockId: lock.lockId, inbox: again, accessToken: actor.accessToken })
        : await registerUser(t, { inbox: again, accessToken: actor.accessToken }), `registered again (${step})`);
    } else {
      const res = await deleteRegistration(t, reg);
      t.expect(res.status >= 200 && res.status < 300, `${step}: the deletion must be accepted; got HTTP ${res.status}`).toBe(true);
    }
  };

  await t.eachSlice('untouched', async (who) => {
    const b = await bystander(who);
    await takeStep();
    const seen = new Set((await b.inbox.deliveries()).map((d) => d.seq));
    await b.fire();
    const d = await expectDelivery(t, b.inbox, `after ${step}: the ${who} registration must stay in force`, { predicate: (x) => !seen.has(x.seq) && b.predicate(x) });
    t.expect(d.method, `after ${step}: the ${who} registration still receives its events`).toBe('POST');
  });
}
