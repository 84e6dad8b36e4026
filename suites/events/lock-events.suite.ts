/**
 * Lock-webhook payloads (spec: Events → Lock events), one test per row of the
 * table: each event is triggered through the control protocol (or, for the status
 * check, through the API) and its payload checked field by field against the
 * row's schema (suites/schemas/events.ts), then against the values that were asked
 * for: the lock, the acting user, the state, the new name. Slices (issue 19):
 * every value of the row's enumeration, and every field of the row, each judged on its own.
 */
// Every test of this file leases a fixture set of its own: the sections run side by side.
import { describeLeased as describe } from '../../harness/service/conformance.js';
import { conformance } from '../../harness/service/conformance.js';
import * as S from '../schemas/events.js';
import type { SuiteContext } from '../support/context.js';
import { newInbox } from '../support/context.js';
import { QUIET_WINDOW_MS, expectDelivery, isAbout } from '../support/deliveries.js';
import { asEpochMs, emitAndCatch, expectSchema, listenToLock, operationOn, owner } from '../support/events.js';
import { firstLock, fixtures, lockWith, lockWithKeypad, sameId, user } from '../support/fixtures.js';
import { triggerStatusCheck } from '../support/status-check.js';
import { eachRow, emitAndCatchRow, expectFields, ofType } from '../support/event-slices.js';
import { deliveryOfEveryRow } from '../support/every-row.js';
import { charSample, sampleTag } from '../support/char-samples.js';
import type { Delivery } from '../../harness/contracts.js';
import { expectAccepted, registerLock } from '../support/webhooks.js';
import { expectLock, expectUser, needs, needsLooping } from './lock-event-checks.js';


/** How far TimestampDrifted - Timestamp may be from the drift reported (the lock's log and the send are not one instant). */
const DRIFT_TOLERANCE_MS = 60_000;


