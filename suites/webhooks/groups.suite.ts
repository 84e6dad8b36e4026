/**
 * Registration groups (spec: Events → Registration groups (notificationTypes)): a
 * registration naming one group alone receives each event of that group. Which
 * events a group holds is read from the group's meaning; where the spec does not
 * show a payload (operation.type, lifecycle) only the delivery's arrival is judged.
 *
 * Each test also emits, first, one event of a group plainly not asked for; once the
 * group's own events have arrived (the anchor), that event must not have (SHOULD:
 * WEBHOOK-NOTIFICATION-FILTER).
 */
// Every test of this file leases a fixture set of its own: the sections run side by side.
import { describeLeased as describe } from '../../harness/service/conformance.js';
import type { Capability } from '../../harness/catalog/index.js';
import type { ControlEvent, FixtureLock, Inbox } from '../../harness/contracts.js';
import { conformance } from '../../harness/service/conformance.js';
import type { SuiteContext } from '../support/context.js';
import { control, newInbox } from '../support/context.js';
import { LOOPING_TEST_TIMEOUT_MS, expectDelivery, expectQuiet, isAbout, isEvent, type Predicate } from '../support/deliveries.js';
import { firstLock, lockWith, user } from '../support/fixtures.js';
import { triggerStatusCheck } from '../support/status-check.js';
import { KEYPAD_EVENTS, expectAccepted, groupRequirement, registerLock, registerUser } from '../support/webhooks.js';

/** One event of the group: how to make it happen, and which delivery is it. */
interface Trigger {
  what: string;
  lock: FixtureLock | null;
  /** A control event, or 'status-check' (the API's status check, made by the registering user). */
  fire: ControlEvent | 'status-check';
  /** The delivery that is this event; null: any delivery that is not the foreign event (payload not shown). */
  event: string | null;
  /** The row of the Events tables it is (the slice dimension `row`). */
  row: string;
}

interface GroupCase {
  group: string;
  /** 'lock': users[0] registers each lock the triggers name; 'user': users[1] registers its user webhook. */
  kind: 'lock' | 'user';
  triggers: (t: SuiteContext) => Trigger[];
  /** An event of another group, emitted first, that this registration should not receive. */
  foreign: ((t: SuiteContext) => { request: ControlEvent; event: string }) | null;
}

const QUIET_AFTER_ANCHOR_MS = 150;

const ev = (what: string, lock: FixtureLock, fire: Omit<ControlEvent, 'lockId'>, event: string | null, row: string): Trigger => ({
  what, lock, fire: { ...fire, lockId: lock.lockId }, event, row,
});

const renamed = (t: SuiteContext) => ({ request: { kind: 'lock_name_changed', lockId: firstLock(t).lockId, userId: user(t, 0).userId, value: `Not asked ${Date.now().toString(36)}` }, event: 'lock_name_changed' });
const batteryLow = (t: SuiteContext) => ({ request: { kind: 'lock_battery_alert', lockId: firstLock(t).lockId, value: 'lock_state_battery_warning_1week' }, event: 'lock_battery_alert' });

