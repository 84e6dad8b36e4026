/**
 * Webhook payloads, one builder per row of the spec's Events tables (lock webhooks
 * and user webhooks), with exactly the field names the spec gives. Payload faults
 * are checked here, where each field is written.
 */
import { randomUUID } from 'node:crypto';
import type { FaultSet } from '../faults.js';
import type { FreedomSet } from '../freedoms.js';
import type { SliceBreakId } from '../slice-faults.js';
import { roleOn, type MockLock, type MockUser, type World } from '../world.js';
import { PAYLOAD_REQUIREMENT } from './rows.js';
import { charClasses, mangle } from '../webhooks/chars.js';
import { DOOR_MARKER, MASTER_PIN_USER, userObject, type ManualMarker, type UserObject } from './people.js';
import { PIN_STATES } from './kinds.js';

export interface PayloadEnv {
  world: World;
  faults: FaultSet;
  /** ctx.clock.now() at the moment the event is built. */
  now: number;
  /** The freeSystemValues variant (MockOptions): values the system rows leave open, chosen otherwise. */
  freeSystemValues?: boolean;
  /** The legal alternatives chosen (mock/freedoms.ts); none when absent. */
  freedoms?: FreedomSet;
}

/**
 * The User object of every row but the app operation's ("User object with full fields"): the full object, or
 * under the freedom USER-OBJECT-FIELDS=user-id-only UserID alone (the row's own UserType or AccessType is added by the caller).
 */
function eventUser(env: PayloadEnv, user: MockUser): UserObject | Pick<UserObject, 'UserID'> {
  if (env.freedoms?.chooses('USER-OBJECT-FIELDS', 'user-id-only')) return { UserID: user.userId };
  return userObject(env.world, user);
}

/** freeSystemValues: the clock row's warningLevel, whatever level the control request named (the row lists no values). */
export const FREE_CLOCK_WARNING_LEVEL = 'clock_warning';

type Payload = Record<string, unknown>;

/** A Timestamp / timeStamp value: epoch ms (epoch seconds under timestamps-in-seconds). */
function stamp(env: PayloadEnv, ms = env.now): number {
  return env.faults.has('timestamps-in-seconds') ? Math.floor(ms / 1000) : ms;
}

/** Timestamp (event on the lock) and timeStamp (sent) of an operation event; timestamp-after-send swaps their order. */
function operationTimes(env: PayloadEnv): { Timestamp: number; timeStamp: number } {
  const happened = env.faults.has('timestamp-after-send') ? env.now + 60_000 : env.now;
  return { Timestamp: stamp(env, happened), timeStamp: stamp(env) };
}

export function operationApp(env: PayloadEnv, lock: MockLock, state: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'operation', Event: state, Device: 'lock',
    User: env.faults.has('app-op-user-partial') ? partialUser(env, actor) : userObject(env.world, actor), ...operationTimes(env),
  };
}

/** The kind of keypad a lock has (the slice dimension `keypad`): one built into the lock, or a separate one. */
export function keypadKind(lock: MockLock): 'built-in' | 'separate' {
  return lock.builtInKeypad ? 'built-in' : 'separate';
}

export function operationKeypad(env: PayloadEnv, lock: MockLock, state: string, actor: MockUser): Payload {
  // EVENT-OPERATION-KEYPAD@keypad=<kind>: on a lock with that kind of keypad, the keypad's operation is reported as the app's.
  const asApp = env.faults.has('keypad-op-device-lock') || env.faults.breaks('EVENT-OPERATION-KEYPAD', { keypad: keypadKind(lock) });
  return {
    LockID: lock.lockId, EventType: 'operation', Event: state,
    Device: asApp ? 'lock' : 'keypad',
    User: eventUser(env, actor), ...operationTimes(env),
  };
}

export function operationManual(env: PayloadEnv, lock: MockLock, state: string, eventId: string): Payload {
  const wrong = env.faults.has('manual-marker-wrong') || (state === 'unlatch' && env.faults.has('manual-unlatch-marker-wrong'));
  const marker: ManualMarker = state === 'lock' || wrong ? 'manuallock' : 'manualunlock';
  const { Timestamp, timeStamp } = operationTimes(env);
  return {
    LockID: lock.lockId, EventType: 'operation', Event: state, Device: 'lock',
    User: { UserID: marker }, timeStamp, Timestamp, EventID: eventId,
  };
}

export function door(env: PayloadEnv, lock: MockLock, doorState: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'operation', Event: doorState, Device: 'lock',
    User: { UserID: env.faults.has('door-marker-missing') ? actor.userId : DOOR_MARKER },
    ...operationTimes(env),
  };
}

