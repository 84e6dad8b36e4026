/**
 * Webhook registration on the domains of issue 32: each optional field left out, and every lock and actor
 * (register, overwrite, delete). Split from registration.suite.ts; run by suites/leased.test.ts after it.
 */
import { describeLeased as describe } from '../../harness/service/conformance.js';
import type { Delivery, Inbox } from '../../harness/contracts.js';
import { conformance } from '../../harness/service/conformance.js';
import type { SuiteContext } from '../support/context.js';
import { control, newInbox } from '../support/context.js';
import { ARRIVAL_TIMEOUT_MS, LOOPING_TEST_TIMEOUT_MS, QUIET_WINDOW_MS, arrives, deliveriesAfter, describeDeliveries, expectDeliveries, expectDelivery, expectQuiet, isAbout, isEvent } from '../support/deliveries.js';
import { firstLock, fixtures, lockWith, user } from '../support/fixtures.js';
import { triggerStatusCheck } from '../support/status-check.js';
import { FIELDS_LEFT_OUT, deleteRegistration, expectAccepted, ownerAndGuestListening, registerLock, registerUser, type Registration } from '../support/webhooks.js';
import { bystandersUntouched } from '../support/bystanders.js';
import { tlsProbe } from '../support/tls-probe.js';
import { lockRoleSetting, expectSentFor, userEvent, DOOR_PARTS, urlWith, expectHttpsBegun, pathAndQuery, expectSentTo, refusedLeavingOut, LOCK_ROLE_PAIRS } from './registration-checks.js';

describe('Registration bodies: each optional field left out', () => {
  conformance('WEBHOOK-LOCK-REGISTER', 'a lock registration left without an optional field, once accepted, receives the lock\'s events', { needs: ['user-token', 'capture'] }, async (t) => {
    const lock = firstLock(t);
    const session = await t.flows.userSession(0);
    await t.eachSlice('registration-fields', async (value) => {
      const inbox = await newInbox(t, { label: `lock registration, ${value}` });
      const reg = await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken, omit: FIELDS_LEFT_OUT[value]! });
      refusedLeavingOut(t, reg, value);
      await triggerStatusCheck(t, lock.lockId, session.accessToken);
      // A status check goes "to all listeners of the lock", whatever groups a registration names (or leaves to the target).
      const d = await expectDelivery(t, inbox, `a status check, registered ${value} (accepted with HTTP ${reg.response.status})`, { predicate: isAbout(lock.lockId) });
      t.expect(d.method, `registered ${value}: the delivery is an HTTP POST`).toBe('POST');
    });
  });

  conformance('WEBHOOK-USER-REGISTER', 'a user registration left without an optional field, once accepted, receives the user\'s events', { needs: ['second-user', 'capture', 'events'] }, async (t) => {
    const session = await t.flows.userSession(1);
    await t.eachSlice('registration-fields', async (value) => {
      const inbox = await newInbox(t, { label: `user registration, ${value}` });
      const reg = await registerUser(t, { inbox, accessToken: session.accessToken, omit: FIELDS_LEFT_OUT[value]! });
      refusedLeavingOut(t, reg, value);
      await userEvent(t, 1);
      const d = await expectDelivery(t, inbox, `lock_user_add for the registered user, registered ${value} (accepted with HTTP ${reg.response.status})`, { predicate: isEvent('lock_user_add') });
      t.expect(d.method, `registered ${value}: the delivery is an HTTP POST`).toBe('POST');
    });
  });
});

