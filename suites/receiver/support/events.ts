/**
 * One sample payload per row of the spec's event tables, with exactly the field
 * names and the awkward shapes the spec gives (bridge LockID arrays, imageInfo
 * "n/a", User with only a UserID marker, the master PIN user, lower-case userID
 * on battery alerts, top-level UserID on user events), and names outside ASCII.
 */
type Payload = Record<string, unknown>;

export const LOCK_ID = '3F2A9C0B1D4E5F60718293A4';
export const OTHER_LOCK_ID = '7B1C2D3E4F5061728394A5B6';
const OWNER_ID = '6f1c9a52-2d4b-4f7e-9a31-0c5e8b7d2a10';
const GUEST_ID = 'c2b7e0d4-8a1f-4c3e-b5d6-97e8f0a1b2c3';
const EVENT_ID = '0b9d4f6e-3c2a-4e1b-8f7d-5a6c9e0d1b2f';

function image(userId: string) {
  const variant = (name: string, size: number) => ({
    width: size, height: size, format: 'jpg',
    url: `http://images.example.test/users/${userId}/${name}.jpg`,
    secure_url: `https://images.example.test/users/${userId}/${name}.jpg`,
  });
  return { original: variant('original', 640), thumbnail: variant('thumbnail', 128) };
}

/** The owner: a full User object, names outside ASCII. */
export const OWNER = {
  UserID: OWNER_ID, FirstName: 'Zoë', LastName: 'Łukasiewicz-Müller', PhoneNo: '+4915112345678',
  Email: 'zoe@example.test', imageInfo: image(OWNER_ID),
};
/** A guest without a picture: imageInfo is the string n/a. */
export const GUEST = {
  UserID: GUEST_ID, FirstName: '美咲', LastName: "O'Brien 🔑", PhoneNo: '+81312345678',
  Email: 'misaki@example.test', imageInfo: 'n/a',
};
const MASTER_PIN_USER = { UserID: 'masterpin', FirstName: 'Master', LastName: 'PIN', PhoneNo: 'n/a', Email: 'n/a', imageInfo: 'n/a' };

export function operationApp(now: number): Payload {
  return { LockID: LOCK_ID, EventType: 'operation', Event: 'unlock', Device: 'lock', User: OWNER, Timestamp: now - 2000, timeStamp: now };
}
export function operationKeypad(now: number): Payload {
  return { LockID: LOCK_ID, EventType: 'operation', Event: 'lock', Device: 'keypad', User: OWNER, Timestamp: now - 2000, timeStamp: now };
}
export function operationManual(now: number): Payload {
  return { LockID: LOCK_ID, EventType: 'operation', Event: 'unlatch', Device: 'lock', User: { UserID: 'manualunlock' }, timeStamp: now, Timestamp: now - 2000, EventID: EVENT_ID };
}
export function doorState(now: number): Payload {
  return { LockID: LOCK_ID, EventType: 'operation', Event: 'ajar', Device: 'lock', User: { UserID: 'DoorStateChanged' }, Timestamp: now - 2000, timeStamp: now };
}
export function statusCheck(): Payload {
  return { LockID: LOCK_ID, EventType: 'status', Event: 'lock', Device: 'lock', User: OWNER };
}
export function lockNameChanged(): Payload {
  return { LockID: LOCK_ID, EventType: 'configuration', Event: 'lock_name_changed', Lock: { Name: 'Haustür – Café 北門 🚪' }, User: OWNER };
}
export function lockBattery(): Payload {
  return { LockID: LOCK_ID, EventType: 'system', Event: 'lock_battery_alert', warningLevel: 'lock_state_battery_warning_2week', userID: 'zoë' };
}
export function lockClockDrift(now: number): Payload {
  return { LockID: LOCK_ID, EventType: 'systemstatus', Event: 'lock_log_timestamp_drifted', warningLevel: 'lock_state_battery_warning_none', Timestamp: now, TimestampDrifted: now + 86_400_000 };
}
export function keypadPinManaged(action = 'intent'): Payload {
  return { LockID: LOCK_ID, EventType: 'configuration', Event: 'keypad_pin_managed', Lock: { Name: 'Front door' }, Pin: { state: 'load', action }, PinUser: GUEST, User: OWNER };
}
export function masterPin(now: number): Payload {
  return {
    LockID: LOCK_ID, EventType: 'configuration', Event: 'keypad_pin_managed', Lock: { Name: 'Front door' }, Pin: {},
    PinUser: { ...MASTER_PIN_USER }, User: { ...MASTER_PIN_USER }, timeStamp: now, Timestamp: now, EventID: EVENT_ID,
  };
}
export function keypadBattery(): Payload {
  return { LockID: LOCK_ID, EventType: 'battery', Event: 'keypad_battery_critical', DeviceType: 'keypad', DeviceSerialNumber: 'KP-00A1B2C3' };
}
export function bridge(): Payload {
  return { LockID: [LOCK_ID], EventType: 'systemstatus', Event: 'offline' };
}