async function runGroup(t: SuiteContext, c: GroupCase): Promise<void> {
  const triggers = c.triggers(t);
  const owner = c.kind === 'lock' ? await t.flows.userSession(0) : null;
  const inboxes = new Map<string, Inbox>();
  if (c.kind === 'lock') {
    for (const lock of [...new Map(triggers.map((x) => [x.lock!.lockId, x.lock!])).values()]) {
      const inbox = await newInbox(t, { label: `${c.group} alone, ${lock.name ?? lock.lockId}` });
      expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: owner!.accessToken, notificationTypes: [c.group] }), `registration naming ${c.group} alone`);
      inboxes.set(lock.lockId, inbox);
    }
  } else {
    const session = await t.flows.userSession(1);
    const inbox = await newInbox(t, { label: `${c.group} alone (user)` });
    expectAccepted(t, await registerUser(t, { inbox, accessToken: session.accessToken, notificationTypes: [c.group] }), `user registration naming ${c.group} alone`);
    inboxes.set('user', inbox);
  }
  const inboxFor = (x: Trigger) => inboxes.get(c.kind === 'user' ? 'user' : x.lock!.lockId) ?? [...inboxes.values()][0]!;

  const foreign = c.foreign?.(t) ?? null;
  const foreignInbox = foreign ? (c.kind === 'user' ? inboxes.get('user') : inboxes.get(foreign.request.lockId ?? '')) : undefined;
  const isForeign: Predicate = foreign ? isEvent(foreign.event) : () => false;
  if (foreign) await control(t).emit(foreign.request);

  // One slice per row of the group (harness/catalog/slices: WEBHOOK-GROUP-* over `row`), each with its events.
  for (const row of [...new Set(triggers.map((x) => x.row))]) {
    await t.slice({ row }, async () => {
      for (const x of triggers.filter((y) => y.row === row)) {
        const inbox = inboxFor(x);
        const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
        if (x.fire === 'status-check') await triggerStatusCheck(t, x.lock!.lockId, owner!.accessToken);
        else await control(t).emit(x.fire);
        const about: Predicate = x.lock ? isAbout(x.lock.lockId) : () => true;
        const matches: Predicate = (d) => !seen.has(d.seq) && !isForeign(d) && (x.event === null ? true : isEvent(x.event)(d) && about(d));
        // A keypad's event that never arrives may be WEBHOOK-KEYPAD-VIA-LOCK's failure, not the filter's.
        // So may one on a lock of several this user registered: WEBHOOK-LOCK-PER-LOCK's.
        const keypad = x.fire !== 'status-check' && KEYPAD_EVENTS.has(x.fire.kind);
        const also = [...(keypad ? ['WEBHOOK-KEYPAD-VIA-LOCK'] : []), ...(c.kind === 'lock' && inboxes.size > 1 ? ['WEBHOOK-LOCK-PER-LOCK'] : [])];
        const got = await expectDelivery(t, inbox, `a registration naming ${c.group} alone, after ${x.what}`, {
          predicate: matches,
          ...(also.length ? { restsOn: [groupRequirement(c.group), ...also] } : {}),
        });
        t.expect(got, `a registration naming ${c.group} alone, after ${x.what}: its delivery`).toBeDefined();
      }
    });
  }

  if (foreign && foreignInbox) {
    await t.check('WEBHOOK-NOTIFICATION-FILTER', async () => {
      await expectQuiet(t, foreignInbox, `a registration naming ${c.group} alone, after ${foreign.request.kind} (not of that group; its own events have arrived since)`, { predicate: isForeign, windowMs: QUIET_AFTER_ANCHOR_MS });
    });
  }
}

const lockNeeds = (): { needs: Capability[]; timeout: number } => ({ needs: ['user-token', 'capture', 'events'], timeout: LOOPING_TEST_TIMEOUT_MS });
const userNeeds = (): { needs: Capability[]; timeout: number } => ({ needs: ['second-user', 'capture', 'events'], timeout: LOOPING_TEST_TIMEOUT_MS });

