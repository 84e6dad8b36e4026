/**
 * Webhook receiver › Events: every row of the spec's event tables, correctly
 * signed and with the registration's custom header, is accepted (2xx), in the
 * shapes the spec gives. A receiver that refuses one loses that event: the
 * service does not retry.
 */
import { describe } from 'vitest';
import { conformance, type ReceiverBody } from '../../harness/receiver/conformance.js';
import * as ev from './support/events.js';
import { expectAccepted } from './support/verdicts.js';

type Build = (now: number) => Record<string, unknown>;

/** The body of a row's test: its sample, delivered as the service would, must be accepted. */
function accepts(build: Build): ReceiverBody {
  return async (t) => {
    const res = await t.receiver.deliver(build(Date.now()));
    expectAccepted(t, res, `${String(build(0).EventType)}/${String(build(0).Event)}`);
  };
}

/** The same, once per enumerated value the row reports (slices enum-value), each put where the row reports it. */
function acceptsEveryValue(build: Build): ReceiverBody {
  return async (t) => {
    await t.eachSlice('enum-value', async (value) => {
      const res = await t.receiver.deliver(ev.withEnumValue(build(Date.now()), value));
      expectAccepted(t, res, `${String(build(0).EventType)}/${String(build(0).Event)} reporting ${value}`);
    });
  };
}

describe('Lock events', () => {
  conformance('RECEIVER-EVENT-OPERATION-APP', 'a lock operated by app is accepted (full User, names outside ASCII), with every value the row reports', {}, acceptsEveryValue(ev.operationApp));
  conformance('RECEIVER-EVENT-OPERATION-KEYPAD', 'a lock operated by keypad is accepted (Device=keypad), with every value the row reports', {}, acceptsEveryValue(ev.operationKeypad));
  conformance('RECEIVER-EVENT-OPERATION-MANUAL', 'a lock turned manually is accepted (User carries only UserID=manualunlock), with every value the row reports', {}, acceptsEveryValue(ev.operationManual));
  conformance('RECEIVER-EVENT-DOOR-STATE', 'a door state event is accepted (User carries only UserID=DoorStateChanged), with every value the row reports', {}, acceptsEveryValue(ev.doorState));
  conformance('RECEIVER-EVENT-STATUS-CHECK', 'a status check result is accepted (EventType status), with every value the row reports', {}, acceptsEveryValue(ev.statusCheck));
  conformance('RECEIVER-EVENT-LOCK-NAME-CHANGED', 'a lock name change is accepted (the new name outside ASCII)', {}, accepts(ev.lockNameChanged));
  conformance('RECEIVER-EVENT-LOCK-BATTERY', 'a lock battery warning is accepted (lower-case userID, no User object), with every value the row reports', {}, acceptsEveryValue(ev.lockBattery));
  conformance('RECEIVER-EVENT-LOCK-CLOCK-DRIFT', 'a lock clock warning is accepted (TimestampDrifted a day ahead)', {}, accepts(ev.lockClockDrift));
  conformance('RECEIVER-EVENT-KEYPAD-PIN-MANAGED', 'a keypad PIN event is accepted (Pin, PinUser with imageInfo n/a, User), with every value the row reports', {}, acceptsEveryValue(() => ev.keypadPinManaged()));
  conformance('RECEIVER-EVENT-MASTER-PIN', 'a master PIN change is accepted (empty Pin, the masterpin user with n/a fields)', {}, accepts(ev.masterPin));
  conformance('RECEIVER-EVENT-KEYPAD-BATTERY', 'a keypad battery event is accepted (DeviceType, DeviceSerialNumber), with every value the row reports', {}, acceptsEveryValue(ev.keypadBattery));
  conformance('RECEIVER-EVENT-BRIDGE', 'a bridge offline event is accepted (LockID is an array), with every value the row reports', {}, acceptsEveryValue(ev.bridge));
  conformance('RECEIVER-EVENT-LOCK-USER-ADD', 'a user added to the lock is accepted', {}, accepts((now) => ev.membershipForLock('lock_user_add', now)));
  conformance('RECEIVER-EVENT-LOCK-USER-REMOVE', 'a user removed from the lock is accepted', {}, accepts((now) => ev.membershipForLock('lock_user_remove', now)));
  conformance('RECEIVER-EVENT-LOCK-USERTYPE-CHANGED', 'an access level change is accepted (User.UserType), with every value the row reports', {}, acceptsEveryValue((now) => ev.membershipForLock('lock_usertype_changed', now)));
  conformance('RECEIVER-EVENT-LOCK-ACCESSTYPE-CHANGED', 'an access schedule change is accepted (User.AccessType), with every value the row reports', {}, acceptsEveryValue((now) => ev.membershipForLock('lock_accesstype_changed', now)));
});

/** Each form of LockID the spec allows beyond the samples (slices lockid-form). */
const LOCKID_FORMS: Readonly<Record<string, (now: number) => Record<string, unknown>>> = {
  'lower-case-hex': (now) => ({ ...ev.operationApp(now), LockID: ev.LOCK_ID.toLowerCase() }),
  'bridge-several-locks': () => ({ ...ev.bridge(), LockID: [ev.LOCK_ID, ev.OTHER_LOCK_ID] }),
};

describe('Webhook payload fields (common)', () => {
  conformance('RECEIVER-LOCKID-FORMS', 'an event is accepted with LockID in lower-case hex, and a bridge event listing several locks', {}, async (t) => {
    await t.eachSlice('lockid-form', async (form) => {
      expectAccepted(t, await t.receiver.deliver(LOCKID_FORMS[form]!(Date.now())), `LockID form ${form}`);
    });
  });
});

describe('User events', () => {
  conformance('RECEIVER-EVENT-USER-EVENTS', 'every row of the user events table is accepted (top-level UserID, no User object)', {}, async (t) => {
    await t.eachSlice('row', async (row) => {
      expectAccepted(t, await t.receiver.deliver(ev.ROW_SAMPLES[row]!(Date.now())), row);
    });
  });
  conformance('RECEIVER-EVENT-USER-EVENTS', 'every UserType and AccessType of the user events is accepted', {}, async (t) => {
    await t.eachSlice('enum-value', async (value) => {
      const kind = value.startsWith('rule_access_') ? 'lock_accesstype_changed' : 'lock_usertype_changed';
      expectAccepted(t, await t.receiver.deliver(ev.withEnumValue(ev.membershipForUser(kind, Date.now()), value)), `${kind} reporting ${value}`);
    });
  });
});

describe('User object', () => {
  conformance('RECEIVER-IMAGEINFO-NA', 'an event whose User has imageInfo "n/a" is accepted', {}, accepts((now) => ({ ...ev.membershipForLock('lock_user_add', now), User: ev.GUEST })));
});

describe('What the spec does not show', () => {
  conformance('RECEIVER-UNKNOWN-EVENT-TYPE', 'an event of an EventType the spec does not list (lifecycle) is accepted', {}, accepts(ev.unknownEvent));
  conformance('RECEIVER-UNKNOWN-EVENT-TYPE', 'an operation.type event with an Event the spec does not list is accepted', {}, accepts((now) => ({ ...ev.operationApp(now), Event: 'unlock_by_fingerprint' })));
  conformance('RECEIVER-UNKNOWN-PIN-ACTION', 'a keypad PIN event whose Pin.action is not "intent" is accepted', {}, accepts(() => ev.keypadPinManaged('executed')));
});
