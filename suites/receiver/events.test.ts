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

describe('Lock events', () => {
  conformance('RECEIVER-EVENT-OPERATION-APP', 'a lock operated by app is accepted (full User, names outside ASCII)', {}, accepts(ev.operationApp));
  conformance('RECEIVER-EVENT-OPERATION-KEYPAD', 'a lock operated by keypad is accepted (Device=keypad)', {}, accepts(ev.operationKeypad));
  conformance('RECEIVER-EVENT-OPERATION-MANUAL', 'a lock turned manually is accepted (User carries only UserID=manualunlock)', {}, accepts(ev.operationManual));
  conformance('RECEIVER-EVENT-DOOR-STATE', 'a door state event is accepted (User carries only UserID=DoorStateChanged)', {}, accepts(ev.doorState));
  conformance('RECEIVER-EVENT-STATUS-CHECK', 'a status check result is accepted (EventType status)', {}, accepts(ev.statusCheck));
  conformance('RECEIVER-EVENT-LOCK-NAME-CHANGED', 'a lock name change is accepted (the new name outside ASCII)', {}, accepts(ev.lockNameChanged));
  conformance('RECEIVER-EVENT-LOCK-BATTERY', 'a lock battery warning is accepted (lower-case userID, no User object)', {}, accepts(ev.lockBattery));
  conformance('RECEIVER-EVENT-LOCK-CLOCK-DRIFT', 'a lock clock warning is accepted (TimestampDrifted a day ahead)', {}, accepts(ev.lockClockDrift));
  conformance('RECEIVER-EVENT-KEYPAD-PIN-MANAGED', 'a keypad PIN event is accepted (Pin, PinUser with imageInfo n/a, User)', {}, accepts(() => ev.keypadPinManaged()));
  conformance('RECEIVER-EVENT-MASTER-PIN', 'a master PIN change is accepted (empty Pin, the masterpin user with n/a fields)', {}, accepts(ev.masterPin));
  conformance('RECEIVER-EVENT-KEYPAD-BATTERY', 'a keypad battery event is accepted (DeviceType, DeviceSerialNumber)', {}, accepts(ev.keypadBattery));
  conformance('RECEIVER-EVENT-BRIDGE', 'a bridge offline event is accepted (LockID is an array)', {}, accepts(ev.bridge));
  conformance('RECEIVER-EVENT-LOCK-USER-ADD', 'a user added to the lock is accepted', {}, accepts((now) => ev.membershipForLock('lock_user_add', now)));
  conformance('RECEIVER-EVENT-LOCK-USER-REMOVE', 'a user removed from the lock is accepted', {}, accepts((now) => ev.membershipForLock('lock_user_remove', now)));
  conformance('RECEIVER-EVENT-LOCK-USERTYPE-CHANGED', 'an access level change is accepted (User.UserType)', {}, accepts((now) => ev.membershipForLock('lock_usertype_changed', now)));
  conformance('RECEIVER-EVENT-LOCK-ACCESSTYPE-CHANGED', 'an access schedule change is accepted (User.AccessType)', {}, accepts((now) => ev.membershipForLock('lock_accesstype_changed', now)));
});

describe('User events', () => {
  conformance('RECEIVER-EVENT-USER-EVENTS', 'lock_user_add is accepted (top-level UserID, no User object)', {}, accepts((now) => ev.membershipForUser('lock_user_add', now)));
  conformance('RECEIVER-EVENT-USER-EVENTS', 'lock_user_remove is accepted (top-level UserID, no User object)', {}, accepts((now) => ev.membershipForUser('lock_user_remove', now)));
  conformance('RECEIVER-EVENT-USER-EVENTS', 'lock_usertype_changed is accepted (top-level UserID, UserType)', {}, accepts((now) => ev.membershipForUser('lock_usertype_changed', now)));
  conformance('RECEIVER-EVENT-USER-EVENTS', 'lock_accesstype_changed is accepted (top-level UserID, AccessType)', {}, accepts((now) => ev.membershipForUser('lock_accesstype_changed', now)));
});

describe('User object', () => {
  conformance('RECEIVER-IMAGEINFO-NA', 'an event whose User has imageInfo "n/a" is accepted', {}, accepts((now) => ({ ...ev.membershipForLock('lock_user_add', now), User: ev.GUEST })));
});

describe('What the spec does not show', () => {
  conformance('RECEIVER-UNKNOWN-EVENT-TYPE', 'an event of an EventType the spec does not list (lifecycle) is accepted', {}, accepts(ev.unknownEvent));
  conformance('RECEIVER-UNKNOWN-EVENT-TYPE', 'an operation.type event with an Event the spec does not list is accepted', {}, accepts((now) => ({ ...ev.operationApp(now), Event: 'unlock_by_fingerprint' })));
  conformance('RECEIVER-UNKNOWN-PIN-ACTION', 'a keypad PIN event whose Pin.action is not "intent" is accepted', {}, accepts(() => ev.keypadPinManaged('executed')));
});