describe('Lock events', () => {
  conformance('EVENT-OPERATION-APP', 'lock operated by app or API: operation, Device=lock, full User object, every state', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatchRow(t, inbox, { kind: 'operation.app', lockId: lock.lockId, userId: owner(t).userId, value }, ofType('operation', 'lock'), `operation by app (${value})`);
      got.push(d);
      t.expect(d.json?.Event, `operation by app (${value}): Event must be the state the lock was set to`).toBe(value);
    });
    await expectFields(t, S.operationApp, got, 'operation by app');
    for (const d of got) {
      const body = expectSchema(t, S.operationApp, d, `operation by app (${d.json?.Event})`);
      expectLock(t, body.LockID, lock.lockId, 'operation by app');
      expectUser(t, body.User.UserID, owner(t).userId, 'operation by app');
      if (owner(t).firstName) t.expect(body.User.FirstName, 'operation by app: User.FirstName of the acting user').toBe(owner(t).firstName);
    }
  });

  // "Lock operated by keypad": on a lock with a separate keypad and on one with a keypad built in (`keypad` slices);
  // a target whose fixtures have no lock of a kind, or that refuses the trigger on it, leaves that slice not tested.
  conformance('EVENT-OPERATION-KEYPAD', 'lock operated by keypad: operation, Device=keypad, User object, every state, on either kind of keypad', needsLooping(), async (t) => {
    const got: Delivery[] = [];
    await t.eachSlice('keypad', async (kind) => {
      const lock = lockWithKeypad(t, kind);
      const inbox = await listenToLock(t, lock);
      const row = (value: string) => `operation by keypad (${value}, a lock with a ${kind} keypad)`;
      await t.eachSlice('enum-value', async (value) => {
        const d = await emitAndCatchRow(t, inbox, { kind: 'operation.keypad', lockId: lock.lockId, userId: owner(t).userId, value }, ofType('operation', 'keypad'), row(value));
        got.push(d);
        t.expect(d.json?.Event, `${row(value)}: Event must be the state the lock was set to`).toBe(value);
        const body = expectSchema(t, S.operationKeypad, d, row(value));
        expectLock(t, body.LockID, lock.lockId, row(value));
        expectUser(t, body.User.UserID, owner(t).userId, row(value));
      });
    });
    if (got.length === 0) t.notTested('no keypad operation could be triggered on a fixture lock');
    await expectFields(t, S.operationKeypad, got, 'operation by keypad');
  });

  conformance('EVENT-OPERATION-MANUAL', 'lock turned manually: User.UserID manualunlock or manuallock, timeStamp, Timestamp, EventID, every state', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    const manual = (d: Delivery) => ofType('operation', 'lock')(d) && /^manual/.test(String(d.json?.User?.UserID));
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatchRow(t, inbox, { kind: 'operation.manual', lockId: lock.lockId, value }, manual, `manual ${value}`);
      got.push(d);
      t.expect(d.json?.Event, `manual ${value}: Event must be the state the lock was turned to`).toBe(value);
      const marker = value === 'lock' ? 'manuallock' : 'manualunlock';
      t.expect(d.json?.User?.UserID, `manual ${value}: User.UserID must be ${marker} (manualunlock for unlock and unlatch, manuallock for lock)`).toBe(marker);
    });
    await expectFields(t, S.operationManual, got, 'manual operation');
    for (const d of got) expectSchema(t, S.operationManual, d, `manual ${d.json?.Event}`);
  });

  conformance('EVENT-DOOR-STATE', 'door state: operation closed/open/ajar, Device=lock, User.UserID=DoorStateChanged', needsLooping(), async (t) => {
    const lock = lockWith(t, 'doorSensor');
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    const door = (d: Delivery) => ofType('operation', 'lock')(d) && d.json?.User?.UserID === 'DoorStateChanged';
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatchRow(t, inbox, { kind: 'door', lockId: lock.lockId, value }, door, `door ${value}`);
      got.push(d);
      t.expect(d.json?.Event, `door ${value}: Event must be the door's state`).toBe(value);
    });
    await expectFields(t, S.doorState, got, 'door state');
    for (const d of got) expectSchema(t, S.doorState, d, `door ${d.json?.Event}`);
  });

  conformance('EVENT-STATUS-CHECK', 'status check result: status, a lock state, Device=lock, User object: the user who made the check, the owner or a guest', { needs: ['user-token', 'capture'] }, async (t) => {
    const lock = firstLock(t);
    const session = await t.flows.userSession(0);
    const inbox = await newInbox(t, { label: 'status' });
    expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken }));
    // "User | object | The acting or affected user": a status check's acting user is the one who made it,
    // the lock's owner or a guest on it (the owner's registration hears both: "Sent to all listeners of the lock").
    const got: Delivery[] = [];
    await t.eachSlice('role', async (role) => {
      if (role === 'guest' && !t.target.has('second-user')) t.notTested('the fixtures name no guest (second user)');
      const checker = role === 'owner' ? { userId: owner(t).userId, accessToken: session.accessToken } : { userId: user(t, 1).userId, accessToken: (await t.flows.userSession(1)).accessToken };
      const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
      const what = `the status check result of a check made by the ${role}`;
      await triggerStatusCheck(t, lock.lockId, checker.accessToken);
      const d = await expectDelivery(t, inbox, what, { predicate: (x) => !seen.has(x.seq) && isAbout(lock.lockId)(x) && x.json?.EventType !== 'operation' });
      got.push(d);
      const body = expectSchema(t, S.statusCheck, d, what);
      expectLock(t, body.LockID, lock.lockId, what);
      expectUser(t, d.json?.User?.UserID, checker.userId, what, `user who made the check (the ${role})`);
      t.observe(`Event (the state now), a check by the ${role}`, body.Event);
    });
    await expectFields(t, S.statusCheck, got, 'status check result');
  });

  conformance('EVENT-STATUS-CHECK-STATE', 'a status check reports the state the control protocol\'s last operation event set (control contract), for each state', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const session = await t.flows.userSession(0);
    const inbox = await listenToLock(t, lock);
    // Each state is set through the control protocol (the operation.* kinds set the lock's state), then checked.
    await t.eachSlice('enum-value', async (state) => {
      await emitAndCatchRow(t, inbox, { kind: 'operation.app', lockId: lock.lockId, userId: owner(t).userId, value: state }, ofType('operation', 'lock'), `operation by app (${state})`);
      const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
      await triggerStatusCheck(t, lock.lockId, session.accessToken);
      const d = await expectDelivery(t, inbox, `the status check result after the lock was set to ${state}`, { predicate: (x) => !seen.has(x.seq) && isAbout(lock.lockId)(x) && x.json?.EventType !== 'operation' });
      t.observe(`after operation.app ${state}`, d.json?.Event);
      t.expect(d.json?.Event, `status check result after the control protocol's operation.app ${state}: Event must be ${state}. This rests on the control contract (docs/control-protocol.md: "The three operation.* kinds also set the lock's state to value, so a later status check reports it"), not on the spec, which leaves transitions between states not shown`).toBe(state);
    });
  });

  conformance('EVENT-LOCK-NAME-CHANGED', 'lock name changed: configuration, Lock.Name is the new name whatever its characters, User object', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const inbox = await listenToLock(t, lock);
    const name = `Renamed ${Date.now().toString(36)}`;
    const d = await emitAndCatch(t, inbox, { kind: 'lock_name_changed', lockId: lock.lockId, userId: owner(t).userId, value: name }, 'lock_name_changed');
    await expectFields(t, S.lockNameChanged, [d], 'lock name changed');
    const body = expectSchema(t, S.lockNameChanged, d, 'lock name changed');
    t.expect(body.Lock.Name, 'lock name changed: Lock.Name must be the new name').toBe(name);
    expectLock(t, body.LockID, lock.lockId, 'lock name changed');
    expectUser(t, body.User.UserID, owner(t).userId, 'lock name changed');
    // Every character class, returned unchanged (a lock name is at most 100 characters on the mock: the long sample fits).
    await t.eachSlice('chars', async (cls) => {
      const renamed = charSample(cls, sampleTag(), 100);
      const got = await emitAndCatch(t, inbox, { kind: 'lock_name_changed', lockId: lock.lockId, userId: owner(t).userId, value: renamed }, 'lock_name_changed');
      t.expect(got.json?.Lock?.Name, `lock renamed to a name with ${cls} characters: Lock.Name must be the new name, unchanged`).toBe(renamed);
    });
    // Outer blanks: no sentence says they are kept (freedom LOCK-NAME-BLANKS): kept or trimmed, the rest unchanged.
    const padded = charSample('blanks', sampleTag(), 100);
    const got = await emitAndCatch(t, inbox, { kind: 'lock_name_changed', lockId: lock.lockId, userId: owner(t).userId, value: padded }, 'lock_name_changed');
    t.observe('a new name with outer blanks', got.json?.Lock?.Name === padded ? 'kept' : got.json?.Lock?.Name === padded.trim() ? 'trimmed' : 'other');
    t.expect([padded, padded.trim()], `lock renamed to a name with outer blanks: Lock.Name must be the new name, with its outer blanks or trimmed; got ${JSON.stringify(got.json?.Lock?.Name)}`).toContain(got.json?.Lock?.Name);
  });

  conformance('EVENT-LOCK-BATTERY', 'lock battery warning: system, lock_battery_alert, each warningLevel, a userID field (spelt in lower case)', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatch(t, inbox, { kind: 'lock_battery_alert', lockId: lock.lockId, value }, 'lock_battery_alert');
      got.push(d);
      t.expect(d.json?.warningLevel, `lock battery warning: warningLevel must be the level reported (${value})`).toBe(value);
    });
    await expectFields(t, S.lockBatteryAlert, got, 'lock battery warning');
    for (const d of got) {
      const body = expectSchema(t, S.lockBatteryAlert, d, `lock battery warning (${d.json?.warningLevel})`);
      // "userID (string, lower-case name)": the field is spelt userID (the schema requires it); its value may have capitals.
      t.observe(`userID (${body.warningLevel})`, body.userID);
    }
  });

  conformance('EVENT-LOCK-CLOCK-DRIFT', 'lock clock wrong: systemstatus, lock_log_timestamp_drifted, warningLevel, Timestamp, TimestampDrifted', needs(), async (t) => {
    const lock = firstLock(t);
    const inbox = await listenToLock(t, lock);
    // The control request needs a level; the row gives warningLevel no values, so the payload's is not compared with it.
    const level = 'lock_state_battery_warning_none';
    const got: Delivery[] = [];
    // The lock's clock in the future, then too far in the past.
    for (const drift of [3_600_000, -2 * 86_400_000]) {
      const d = await emitAndCatch(t, inbox, { kind: 'lock_log_timestamp_drifted', lockId: lock.lockId, value: level, params: { drift } }, 'lock_log_timestamp_drifted');
      got.push(d);
      const body = expectSchema(t, S.lockClockDrift, d, 'lock clock wrong');
      // The row lists no values for warningLevel: any string (the schema); what it carries is observed.
      t.observe(`warningLevel (the control request named ${level})`, body.warningLevel);
      const sent = asEpochMs(body.Timestamp);
      const drifted = asEpochMs(body.TimestampDrifted);
      t.observe(`drift ${drift} ms`, { Timestamp: body.Timestamp, TimestampDrifted: body.TimestampDrifted });
      t.expect(drifted, `lock clock wrong: TimestampDrifted ${JSON.stringify(body.TimestampDrifted)} must be a time (epoch seconds or milliseconds, or ISO 8601)`).not.toBeNull();
      const off = drifted! - (sent ?? 0) - drift;
      t.expect(Math.abs(off) <= DRIFT_TOLERANCE_MS, `lock clock wrong: TimestampDrifted - Timestamp must be the drift the lock reported (${drift} ms, within ${DRIFT_TOLERANCE_MS} ms); it is ${drifted! - (sent ?? 0)} ms`).toBe(true);
    }
    await expectFields(t, S.lockClockDrift, got, 'lock clock wrong');
  });

  // "Keypad PIN managed (app-managed PINs)": on a lock with either kind of keypad (`keypad` slices).
  conformance('EVENT-KEYPAD-PIN-MANAGED', 'keypad PIN managed: configuration, Lock.Name, Pin {state, action}, PinUser, User, every Pin.state, on either kind of keypad', needsLooping(), async (t) => {
    const got: Delivery[] = [];
    await t.eachSlice('keypad', async (kind) => {
      const lock = lockWithKeypad(t, kind);
      // The PIN's assignee must be a member of the lock: the guest on locks[0], else the owner.
      const pinUser = sameId(lock.lockId, firstLock(t).lockId) ? user(t, 1) : owner(t);
      const inbox = await listenToLock(t, lock);
      const row = (value: string) => `keypad PIN ${value} (a lock with a ${kind} keypad)`;
      await t.eachSlice('enum-value', async (value) => {
        const d = await emitAndCatch(t, inbox, { kind: 'keypad_pin_managed', lockId: lock.lockId, userId: owner(t).userId, value, params: { pinUserId: pinUser.userId } }, 'keypad_pin_managed');
        got.push(d);
        t.expect(d.json?.Pin?.state, `${row(value)}: Pin.state`).toBe(value);
        const body = expectSchema(t, S.keypadPinManaged, d, row(value));
        expectLock(t, body.LockID, lock.lockId, row(value));
        expectUser(t, body.PinUser.UserID, pinUser.userId, `${row(value)}: PinUser`, 'PIN\'s assignee');
        expectUser(t, body.User.UserID, owner(t).userId, row(value), 'owner who added it');
        if (lock.name) t.expect(body.Lock.Name, `${row(value)}: Lock.Name`).toBe(lock.name);
      });
    });
    if (got.length === 0) t.notTested('no keypad PIN event could be triggered on a fixture lock');
    await expectFields(t, S.keypadPinManaged, got, 'keypad PIN managed');
  });

  conformance('EVENT-PIN-ACTION-INTENT', 'keypad PIN managed: Pin.action is intent (the sample\'s value; others not shown), on either kind of keypad', needs(), async (t) => {
    await t.eachSlice('keypad', async (kind) => {
      const lock = lockWithKeypad(t, kind);
      const inbox = await listenToLock(t, lock, ['configuration']);
      const d = await emitAndCatch(t, inbox, { kind: 'keypad_pin_managed', lockId: lock.lockId, userId: owner(t).userId, value: 'load', params: { pinUserId: owner(t).userId } }, 'keypad_pin_managed');
      const action: unknown = d.json?.Pin?.action;
      t.observe(`Pin.action (a lock with a ${kind} keypad)`, action);
      t.expect(action, `keypad PIN managed on a lock with a ${kind} keypad: Pin.action (intent in the spec's sample)`).toBe('intent');
    });
  });

  conformance('EVENT-MASTER-PIN', 'master PIN changed: empty Pin, masterpin User and PinUser, timeStamp, Timestamp, EventID, Lock.Name when Lock is present', needs(), async (t) => {
    const lock = lockWith(t, 'builtInKeypad');
    const inbox = await listenToLock(t, lock);
    const d = await emitAndCatch(t, inbox, { kind: 'master_pin_changed', lockId: lock.lockId }, 'keypad_pin_managed');
    await expectFields(t, S.masterPinChanged, [d], 'master PIN changed');
    const body = expectSchema(t, S.masterPinChanged, d, 'master PIN changed');
    // The row does not list Lock (freedom MASTER-PIN-LOCK): when present, its Name is the lock's.
    t.observe('Lock', body.Lock === undefined ? 'absent' : 'present');
    if (lock.name && body.Lock !== undefined) t.expect(body.Lock.Name, 'master PIN changed: Lock.Name').toBe(lock.name);
  });

  // "Keypad battery" ("Batteries low in the lock or its keypad"): the keypad of a lock with a separate keypad and of one
  // with a keypad built in (`keypad` slices); a target whose fixtures have no lock of a kind leaves that slice not tested.
  conformance('EVENT-KEYPAD-BATTERY', 'keypad battery: battery, keypad_battery_*, DeviceType=keypad, DeviceSerialNumber, on either kind of keypad', needsLooping(), async (t) => {
    const got: Delivery[] = [];
    await t.eachSlice('keypad', async (kind) => {
      const lock = lockWithKeypad(t, kind);
      const inbox = await listenToLock(t, lock);
      const row = (value: string) => `keypad battery ${value} (a lock with a ${kind} keypad)`;
      await t.eachSlice('enum-value', async (value) => {
        const d = await emitAndCatchRow(t, inbox, { kind: 'keypad_battery', lockId: lock.lockId, value }, ofType('battery'), row(value));
        got.push(d);
        t.expect(d.json?.Event, `${row(value)}: Event must be the level reported`).toBe(value);
        const body = expectSchema(t, S.keypadBattery, d, row(value));
        expectLock(t, body.LockID, lock.lockId, row(value));
      });
    });
    if (got.length === 0) t.notTested('no keypad battery event could be triggered on a fixture lock');
    await expectFields(t, S.keypadBattery, got, 'keypad battery');
  });

  conformance('EVENT-BRIDGE', 'bridge online/offline: systemstatus, LockID is an array of lock identifiers', needsLooping(), async (t) => {
    const lock = lockWith(t, 'bridgeId');
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    const bridgeEvent = (d: Delivery) => ofType('systemstatus')(d) && d.json?.Event !== 'lock_log_timestamp_drifted';
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatchRow(t, inbox, { kind: 'bridge', lockId: lock.lockId, value }, bridgeEvent, `bridge ${value}`);
      got.push(d);
      t.expect(d.json?.Event, `bridge ${value}: Event must be the bridge's state`).toBe(value);
    });
    await expectFields(t, S.bridge, got, 'bridge online/offline');
    for (const d of got) {
      const body = expectSchema(t, S.bridge, d, `bridge ${d.json?.Event}`);
      t.expect(body.LockID.some((id) => sameId(id, lock.lockId)), `bridge ${body.Event}: the LockID array must hold the lock (${lock.lockId})`).toBe(true);
    }
  });

  conformance('EVENT-LOCK-USER-ADD', 'user added to lock: authorization, lock_user_add, Lock.Name, User object', needs(), async (t) => {
    const lock = firstLock(t);
    const subject = user(t, 1);
    const inbox = await listenToLock(t, lock);
    const d = await emitAndCatch(t, inbox, { kind: 'lock_user_add', lockId: lock.lockId, userId: subject.userId }, 'lock_user_add');
    await expectFields(t, S.lockUserAdd, [d], 'user added to lock');
    const body = expectSchema(t, S.lockUserAdd, d, 'user added to lock');
    expectUser(t, body.User.UserID, subject.userId, 'user added to lock', 'user added');
    if (lock.name) t.expect(body.Lock.Name, 'user added to lock: Lock.Name').toBe(lock.name);
  });

  conformance('EVENT-LOCK-USER-REMOVE', 'user removed from lock: authorization, lock_user_remove, Lock.Name, User object', needs(), async (t) => {
    const lock = firstLock(t);
    const subject = user(t, 1);
    const inbox = await listenToLock(t, lock);
    const d = await emitAndCatch(t, inbox, { kind: 'lock_user_remove', lockId: lock.lockId, userId: subject.userId }, 'lock_user_remove');
    await expectFields(t, S.lockUserRemove, [d], 'user removed from lock');
    const body = expectSchema(t, S.lockUserRemove, d, 'user removed from lock');
    expectUser(t, body.User.UserID, subject.userId, 'user removed from lock', 'user removed');
    if (lock.name) t.expect(body.Lock.Name, 'user removed from lock: Lock.Name').toBe(lock.name);
  });

  conformance('EVENT-LOCK-USERTYPE-CHANGED', 'access level changed: User.UserType, timeStamp, EventID, Timestamp, every level', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const subject = user(t, 1);
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatch(t, inbox, { kind: 'lock_usertype_changed', lockId: lock.lockId, userId: subject.userId, value }, 'lock_usertype_changed');
      got.push(d);
      t.expect(d.json?.User?.UserType, `access level changed to ${value}: User.UserType`).toBe(value);
    });
    await expectFields(t, S.lockUsertypeChanged, got, 'access level changed');
    for (const d of got) {
      const body = expectSchema(t, S.lockUsertypeChanged, d, `access level changed to ${d.json?.User?.UserType}`);
      expectUser(t, body.User.UserID, subject.userId, 'access level changed', 'user whose level changed');
    }
  });

  conformance('EVENT-LOCK-ACCESSTYPE-CHANGED', 'access schedule changed: User.AccessType, timeStamp, EventID, Timestamp, every schedule', needsLooping(), async (t) => {
    const lock = firstLock(t);
    const subject = user(t, 1);
    const inbox = await listenToLock(t, lock);
    const got: Delivery[] = [];
    await t.eachSlice('enum-value', async (value) => {
      const d = await emitAndCatch(t, inbox, { kind: 'lock_accesstype_changed', lockId: lock.lockId, userId: subject.userId, value }, 'lock_accesstype_changed');
      got.push(d);
      t.expect(d.json?.User?.AccessType, `access schedule changed to ${value}: User.AccessType`).toBe(value);
    });
    await expectFields(t, S.lockAccesstypeChanged, got, 'access schedule changed');
    for (const d of got) {
      const body = expectSchema(t, S.lockAccesstypeChanged, d, `access schedule changed to ${d.json?.User?.AccessType}`);
      expectUser(t, body.User.UserID, subject.userId, 'access schedule changed', 'user whose schedule changed');
    }
  });
});

