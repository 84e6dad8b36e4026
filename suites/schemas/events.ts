/**
 * Every webhook payload of the spec's Events tables, as zod schemas written once.
 * Loose objects throughout, except where the spec limits a field's content ("On
 * manual and door events it carries only UserID"): a conforming target may add
 * fields the spec does not list. Each schema checks what its row states (EventType, Event, markers, field
 * types); values that depend on the request (lock, user, new name) are compared by
 * the tests.
 */
import { z } from 'zod';

/** "hex identifier", in either case. */
export const hexId = z.string().regex(/^[0-9a-fA-F]+$/, 'a hex identifier');
/** UUID text (8-4-4-4-12 hex), without insisting on a version or variant. */
export const uuid = z.guid();
/** Timestamp / timeStamp: an integer (epoch milliseconds in the samples; the unit is INFO). */
export const epochInt = z.number().int();

const imageVariant = z.looseObject({
  width: z.number().int(),
  height: z.number().int(),
  format: z.string(),
  url: z.string(),
  secure_url: z.string(),
});
export const imageInfo = z.union([z.literal('n/a'), z.looseObject({ original: imageVariant, thumbnail: imageVariant })]);

export const lockStates = ['unlock', 'lock', 'unlatch'] as const;
export type LockState = (typeof lockStates)[number];
export const doorStates = ['closed', 'open', 'ajar'] as const;
export const lockBatteryLevels = [
  'lock_state_battery_warning_none', 'lock_state_battery_warning_4week', 'lock_state_battery_warning_2week',
  'lock_state_battery_warning_1week', 'lock_state_battery_warning_2day',
] as const;
export const keypadBatteryEvents = ['keypad_battery_none', 'keypad_battery_warning', 'keypad_battery_critical'] as const;
export const pinStates = ['load', 'disable', 'enable', 'delete'] as const;
export const userTypes = ['user', 'superuser'] as const;
export const accessTypes = ['rule_access_always', 'rule_access_temporary', 'rule_access_recurring'] as const;

/**
 * The User object: UserID always; the other fields typed when present. Only the app row says "User object with
 * full fields" (fullUserObject); on the other rows the field set is open (freedom USER-OBJECT-FIELDS).
 */
export const userObject = z.looseObject({
  UserID: z.string().min(1),
  FirstName: z.string().optional(),
  LastName: z.string().optional(),
  PhoneNo: z.string().optional(),
  Email: z.string().optional(),
  imageInfo: imageInfo.optional(),
  UserType: z.enum(userTypes).optional(),
  AccessType: z.enum(accessTypes).optional(),
});

/** "User object with full fields": a real user (UUID) with names, phone, e-mail and image info. */
export const fullUserObject = userObject.extend({
  UserID: uuid,
  FirstName: z.string(),
  LastName: z.string(),
  PhoneNo: z.string(),
  Email: z.string(),
  imageInfo,
});

const lockWithName = z.looseObject({ Name: z.string() });

/** Common to lock-webhook bodies: "body includes LockID and EventType". */
const lockEvent = z.looseObject({ LockID: hexId, EventType: z.string(), Event: z.string() });

export const operationApp = lockEvent.extend({
  EventType: z.literal('operation'),
  Event: z.enum(lockStates),
  Device: z.literal('lock'),
  User: fullUserObject,
});

export const operationKeypad = lockEvent.extend({
  EventType: z.literal('operation'),
  Event: z.enum(lockStates),
  Device: z.literal('keypad'),
  User: userObject,
});

export const operationManual = lockEvent.extend({
  EventType: z.literal('operation'),
  Event: z.enum(lockStates),
  Device: z.literal('lock'),
  // "On manual and door events it carries only UserID."
  User: z.strictObject({ UserID: z.enum(['manualunlock', 'manuallock']) }),
  timeStamp: epochInt,
  Timestamp: epochInt,
  EventID: uuid,
});

export const doorState = lockEvent.extend({
  EventType: z.literal('operation'),
  Event: z.enum(doorStates),
  Device: z.literal('lock'),
  User: z.strictObject({ UserID: z.literal('DoorStateChanged') }),
});

export const statusCheck = lockEvent.extend({
  EventType: z.literal('status'),
  Event: z.enum(lockStates),
  Device: z.literal('lock'),
  User: userObject,
});

export const lockNameChanged = lockEvent.extend({
  EventType: z.literal('configuration'),
  Event: z.literal('lock_name_changed'),
  Lock: lockWithName,
  User: userObject,
});