describe('Registration groups (notificationTypes)', () => {
  conformance('WEBHOOK-GROUP-OPERATION', 'operation alone: locked, unlocked, unlatched, status checked, door opened or closed', lockNeeds(), (t) => runGroup(t, {
    group: 'operation', kind: 'lock', foreign: batteryLow,
    triggers: (t) => {
      const lock = lockWith(t, 'doorSensor');
      const u = user(t, 0).userId;
      return [
        ...(['lock', 'unlock', 'unlatch'] as const).map((v) => ev(`an app ${v}`, lock, { kind: 'operation.app', userId: u, value: v }, v, 'operation_app')),
        ...(['unlock', 'lock'] as const).map((v) => ev(`a manual ${v}`, lock, { kind: 'operation.manual', value: v }, v, 'operation_manual')),
        ...(['open', 'ajar', 'closed'] as const).map((v) => ev(`door ${v}`, lock, { kind: 'door', value: v }, v, 'door_state')),
        { what: 'a status check', lock, fire: 'status-check', event: null, row: 'status_check' },
      ];
    },
  }));

  conformance('WEBHOOK-GROUP-OPERATION-TYPE', 'operation.type alone: locked or unlocked by PIN (keypad)', lockNeeds(), (t) => runGroup(t, {
    group: 'operation.type', kind: 'lock', foreign: renamed,
    triggers: (t) => {
      const lock = lockWith(t, 'keypad');
      // The payload of operation.type events is not shown: any delivery counts.
      return (['lock', 'unlock'] as const).map((v) => ev(`a keypad ${v}`, lock, { kind: 'operation.keypad', userId: user(t, 0).userId, value: v }, null, 'operation_keypad'));
    },
  }));

  conformance('WEBHOOK-GROUP-CONFIGURATION', 'configuration alone: lock renamed, keypad PIN managed, master PIN changed', lockNeeds(), (t) => runGroup(t, {
    group: 'configuration', kind: 'lock', foreign: batteryLow,
    triggers: (t) => {
      const keypad = lockWith(t, 'keypad');
      const u = user(t, 0).userId;
      return [
        ev('a lock rename', keypad, { kind: 'lock_name_changed', userId: u, value: `Group ${Date.now().toString(36)}` }, 'lock_name_changed', 'lock_name_changed'),
        ...(['load', 'delete'] as const).map((v) => ev(`a keypad PIN ${v}`, keypad, { kind: 'keypad_pin_managed', userId: u, value: v, params: { pinUserId: u } }, 'keypad_pin_managed', 'keypad_pin_managed')),
        ev('a master PIN change', lockWith(t, 'builtInKeypad'), { kind: 'master_pin_changed' }, 'keypad_pin_managed', 'master_pin_changed'),
      ];
    },
  }));

  conformance('WEBHOOK-GROUP-BATTERY', 'battery alone: lock battery warning and keypad battery', lockNeeds(), (t) => runGroup(t, {
    group: 'battery', kind: 'lock', foreign: renamed,
    triggers: (t) => [
      ev('a lock battery warning', firstLock(t), { kind: 'lock_battery_alert', value: 'lock_state_battery_warning_2day' }, 'lock_battery_alert', 'lock_battery_alert'),
      ev('a keypad battery warning', lockWith(t, 'keypad'), { kind: 'keypad_battery', value: 'keypad_battery_critical' }, 'keypad_battery_critical', 'keypad_battery'),
    ],
  }));

  conformance('WEBHOOK-GROUP-SYSTEMSTATUS', 'systemstatus alone: went offline, came online', lockNeeds(), (t) => runGroup(t, {
    group: 'systemstatus', kind: 'lock', foreign: renamed,
    triggers: (t) => (['offline', 'online'] as const).map((v) => ev(`the bridge going ${v}`, lockWith(t, 'bridgeId'), { kind: 'bridge', value: v }, v, 'bridge')),
  }));

  conformance('WEBHOOK-GROUP-ACCESSMGMT', 'accessmgmt alone: user added, removed, access level and schedule changed', lockNeeds(), (t) => runGroup(t, {
    group: 'accessmgmt', kind: 'lock', foreign: renamed,
    triggers: (t) => {
      const lock = firstLock(t);
      const guest = user(t, 1).userId;
      return [
        ev('a user added', lock, { kind: 'lock_user_add', userId: guest }, 'lock_user_add', 'lock_user_add'),
        ev('a user removed', lock, { kind: 'lock_user_remove', userId: guest }, 'lock_user_remove', 'lock_user_remove'),
        ev('an access level change', lock, { kind: 'lock_usertype_changed', userId: guest, value: 'superuser' }, 'lock_usertype_changed', 'lock_usertype_changed'),
        ev('an access schedule change', lock, { kind: 'lock_accesstype_changed', userId: guest, value: 'rule_access_temporary' }, 'lock_accesstype_changed', 'lock_accesstype_changed'),
      ];
    },
  }));

  conformance('WEBHOOK-GROUP-LOCKMEMBERSHIP', 'lockmembership alone (user webhook): added to and removed from a lock', userNeeds(), (t) => runGroup(t, {
    group: 'lockmembership', kind: 'user', foreign: null,
    triggers: (t) => {
      const guest = user(t, 1).userId;
      return [
        ev('the user added to a lock', firstLock(t), { kind: 'lock_user_add', userId: guest }, 'lock_user_add', 'user.lock_user_add'),
        ev('the user removed from a lock', firstLock(t), { kind: 'lock_user_remove', userId: guest }, 'lock_user_remove', 'user.lock_user_remove'),
      ];
    },
  }));

  conformance('WEBHOOK-GROUP-LIFECYCLE', 'lifecycle alone (user webhook): the user deleted the account', userNeeds(), (t) => runGroup(t, {
    group: 'lifecycle', kind: 'user',
    foreign: (t) => ({ request: { kind: 'lock_user_add', lockId: firstLock(t).lockId, userId: user(t, 1).userId }, event: 'lock_user_add' }),
    // The payload of lifecycle events is not shown: any delivery that is not the foreign event counts.
    triggers: (t) => [{ what: 'the user deleting the account', lock: null, fire: { kind: 'lifecycle.deleted', userId: user(t, 1).userId }, event: null, row: 'user.lifecycle' }],
  }));
});