describe('Registration groups and common fields', () => {
  // Observed (the payload is not shown), on a lock of each kind of keypad the fixtures have: "by PIN, fingerprint, RFID
  // and the like" names no kind of lock.
  conformance('EVENT-OPERATION-TYPE', 'what an operation.type registration receives (payload not shown), on either kind of keypad', needs(), async (t) => {
    const { control } = t;
    const kinds = [{ kind: 'separate', flag: 'keypad' }, { kind: 'built-in', flag: 'builtInKeypad' }] as const;
    let observed = 0;
    for (const { kind, flag } of kinds) {
      const lock = fixtures(t).locks.find((l) => Boolean(l[flag]));
      if (!lock) continue;
      const inbox = await listenToLock(t, lock, ['operation.type']);
      await control!.emit({ kind: 'operation.app', lockId: lock.lockId, userId: owner(t).userId, value: 'unlock' });
      await control!.emit({ kind: 'operation.keypad', lockId: lock.lockId, userId: owner(t).userId, value: 'lock' });
      const got = await inbox.collectFor(QUIET_WINDOW_MS * 2);
      t.observe(`deliveries to an operation.type registration after an app unlock and a keypad lock (a lock with a ${kind} keypad)`, got.map((d) => d.json ?? d.bodyText.slice(0, 200)));
      observed += 1;
    }
    if (observed === 0) t.notTested('no fixture lock has a keypad (GET /fixtures: keypad, builtInKeypad)');
  });

  conformance('EVENT-TIMESTAMP-UNITS', 'Timestamp and timeStamp are epoch milliseconds (as in the samples), on every row that carries them', needs(), async (t) => {
    const rows = await deliveryOfEveryRow(t);
    const now = await t.targetNow();
    const unit = (v: number) => Math.abs(v - now) < 86_400_000 ? 'ms' : Math.abs(v * 1000 - now) < 86_400_000 ? 's' : 'neither (far from the target clock)';
    await eachRow(t, rows, ({ id, delivery }) => {
      // A value that is not a number is the row's own requirement's (its field's type): only the unit is judged here.
      const stamps = (['Timestamp', 'timeStamp'] as const).map((field) => ({ field, value: delivery.json?.[field] as unknown })).filter((s) => typeof s.value === 'number');
      if (stamps.length === 0) t.notTested(`the ${id} delivery carries no numeric Timestamp or timeStamp (their presence and type are the row's own requirement)`);
      for (const { field, value } of stamps) {
        t.observe(`${id} ${field}`, { value, unit: unit(value as number) });
        t.expect(unit(value as number), `${id}: ${field} ${JSON.stringify(value)} should be epoch milliseconds, within a day of the target's clock (${now})`).toBe('ms');
      }
    });
  });

  conformance('EVENT-TIMESTAMP-ORDER', 'operation events: Timestamp (on the lock) is not after timeStamp (sent)', needs(), async (t) => {
    const lock = lockWith(t, 'keypad');
    const inbox = await listenToLock(t, lock);
    const rows = [
      { request: { kind: 'operation.app', lockId: lock.lockId, userId: owner(t).userId, value: 'unlock' }, event: 'unlock' },
      { request: { kind: 'operation.keypad', lockId: lock.lockId, userId: owner(t).userId, value: 'lock' }, event: 'lock' },
      { request: { kind: 'operation.manual', lockId: lock.lockId, value: 'unlatch' }, event: 'unlatch' },
    ];
    for (const { request, event } of rows) {
      const d = await emitAndCatch(t, inbox, request, event);
      const happened: unknown = d.json?.Timestamp;
      const sent: unknown = d.json?.timeStamp;
      t.observe(request.kind, { Timestamp: happened, timeStamp: sent });
      // Only where both are present: the rows that list them (manual operations) are judged there.
      if (typeof happened !== 'number' || typeof sent !== 'number') continue;
      t.expect(happened <= sent, `${request.kind} ${event}: Timestamp (${happened}, when it happened on the lock) should not be after timeStamp (${sent}, when the webhook was sent)`).toBe(true);
    }
  });
});