export const lockBatteryAlert = lockEvent.extend({
  EventType: z.literal('system'),
  Event: z.literal('lock_battery_alert'),
  warningLevel: z.enum(lockBatteryLevels),
  userID: z.string(),
});

export const lockClockDrift = lockEvent.extend({
  EventType: z.literal('systemstatus'),
  Event: z.literal('lock_log_timestamp_drifted'),
  // The row lists no values for this warningLevel: any string (not the battery levels alone).
  warningLevel: z.string(),
  Timestamp: epochInt,
  // The lock-reported time: its type is not given beyond "time"; a number or a string.
  TimestampDrifted: z.union([z.number(), z.string().min(1)]),
});

export const keypadPinManaged = lockEvent.extend({
  EventType: z.literal('configuration'),
  Event: z.literal('keypad_pin_managed'),
  Lock: lockWithName,
  Pin: z.looseObject({ state: z.enum(pinStates), action: z.string() }),
  PinUser: userObject,
  User: userObject,
});

const masterPinUser = z.looseObject({
  UserID: z.literal('masterpin'),
  FirstName: z.literal('Master'),
  LastName: z.literal('PIN'),
  PhoneNo: z.literal('n/a'),
  Email: z.literal('n/a'),
  imageInfo: z.literal('n/a'),
});

export const masterPinChanged = lockEvent.extend({
  EventType: z.literal('configuration'),
  Event: z.literal('keypad_pin_managed'),
  // The row does not list Lock; whether the masterpin marker is "a user object" bringing the common table's Lock
  // ("Present on configuration and authorization events with a user object") is open: freedom MASTER-PIN-LOCK.
  Lock: lockWithName.optional(),
  // "Pin is an empty object": no fields at all.
  Pin: z.strictObject({}),
  User: masterPinUser,
  PinUser: masterPinUser,
  timeStamp: epochInt,
  Timestamp: epochInt,
  EventID: uuid,
});

export const keypadBattery = lockEvent.extend({
  EventType: z.literal('battery'),
  Event: z.enum(keypadBatteryEvents),
  DeviceType: z.literal('keypad'),
  DeviceSerialNumber: z.string(),
});

export const bridge = z.looseObject({
  LockID: z.array(hexId).min(1),
  EventType: z.literal('systemstatus'),
  Event: z.enum(['online', 'offline']),
});

const authorizationEvent = lockEvent.extend({
  EventType: z.literal('authorization'),
  Lock: lockWithName,
  User: userObject,
});

export const lockUserAdd = authorizationEvent.extend({ Event: z.literal('lock_user_add') });
export const lockUserRemove = authorizationEvent.extend({ Event: z.literal('lock_user_remove') });
export const lockUsertypeChanged = authorizationEvent.extend({
  Event: z.literal('lock_usertype_changed'),
  User: userObject.extend({ UserType: z.enum(userTypes) }),
  timeStamp: epochInt,
  EventID: uuid,
  Timestamp: epochInt,
});
export const lockAccesstypeChanged = authorizationEvent.extend({
  Event: z.literal('lock_accesstype_changed'),
  User: userObject.extend({ AccessType: z.enum(accessTypes) }),
  timeStamp: epochInt,
  EventID: uuid,
  Timestamp: epochInt,
});

/** User-webhook events: "All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp." */
const userEvent = z.looseObject({
  EventType: z.literal('authorization'),
  Event: z.string(),
  UserID: uuid,
  LockID: hexId,
  EventID: uuid,
  timeStamp: epochInt,
  Timestamp: epochInt,
});

/** "Extra field: none": neither of the other rows' extra fields (unknown fields of other names stay allowed). */
const noExtraField = (event: string) => ({
  UserType: z.never(`${event} carries no UserType (its row's extra field is none)`).optional(),
  AccessType: z.never(`${event} carries no AccessType (its row's extra field is none)`).optional(),
});

export const userLockUserAdd = userEvent.extend({ Event: z.literal('lock_user_add'), ...noExtraField('lock_user_add') });
export const userLockUserRemove = userEvent.extend({ Event: z.literal('lock_user_remove'), ...noExtraField('lock_user_remove') });
export const userUsertypeChanged = userEvent.extend({ Event: z.literal('lock_usertype_changed'), UserType: z.enum(userTypes) });
export const userAccesstypeChanged = userEvent.extend({ Event: z.literal('lock_accesstype_changed'), AccessType: z.enum(accessTypes) });