describe('Every lock, every actor: register, overwrite and delete', () => {
  conformance('WEBHOOK-LOCK-REGISTER', 'a registration with a query in its url works on either lock, for owner or guest', { needs: ['user-token', 'second-user', 'capture'] }, async (t) => {
    const { sessions, lockOf, checkBothLocks } = await lockRoleSetting(t);
    // Every pair at once (one registration per lock per user), each to a url with a query; then one status check per lock.
    const pairs = await Promise.all(LOCK_ROLE_PAIRS.map(async (pair) => {
      const lock = lockOf(pair.lock);
      const inbox = await newInbox(t, { label: `${pair.role} on the ${pair.lock} lock, url with a query` });
      const url = urlWith(t, inbox, 'query');
      expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox: { ...inbox, url }, accessToken: sessions[pair.role].accessToken }), `${pair.role}'s registration on the ${pair.lock} lock`);
      return { ...pair, lockId: lock.lockId, inbox, url };
    }));
    await checkBothLocks();
    for (const p of pairs) {
      await t.slice({ lock: p.lock, role: p.role }, async () => {
        const got = await expectDelivery(t, p.inbox, `a status check on the ${p.lock} lock: the ${p.role}'s registration`, { predicate: isAbout(p.lockId) });
        expectSentTo(t, got, p.url, 'query');
      });
    }
  });


  conformance('WEBHOOK-LOCK-OVERWRITE', 'registering again replaces it on either lock, for owner or guest, and without header and token', { needs: ['user-token', 'second-user', 'capture'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    const { sessions, lockOf, checkBothLocks } = await lockRoleSetting(t);
    // Every pair at once: registered to an old inbox, overwritten to a new one; then one status check per lock.
    const pairs = await Promise.all(LOCK_ROLE_PAIRS.map(async (pair) => {
      const lock = lockOf(pair.lock);
      const accessToken = sessions[pair.role].accessToken;
      const old = await newInbox(t, { label: `${pair.role} on the ${pair.lock} lock, first registration` });
      const newer = await newInbox(t, { label: `${pair.role} on the ${pair.lock} lock, second registration` });
      expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox: old, accessToken }), `${pair.role}'s first registration on the ${pair.lock} lock`);
      const second = await registerLock(t, { lockId: lock.lockId, inbox: newer, accessToken });
      expectAccepted(t, second, `${pair.role}'s second registration on the ${pair.lock} lock`);
      return { ...pair, fixture: lock, old, newer, second };
    }));
    await checkBothLocks();
    for (const p of pairs) {
      await t.slice({ lock: p.lock, role: p.role }, async () => {
        const d = await expectDelivery(t, p.newer, `a status check on the ${p.lock} lock: the ${p.role}'s second registration`, { predicate: isAbout(p.fixture.lockId) });
        expectSentFor(t, p.second, d.headers, `the ${p.role}'s delivery after re-registration`);
      });
    }
    // One quiet window for every overwritten registration: each was replaced before the checks were made.
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    for (const p of pairs) {
      await t.slice({ lock: p.lock, role: p.role }, async () => {
        const got = (await p.old.deliveries()).filter(isAbout(p.fixture.lockId));
        t.expect(got.length, `the ${p.role}'s first registration on the ${p.lock} lock, overwritten before the status check, must receive nothing; received: ${describeDeliveries(got)}`).toBe(0);
      });
    }
    // Then the bare overwrite (one registration per lock per user: after the pairs): the owner's registration on the
    // second lock, with header and token, overwritten by a body with url and clientID only.
    await t.slice({ 'registration-fields': 'bare-overwrite' }, async () => {
      const lock = lockOf('second');
      const bareOld = await newInbox(t, { label: 'owner, registration with header and token' });
      const bareNew = await newInbox(t, { label: 'owner, overwrite without header and token' });
      const withHeader = await registerLock(t, { lockId: lock.lockId, inbox: bareOld, accessToken: sessions.owner.accessToken });
      expectAccepted(t, withHeader, 'registration with header and token');
      const bare = await registerLock(t, { lockId: lock.lockId, inbox: bareNew, accessToken: sessions.owner.accessToken, omit: FIELDS_LEFT_OUT['bare-overwrite']! });
      refusedLeavingOut(t, bare, 'bare-overwrite');
      await triggerStatusCheck(t, lock.lockId, sessions.owner.accessToken);
      const d = await expectDelivery(t, bareNew, 'a status check, after an overwrite without header and token', { predicate: isAbout(lock.lockId) });
      t.expect(d.headers[withHeader.header], `after an overwrite without header and token, the earlier registration's header ${withHeader.header} must no longer be sent (calling again "overwrites it")`).toBeUndefined();
      await expectQuiet(t, bareOld, 'the registration overwritten by a body without header and token', { predicate: isAbout(lock.lockId), windowMs: QUIET_WINDOW_MS });
    });
  });

  conformance('WEBHOOK-LOCK-DELETE', 'deleting works on either lock, for its owner or a guest', { needs: ['user-token', 'second-user', 'capture'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    const { sessions, lockOf, checkBothLocks } = await lockRoleSetting(t);
    // Each pair's registration is deleted, side by side. No anchor registration: on the second lock the owner is its only
    // user, and a new registration of a pair would overwrite the one whose deletion is judged. So one status check per
    // lock, then one quiet window (what a conforming target never sends; it bounds only how late a wrong delivery is seen).
    const deleted = await Promise.all(LOCK_ROLE_PAIRS.map(async (pair) => {
      const lock = lockOf(pair.lock);
      const inbox = await newInbox(t, { label: `${pair.role} on the ${pair.lock} lock, deleted` });
      const reg = await registerLock(t, { lockId: lock.lockId, inbox, accessToken: sessions[pair.role].accessToken });
      expectAccepted(t, reg, `${pair.role}'s registration on the ${pair.lock} lock`);
      const del = await deleteRegistration(t, reg);
      return { ...pair, fixture: lock, inbox, del };
    }));
    await checkBothLocks();
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    for (const d of deleted) {
      await t.slice({ lock: d.lock, role: d.role }, async () => {
        t.expect(d.del.status < 400, `DELETE /webhook/:lockID/:clientID by the ${d.role} on the ${d.lock} lock: expected success; got HTTP ${d.del.status}`).toBe(true);
        const got = (await d.inbox.deliveries()).filter(isAbout(d.fixture.lockId));
        t.expect(got.length, `the ${d.role}'s registration on the ${d.lock} lock, deleted before the status check, must receive nothing; received: ${describeDeliveries(got)}`).toBe(0);
      });
    }
  });
});