/** The answer to a status check: the lock's state now, to every listener of the lock. */
export function statusCheck(env: PayloadEnv, lock: MockLock, caller: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: env.faults.has('status-as-operation') ? 'operation' : 'status',
    Event: env.faults.has('status-state-stale') ? 'lock' : lock.state, Device: 'lock', User: eventUser(env, caller),
  };
}

export function lockNameChanged(env: PayloadEnv, lock: MockLock, oldName: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'configuration', Event: 'lock_name_changed',
    // Slice faults: the name mangled the way a careless service mangles that character class.
    Lock: { Name: env.faults.has('lock-name-stale') ? oldName : mangle(lock.name, charClasses(lock.name), (cls) => env.faults.breaks('EVENT-LOCK-NAME-CHANGED', { chars: cls })) },
    User: eventUser(env, actor),
  };
}

export function lockBatteryAlert(env: PayloadEnv, lock: MockLock, warningLevel: string, actor: MockUser): Payload {
  return {
    LockID: lock.lockId, EventType: 'system', Event: 'lock_battery_alert',
    [env.faults.has('battery-field-renamed') ? 'warninglevel' : 'warningLevel']:
      warningLevel === 'lock_state_battery_warning_2day' && env.faults.has('battery-level-2day-wrong') ? 'lock_state_battery_warning_1week' : warningLevel,
    // "userID (string, lower-case name)": the field's spelling; freeSystemValues keeps the name's capitals.
    [env.faults.has('battery-userid-field-renamed') ? 'UserID' : 'userID']: env.freeSystemValues ? actor.firstName : actor.firstName.toLowerCase(),
  };
}

export function lockClockDrifted(env: PayloadEnv, lock: MockLock, warningLevel: string, driftMs: number): Payload {
  return {
    LockID: lock.lockId, EventType: 'systemstatus', Event: 'lock_log_timestamp_drifted',
    warningLevel: env.freeSystemValues ? FREE_CLOCK_WARNING_LEVEL : warningLevel, Timestamp: stamp(env), TimestampDrifted: stamp(env, env.faults.has('clock-drift-ignored') ? env.now : env.now + driftMs),
  };
}

export function keypadPinManaged(env: PayloadEnv, lock: MockLock, pinState: string, pinUser: MockUser, owner: MockUser): Payload {
  // EVENT-KEYPAD-PIN-MANAGED@keypad=<kind>: on a lock with that kind of keypad, every Pin.state is reported as the next one.
  const shifted = env.faults.breaks('EVENT-KEYPAD-PIN-MANAGED', { keypad: keypadKind(lock) });
  const state = shifted ? PIN_STATES[(PIN_STATES.indexOf(pinState as typeof PIN_STATES[number]) + 1) % PIN_STATES.length]! : pinState;
  return {
    LockID: lock.lockId, EventType: 'configuration', Event: 'keypad_pin_managed',
    Lock: { Name: lock.name },
    Pin: {
      state: state === 'disable' && env.faults.has('pin-state-disable-as-enable') ? 'enable' : state,
      // EVENT-PIN-ACTION-INTENT@keypad=<kind>: on a lock with that kind of keypad, Pin.action is update.
      action: env.faults.has('pin-action-not-intent') || env.faults.breaks('EVENT-PIN-ACTION-INTENT', { keypad: keypadKind(lock) }) ? 'update' : 'intent',
    },
    PinUser: eventUser(env, pinUser), User: eventUser(env, owner),
  };
}

export function masterPinChanged(env: PayloadEnv, lock: MockLock, eventId: string): Payload {
  return {
    LockID: lock.lockId, EventType: 'configuration', Event: 'keypad_pin_managed',
    // The row does not list Lock (freedom MASTER-PIN-LOCK): present by default.
    ...(env.freedoms?.chooses('MASTER-PIN-LOCK', 'absent') ? {} : { Lock: { Name: lock.name } }),
    Pin: env.faults.has('masterpin-pin-filled') ? { state: 'load', action: 'intent' } : {},
    PinUser: { ...MASTER_PIN_USER }, User: { ...MASTER_PIN_USER },
    timeStamp: stamp(env), Timestamp: stamp(env), EventID: eventId,
  };
}