export type MembershipEvent = 'lock_user_add' | 'lock_user_remove' | 'lock_usertype_changed' | 'lock_accesstype_changed';

/** A membership event as a lock registration receives it (Lock events, rows 13-16). */
export function membershipForLock(kind: MembershipEvent, now: number): Payload {
  const user: Payload = { ...GUEST };
  if (kind === 'lock_usertype_changed') user.UserType = 'superuser';
  if (kind === 'lock_accesstype_changed') user.AccessType = 'rule_access_recurring';
  const payload: Payload = { LockID: LOCK_ID, EventType: 'authorization', Event: kind, Lock: { Name: 'Front door' }, User: user };
  if (kind === 'lock_usertype_changed' || kind === 'lock_accesstype_changed') Object.assign(payload, { timeStamp: now, EventID: EVENT_ID, Timestamp: now });
  return payload;
}

/** A membership event as a user registration receives it (User events): UserID at the top, no User object. */
export function membershipForUser(kind: MembershipEvent, now: number): Payload {
  const payload: Payload = { EventType: 'authorization', Event: kind, UserID: GUEST_ID, LockID: OTHER_LOCK_ID, EventID: EVENT_ID, timeStamp: now, Timestamp: now };
  if (kind === 'lock_usertype_changed') payload.UserType = 'user';
  if (kind === 'lock_accesstype_changed') payload.AccessType = 'rule_access_temporary';
  return payload;
}

/** An event whose payload the spec does not show (lifecycle: the user deleted their account). */
export function unknownEvent(now: number): Payload {
  return { EventType: 'lifecycle', Event: 'user_account_deleted', UserID: GUEST_ID, EventID: EVENT_ID, timeStamp: now, Timestamp: now };
}

/** One sample per row of both Events tables and the lifecycle event (the slice dimension `row`). */
export const ROW_SAMPLES: Readonly<Record<string, (now: number) => Payload>> = {
  operation_app: operationApp,
  operation_keypad: operationKeypad,
  operation_manual: operationManual,
  door_state: doorState,
  status_check: statusCheck,
  lock_name_changed: lockNameChanged,
  lock_battery_alert: lockBattery,
  lock_log_timestamp_drifted: lockClockDrift,
  keypad_pin_managed: () => keypadPinManaged(),
  master_pin_changed: masterPin,
  keypad_battery: keypadBattery,
  bridge,
  lock_user_add: (now) => membershipForLock('lock_user_add', now),
  lock_user_remove: (now) => membershipForLock('lock_user_remove', now),
  lock_usertype_changed: (now) => membershipForLock('lock_usertype_changed', now),
  lock_accesstype_changed: (now) => membershipForLock('lock_accesstype_changed', now),
  'user.lock_user_add': (now) => membershipForUser('lock_user_add', now),
  'user.lock_user_remove': (now) => membershipForUser('lock_user_remove', now),
  'user.lock_usertype_changed': (now) => membershipForUser('lock_usertype_changed', now),
  'user.lock_accesstype_changed': (now) => membershipForUser('lock_accesstype_changed', now),
  'user.lifecycle': unknownEvent,
};

const WARNING_LEVEL = /^lock_state_battery_warning_/;
const PIN_STATE = new Set(['load', 'disable', 'enable', 'delete']);
const USER_TYPE = new Set(['user', 'superuser']);
const ACCESS_TYPE = /^rule_access_/;

/**
 * The sample with one enumerated value (the slice dimension `enum-value`) put
 * where its row reports it: warningLevel, Pin.state, UserType, AccessType (in the
 * User object when the row has one), else Event.
 */
export function withEnumValue(sample: Payload, value: string): Payload {
  const out: Payload = { ...sample };
  const user = out.User && typeof out.User === 'object' ? { ...(out.User as Payload) } : null;
  if (WARNING_LEVEL.test(value)) out.warningLevel = value;
  else if (PIN_STATE.has(value)) out.Pin = { ...(out.Pin as Payload), state: value };
  else if (USER_TYPE.has(value) || ACCESS_TYPE.test(value)) {
    const field = USER_TYPE.has(value) ? 'UserType' : 'AccessType';
    if (user) out.User = { ...user, [field]: value };
    else out[field] = value;
  } else {
    out.Event = value;
    // A lock turned manually: User.UserID=manualunlock (unlock and unlatch) or manuallock (lock).
    if (user && (user.UserID === 'manualunlock' || user.UserID === 'manuallock')) out.User = { ...user, UserID: value === 'lock' ? 'manuallock' : 'manualunlock' };
  }
  return out;
}
