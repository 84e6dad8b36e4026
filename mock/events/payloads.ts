/**
 * Webhook payloads, one builder per row of the spec's Events tables (lock webhooks
 * and user webhooks), with exactly the field names the spec gives. Payload faults
 * are checked here, where each field is written.
 */
import { randomUUID } from 'node:crypto';
import type { FaultSet } from '../faults.js';
import type { MockLock, MockUser, World } from '../world.js';
import { DOOR_MARKER, MASTER_PIN_USER, userObject, type ManualMarker, type UserObject } from './people.js';

export interface PayloadEnv {
  world: World;
  faults: FaultSet;
  /** ctx.clock.now() at the moment the event is built. */
  now: number;
}

type Payload = Record<string, unknown>;

export function operationApp(env: PayloadEnv, lock: MockLock, state: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'operation', Event: state, Device: 'lock',
    User: userObject(env.world, actor), Timestamp: env.now, timeStamp: env.now,
  };
}

export function operationKeypad(env: PayloadEnv, lock: MockLock, state: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'operation', Event: state,
    Device: env.faults.has('keypad-op-device-lock') ? 'lock' : 'keypad',
    User: userObject(env.world, actor), Timestamp: env.now, timeStamp: env.now,
  };
}

export function operationManual(env: PayloadEnv, lock: MockLock, state: string, eventId: string): Payload {
  const marker: ManualMarker = state === 'lock' || env.faults.has('manual-marker-wrong') ? 'manuallock' : 'manualunlock';
  return {
    LockID: lock.lockId, EventType: 'operation', Event: state, Device: 'lock',
    User: { UserID: marker }, timeStamp: env.now, Timestamp: env.now, EventID: eventId,
  };
}

export function door(env: PayloadEnv, lock: MockLock, doorState: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'operation', Event: doorState, Device: 'lock',
    User: { UserID: env.faults.has('door-marker-missing') ? actor.userId : DOOR_MARKER },
    Timestamp: env.now, timeStamp: env.now,
  };
}

/** The answer to a status check: the lock's state now, to every listener of the lock. */
export function statusCheck(env: PayloadEnv, lock: MockLock, caller: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: env.faults.has('status-as-operation') ? 'operation' : 'status',
    Event: lock.state, Device: 'lock', User: userObject(env.world, caller),
  };
}

export function lockNameChanged(env: PayloadEnv, lock: MockLock, oldName: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'configuration', Event: 'lock_name_changed',
    Lock: { Name: env.faults.has('lock-name-stale') ? oldName : lock.name },
    User: userObject(env.world, actor),
  };
}

export function lockBatteryAlert(env: PayloadEnv, lock: MockLock, warningLevel: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'system', Event: 'lock_battery_alert',
    [env.faults.has('battery-field-renamed') ? 'warninglevel' : 'warningLevel']: warningLevel,
    userID: actor.firstName.toLowerCase(),
  };
}

export function lockClockDrifted(env: PayloadEnv, lock: MockLock, warningLevel: string, driftMs: number): Payload {
  return {
    LockID: lock.lockId, EventType: 'systemstatus', Event: 'lock_log_timestamp_drifted',
    warningLevel, Timestamp: env.now, TimestampDrifted: env.now + driftMs,
  };
}

export function keypadPinManaged(env: PayloadEnv, lock: MockLock, pinState: string, pinUser: MockUser, owner: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'configuration', Event: 'keypad_pin_managed',
    Lock: { Name: lock.name }, Pin: { state: pinState, action: 'intent' },
    PinUser: userObject(env.world, pinUser), User: userObject(env.world, owner),
  };
}

export function masterPinChanged(env: PayloadEnv, lock: MockLock, eventId: string): Payload {
  return {
    LockID: lock.lockId, EventType: 'configuration', Event: 'keypad_pin_managed',
    Lock: { Name: lock.name },
    Pin: env.faults.has('masterpin-pin-filled') ? { state: 'load', action: 'intent' } : {},
    PinUser: { ...MASTER_PIN_USER }, User: { ...MASTER_PIN_USER },
    timeStamp: env.now, Timestamp: env.now, EventID: eventId,
  };
}

export function keypadBattery(lock: MockLock, level: string): Payload {
  return {
    LockID: lock.lockId, EventType: 'battery', Event: level,
    DeviceType: 'keypad', DeviceSerialNumber: lock.keypadSerialNumber,
  };
}

/** LockID is an array of the bridge's locks (a string under bridge-lockid-string). */
export function bridge(env: PayloadEnv, lockIds: string[], online: string): Payload {
  return {
    LockID: env.faults.has('bridge-lockid-string') ? (lockIds[0] ?? '') : lockIds,
    EventType: 'systemstatus', Event: online,
  };
}

export type MembershipKind = 'lock_user_add' | 'lock_user_remove' | 'lock_usertype_changed' | 'lock_accesstype_changed';

/** The extra field of a membership event: UserType or AccessType, or none. */
function membershipExtra(kind: MembershipKind, value: string | undefined): Partial<Pick<UserObject, 'UserType' | 'AccessType'>> {
  if (kind === 'lock_usertype_changed') return { UserType: value ?? '' };
  if (kind === 'lock_accesstype_changed') return { AccessType: value ?? '' };
  return {};
}

/** A membership event as lock registrations receive it. */
export function membershipForLock(env: PayloadEnv, kind: MembershipKind, lock: MockLock, subject: MockUser, value: string | undefined, eventId: string): Payload {
  const extra = membershipExtra(kind, value);
  if (env.faults.has('usertype-missing')) delete extra.UserType;
  const payload: Payload = {
    LockID: lock.lockId, EventType: 'authorization', Event: kind,
    Lock: { Name: lock.name }, User: { ...userObject(env.world, subject), ...extra },
  };
  // Rows "Access level changed" and "Access schedule changed" add timeStamp, EventID, Timestamp.
  if (kind === 'lock_usertype_changed' || kind === 'lock_accesstype_changed') {
    Object.assign(payload, { timeStamp: env.now, EventID: eventId, Timestamp: env.now });
  }
  return payload;
}

/** A membership event as the affected user's user registration receives it (spec: User events). */
export function membershipForUser(env: PayloadEnv, kind: MembershipKind, lock: MockLock, subject: MockUser, value: string | undefined, eventId: string): Payload {
  const payload: Payload = {
    EventType: 'authorization', Event: kind, UserID: subject.userId, LockID: lock.lockId,
    EventID: eventId, timeStamp: env.now, Timestamp: env.now, ...membershipExtra(kind, value),
  };
  if (env.faults.has('user-event-no-eventid')) delete payload.EventID;
  return payload;
}

/**
 * The user deleted their account. The spec does not show this payload; the mock
 * sends the user-webhook shape with EventType lifecycle and Event user_deleted.
 */
export function lifecycleDeleted(env: PayloadEnv, subject: MockUser, eventId: string): Payload {
  return { EventType: 'lifecycle', Event: 'user_deleted', UserID: subject.userId, EventID: eventId, timeStamp: env.now, Timestamp: env.now };
}

/** The extraFields variant: a field no spec row names, which receivers must tolerate. */
export function withExtraField(payload: Payload): Payload {
  return { ...payload, ExtraInfo: 'lockconf-extra-field' };
}

export function newEventId(): string {
  return randomUUID();
}