export function keypadBattery(env: PayloadEnv, lock: MockLock, level: string): Payload {
  // EVENT-KEYPAD-BATTERY@keypad=<kind>: on a lock with that kind of keypad, the keypad's battery is reported as the lock's.
  const asLock = env.faults.breaks('EVENT-KEYPAD-BATTERY', { keypad: keypadKind(lock) });
  return {
    LockID: lock.lockId, EventType: 'battery',
    Event: level === 'keypad_battery_critical' && env.faults.has('keypad-battery-critical-as-warning') ? 'keypad_battery_warning' : level,
    DeviceType: asLock ? 'lock' : 'keypad', DeviceSerialNumber: lock.keypadSerialNumber,
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

/** App operations under app-op-user-partial: a User object without PhoneNo, Email and imageInfo. */
function partialUser(env: PayloadEnv, actor: MockUser): Payload {
  const { UserID, FirstName, LastName } = userObject(env.world, actor);
  return { UserID, FirstName, LastName };
}

/** A membership event as lock registrations receive it. */
export function membershipForLock(env: PayloadEnv, kind: MembershipKind, lock: MockLock, subject: MockUser, value: string | undefined, eventId: string): Payload {
  const extra = membershipExtra(kind, value);
  if (env.faults.has('usertype-missing')) delete extra.UserType;
  const payload: Payload = {
    LockID: lock.lockId, EventType: 'authorization', Event: kind,
    Lock: { Name: lock.name }, User: { ...eventUser(env, subject), ...extra },
  };
  // Rows "Access level changed" and "Access schedule changed" add timeStamp, EventID, Timestamp.
  if (kind === 'lock_usertype_changed' || kind === 'lock_accesstype_changed') {
    Object.assign(payload, { timeStamp: stamp(env), EventID: eventId, Timestamp: stamp(env) });
    if (kind === 'lock_accesstype_changed' && env.faults.has('accesstype-no-eventid')) delete payload.EventID;
  }
  if (kind === 'lock_user_add' && env.faults.has('lock-user-add-no-lock')) delete payload.Lock;
  if (kind === 'lock_user_remove' && env.faults.has('lock-user-remove-no-user')) delete payload.User;
  return payload;
}

/** The subject's relation to the lock as the event is built (the slice dimension `subject`): its owner, a member, or none. */
export function subjectRelation(lock: MockLock, subject: MockUser): 'owner' | 'member' | 'non-member' {
  const role = roleOn(lock, subject.userId);
  return role === 'owner' ? 'owner' : role === 'guest' ? 'member' : 'non-member';
}

/** A membership event as the affected user's user registration receives it (spec: User events). */
export function membershipForUser(env: PayloadEnv, kind: MembershipKind, lock: MockLock, subject: MockUser, value: string | undefined, eventId: string): Payload {
  const payload: Payload = {
    EventType: 'authorization', Event: kind, UserID: subject.userId, LockID: lock.lockId,
    EventID: eventId, timeStamp: stamp(env), Timestamp: stamp(env), ...membershipExtra(kind, value),
  };
  if (env.faults.has('user-event-no-eventid')) delete payload.EventID;
  // EVENT-USER-*@subject=<relation>: about a user of that relation to the lock, the payload leaves LockID out.
  if (env.faults.breaks(PAYLOAD_REQUIREMENT[`user.${kind}`] as SliceBreakId, { subject: subjectRelation(lock, subject) })) delete payload.LockID;
  if (kind === 'lock_user_add' && env.faults.has('user-add-carries-usertype')) payload.UserType = 'user';
  if (kind === 'lock_user_remove' && env.faults.has('user-remove-carries-accesstype')) payload.AccessType = 'rule_access_always';
  if (kind === 'lock_usertype_changed' && env.faults.has('user-usertype-missing')) delete payload.UserType;
  if (kind === 'lock_accesstype_changed' && env.faults.has('user-accesstype-always')) payload.AccessType = 'rule_access_always';
  return payload;
}

/**
 * The user deleted their account. The spec does not show this payload; the mock
 * sends the user-webhook shape with EventType lifecycle and Event user_deleted.
 */
export function lifecycleDeleted(env: PayloadEnv, subject: MockUser, eventId: string): Payload {
  // Freedom LIFECYCLE-PAYLOAD=authorization-shape: another shape of the payload the spec does not show.
  if (env.freedoms?.chooses('LIFECYCLE-PAYLOAD', 'authorization-shape')) return { EventType: 'authorization', Event: 'user_account_deleted', UserID: subject.userId, Timestamp: stamp(env) };
  return { EventType: 'lifecycle', Event: 'user_deleted', UserID: subject.userId, EventID: eventId, timeStamp: env.now, Timestamp: env.now };
}

/** The extraFields variant: a field no spec row names, which receivers must tolerate. */
export function withExtraField(payload: Payload): Payload {
  return { ...payload, ExtraInfo: 'lockconf-extra-field' };
}

export function newEventId(): string {
  return randomUUID();
}
