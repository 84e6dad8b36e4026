/**
 * Slices of the Webhook registration, Webhook delivery, Webhook signature and
 * Event payloads areas: for each requirement, the dimensions the spec's text and
 * tables give it (event row, payload field, enumerated value, role), with their values.
 * Area-specific dimensions are declared here, in `dimensions`.
 */
import type { Dimension, SliceDeclaration, SliceDeclarations } from './types.js';
import { RECEIVER_ANSWER_VALUES } from './receiver-answer-domain.js';

/** Every row of both Events tables, and the lifecycle event (user webhooks). */
export const ROW: Dimension = {
  id: 'row',
  title: 'Event row (a row of the Lock events or User events table, or the lifecycle event)',
  source: 'Events → Lock events (16 rows: "Lock operated by app or API" … "Access schedule changed"); User events (lock_user_add, lock_user_remove, lock_usertype_changed, lock_accesstype_changed); Registration groups: "lifecycle (user) | The user deleted their account." Delivery: "one HTTP POST … per event"; "Headers on each delivery"',
  values: [
    'operation_app', 'operation_keypad', 'operation_manual', 'door_state', 'status_check', 'lock_name_changed',
    'lock_battery_alert', 'lock_log_timestamp_drifted', 'keypad_pin_managed', 'master_pin_changed', 'keypad_battery', 'bridge',
    'lock_user_add', 'lock_user_remove', 'lock_usertype_changed', 'lock_accesstype_changed',
    'user.lock_user_add', 'user.lock_user_remove', 'user.lock_usertype_changed', 'user.lock_accesstype_changed', 'user.lifecycle',
  ],
};

/** The payload fields the spec gives the rows (a dotted path into the JSON body). */
export const FIELD: Dimension = {
  id: 'field',
  title: 'Payload field of an event row (its presence, type and unit)',
  source: 'Webhook payload fields (common): LockID, EventType, Event, Device, User, Lock, EventID, Timestamp, timeStamp; User object: UserID, FirstName, LastName, PhoneNo, Email, imageInfo, UserType, AccessType; Lock events "Other fields" column; User events "All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp"',
  values: [
    'LockID', 'EventType', 'Event', 'Device',
    'User.UserID', 'User.FirstName', 'User.LastName', 'User.PhoneNo', 'User.Email', 'User.imageInfo', 'User.UserType', 'User.AccessType',
    'Lock.Name', 'EventID', 'Timestamp', 'timeStamp', 'warningLevel', 'userID', 'TimestampDrifted',
    'Pin', 'Pin.state', 'Pin.action',
    'PinUser.UserID', 'PinUser.FirstName', 'PinUser.LastName', 'PinUser.PhoneNo', 'PinUser.Email', 'PinUser.imageInfo',
    'DeviceType', 'DeviceSerialNumber', 'UserID', 'UserType', 'AccessType',
  ],
};

const LOCK_STATES = ['unlock', 'lock', 'unlatch'] as const;
const DOOR_STATES = ['closed', 'open', 'ajar'] as const;
const BATTERY_LEVELS = ['lock_state_battery_warning_none', 'lock_state_battery_warning_4week', 'lock_state_battery_warning_2week', 'lock_state_battery_warning_1week', 'lock_state_battery_warning_2day'] as const;
const KEYPAD_BATTERY = ['keypad_battery_none', 'keypad_battery_warning', 'keypad_battery_critical'] as const;
const PIN_STATES = ['load', 'disable', 'enable', 'delete'] as const;
const BRIDGE = ['online', 'offline'] as const;
const USER_TYPES = ['user', 'superuser'] as const;
const ACCESS_TYPES = ['rule_access_always', 'rule_access_temporary', 'rule_access_recurring'] as const;

/** Every value of every enumeration of the spec (Values reported in events), each reported as asked. */
export const ENUM_VALUE: Dimension = {
  id: 'enum-value',
  title: 'Enumerated value reported in an event',
  source: 'Values reported in events: Lock (unlock, lock, unlatch); Door (closed, open, ajar); Lock battery warningLevel (five values); Keypad battery Event (three); Keypad PIN (Pin.state: load, disable, enable, delete); Bridge (online, offline); User access level (user, superuser); User access schedule (rule_access_always, rule_access_temporary, rule_access_recurring)',
  values: [...LOCK_STATES, ...DOOR_STATES, ...BATTERY_LEVELS, ...KEYPAD_BATTERY, ...PIN_STATES, ...BRIDGE, ...USER_TYPES, ...ACCESS_TYPES],
};

/** Who acted, who checked, who registered: the lock's owner or a guest on it. */
export const ROLE: Dimension = {
  id: 'role',
  title: 'Role of the user who acted, checked or registered (owner or guest of the lock)',
  source: 'Values reported in events: "User access level | user (guest), superuser (owner)"; Registration groups: "status checked by anyone"; Lock events: "Sent to all listeners of the lock whenever a status check is made"; Limits: "One per lock per user"',
  values: ['owner', 'guest'],
};

/** The components of the registered webhook url the deliveries go to exactly. */
export const URL_PART: Dimension = {
  id: 'url-part',
  title: 'Component of the registered webhook url (delivered to exactly): path, query, letter case; host (another IPv4 loopback address, the IPv6 literal) and port (4 digits) on loopback; the https scheme (a TLS handshake begun at the registered host and port)',
  source: 'Webhook registration (request body): "url | string (URL) | Address that receives the webhook POST"; What the service does: "The service sends one HTTP POST per event to the registered URL"',
  values: ['path', 'query', 'case', 'other-loopback', 'ipv6-literal', 'port-4-digits', 'https'],
};

/** What a step of a registration's life (overwrite, delete) must leave in force. */
export const UNTOUCHED: Dimension = {
  id: 'untouched',
  title: 'Registration a step of another registration\'s life must leave in force',
  source: 'Limits: "Webhook registrations | One per lock per user; one per user for user events. Re-registering overwrites."; POST /webhook/:lockID: "One registration per lock per user; calling again for the same user overwrites it."; DELETE /webhook/:lockID/:clientID: "Deletes a lock webhook registration"; DELETE /webhook/user: "Deletes the user webhook registration"',
  values: ['other-lock', 'other-user', 'user-registration', 'lock-registration'],
};

/**
 * The final answers a webhook receiver can give (1xx is not final): the domain 200–599 as
 * named edges and one seeded draw per class from the rest (receiver-answer-domain.ts).
 */
export const RECEIVER_ANSWER: Dimension = {
  id: 'receiver-answer',
  title: 'Status of the webhook receiver\'s answer (named edges of each class; other-<class>: a status of the class drawn with the run\'s seed)',
  source: 'Delivery: "Redirections (HTTP 302) are not followed. A response without an HTTP 2xx status is not retried. Each event is delivered at most once."; Errors: "Webhook receiver answers with non-2xx | Event is not retried."',
  values: RECEIVER_ANSWER_VALUES,
};

/** Which fixture lock (and so which kind of lock) a rule is exercised on. */
export const LOCK: Dimension = {
  id: 'lock',
  title: 'Fixture lock the rule is exercised on: the first (keypad and door sensor) or the second (built-in keypad), both the owner\'s',
  source: 'POST {base_url}/webhook/:lockID: "Registers a lock webhook"; DELETE {base_url}/webhook/:lockID/:clientID: "Deletes a lock webhook registration"; Lock events: "Sent to all listeners of the lock whenever a status check is made"; Delivery: "The service sends one HTTP POST … to the registered url per event", "Headers on each delivery"; Signature: "keyed with the API key", every webhook alike (a lock, any lock; control-protocol.md GET /fixtures: the first user owns both locks)',
  values: ['first', 'second'],
};

/**
 * Which kind of keypad the lock has: a separate keypad, or one built into the lock. The rows of keypad events
 * ("Lock operated by keypad", "Keypad PIN managed (app-managed PINs)") and "a lock with a keypad" hold for both;
 * only "Master PIN changed (locks with built-in keypad)" names one kind.
 */
export const KEYPAD: Dimension = {
  id: 'keypad',
  title: 'Kind of keypad of the fixture lock the rule is exercised on: separate (GET /fixtures keypad) or built into the lock (builtInKeypad)',
  source: 'Lock events: "Lock operated by keypad | operation | unlock, lock, unlatch | Device=keypad, User object"; "Keypad PIN managed (app-managed PINs)"; POST /webhook/:lockID: "also delivers keypad events for a lock with a keypad" (any keypad; only "Master PIN changed (locks with built-in keypad)" names a kind); control-protocol.md GET /fixtures: keypad, builtInKeypad',
  values: ['separate', 'built-in'],
};

/**
 * A registration body with an optional field left out ("Required and optional status of each webhook
 * registration field …: not shown": a target may refuse it, and then the slice is not tested), or a
 * registration overwritten by one without its optional fields.
 */
export const REGISTRATION_FIELDS: Dimension = {
  id: 'registration-fields',
  title: 'Registration body with a field absent: header and token, method, notificationTypes; or an overwrite by a body without header and token',
  source: 'Webhook registration (request body): url, method, clientID, header, token, notificationTypes; "Required and optional status of each webhook registration field and any restriction on the method value: not shown."; POST /webhook/:lockID: "calling again for the same user overwrites it."',
  values: ['no-header-token', 'no-method', 'no-notification-types', 'bare-overwrite'],
};

/**
 * The user a user event is about, by their relation to the lock at the event: its owner, a member of it
 * (a guest), or no member of it (not, no longer or not yet: the event itself says what changes).
 */
export const SUBJECT: Dimension = {
  id: 'subject',
  title: 'Relation of a user event\'s subject to the lock at the event: a member (a guest on it), its owner, or no member of it (a user of the fixtures the lock\'s guestUserIds leave out)',
  source: 'User events: "All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp." (every user event, whoever it is about); "lock_user_add" / "lock_user_remove" (a user added to or removed from a lock is not, or no longer, a member of it); "UserType: user (guest) or superuser (owner)"; control-protocol-extensions.md GET /fixtures guestUserIds',
  values: ['member', 'owner', 'non-member'],
};

/**
 * Whether a registration's url is its own or shared with another registration of the lock (another user's:
 * one per lock per user). Nothing in the spec makes a url unique to one registration, and every sentence that
 * quantifies over listeners ("all listeners of the lock", "One per lock per user", "per event") counts
 * registrations, not urls: two registrations naming one url are two listeners, each sent its own delivery
 * (told apart by the header and token each registration named, never by arrival order).
 */
export const RECEIVER_URL: Dimension = {
  id: 'receiver-url',
  title: 'Receiver url of the registration: its own, or shared with another user\'s registration on the lock (two listeners, one url)',
  source: 'Webhook registration (request body): "url | string (URL) | Address that receives the webhook POST" (no uniqueness); Limits: "Webhook registrations | One per lock per user"; Lock events: "Sent to all listeners of the lock whenever a status check is made"; Other endpoints named: "calling it triggers a status webhook to all listeners of that lock"; Delivery: "one HTTP POST … to the registered url per event"',
  values: ['own', 'shared'],
};

/** Every row a delivery or signature rule holds on ("on each delivery", "every webhook"). */
const EVERY_ROW: SliceDeclaration = { row: 'all' };
/**
 * Every registration a delivery rule holds for ("Headers on each delivery", "to the registered url per event"): one on
 * either fixture lock (the second, of another kind, too), made by the lock's owner or by a guest on it. Drawn as the
 * (lock, role) pairs the fixtures hold (suites/support/lock-roles.ts): the guest is on the first lock only.
 */
const EVERY_LISTENER: SliceDeclaration = { lock: 'all', role: 'all' };
/** Every lock a signature rule holds on ("every webhook"): the signing key is the API key whoever registered. */
const EVERY_LOCK: SliceDeclaration = { lock: 'all' };

const USER6 = ['User.UserID', 'User.FirstName', 'User.LastName', 'User.PhoneNo', 'User.Email', 'User.imageInfo'] as const;
const PINUSER6 = ['PinUser.UserID', 'PinUser.FirstName', 'PinUser.LastName', 'PinUser.PhoneNo', 'PinUser.Email', 'PinUser.imageInfo'] as const;
const OPERATION = ['LockID', 'EventType', 'Event', 'Device'] as const;
const AUTHZ = ['LockID', 'EventType', 'Event', 'Lock.Name', ...USER6] as const;
const USER_EVENT = ['EventType', 'Event', 'UserID', 'LockID', 'EventID', 'timeStamp', 'Timestamp'] as const;

export const WEBHOOKS_EVENTS_SLICES: SliceDeclarations = {
  dimensions: [ROW, FIELD, ENUM_VALUE, ROLE, URL_PART, UNTOUCHED, RECEIVER_ANSWER, LOCK, REGISTRATION_FIELDS, KEYPAD, SUBJECT, RECEIVER_URL],
  slices: {
    // "one HTTP POST per event to the registered URL": a deeper path, a query, upper-case letters in the path, each kept.
    // Host and port: other doors of the capture server on loopback. Scheme: https to a loopback port that only sees the TLS
    // handshake begin (the harness holds no certificate a target trusts, so the POST itself cannot be read).
    // (The port: every registration of the suites names an explicit port.)
    // "Registers a lock webhook": on every lock of the user (the second, of another kind, too), by its owner or a guest on it
    // (pairwise with the url's query: a guest is on the first lock only), and with each field whose required status is not
    // shown left out (a target may refuse such a body: then not tested).
    // Not `no-notification-types`: what a registration naming no group receives is not shown ("Event groups wanted";
    // "Required and optional status of each webhook registration field …: not shown"): receiving nothing is a reading too.
    'WEBHOOK-LOCK-REGISTER': { 'url-part': 'all', lock: 'all', role: 'all', 'registration-fields': ['no-header-token', 'no-method'] },
    'WEBHOOK-USER-REGISTER': { 'url-part': 'all', 'registration-fields': ['no-header-token', 'no-method'] },
    // Registration lifecycle: an overwrite or a delete touches that one registration only ("per lock per user", "the user webhook registration").
    // "One registration per lock per user; calling again for the same user overwrites it": on every lock (the second, of
    // another kind, too), for its owner or a guest on it (pairwise: a guest is on the first lock only), and by a body
    // without header and token too (the old ones are not kept).
    'WEBHOOK-LOCK-OVERWRITE': { untouched: ['other-lock', 'other-user', 'user-registration'], lock: 'all', role: 'all', 'registration-fields': ['bare-overwrite'] },
    // "Deletes a lock webhook registration": on either lock, by its owner or a guest on it.
    'WEBHOOK-LOCK-DELETE': { untouched: ['other-lock', 'other-user', 'user-registration'], lock: 'all', role: 'all' },
    // "also delivers keypad events for a lock with a keypad": a separate keypad or one built into the lock.
    'WEBHOOK-KEYPAD-VIA-LOCK': { keypad: 'all' },
    // "One per lock per user": per user, whatever url each names; two users naming one url are two registrations.
    'WEBHOOK-LOCK-PER-USER': { 'receiver-url': 'all' },
    'WEBHOOK-USER-OVERWRITE': { untouched: ['other-user', 'lock-registration'] },
    'WEBHOOK-USER-DELETE': { untouched: ['other-user', 'lock-registration'] },
    // Registration groups: each event the group's meaning names ("Lock locked, unlocked, unlatched, or status checked by anyone; door opened or closed", …), as its own row.
    'WEBHOOK-GROUP-OPERATION': { row: ['operation_app', 'operation_manual', 'door_state', 'status_check'] },
    'WEBHOOK-GROUP-OPERATION-TYPE': { row: ['operation_keypad'] },
    'WEBHOOK-GROUP-CONFIGURATION': { row: ['lock_name_changed', 'keypad_pin_managed', 'master_pin_changed'] },
    'WEBHOOK-GROUP-BATTERY': { row: ['lock_battery_alert', 'keypad_battery'] },
    'WEBHOOK-GROUP-SYSTEMSTATUS': { row: ['bridge'] },
    'WEBHOOK-GROUP-ACCESSMGMT': { row: ['lock_user_add', 'lock_user_remove', 'lock_usertype_changed', 'lock_accesstype_changed'] },
    'WEBHOOK-GROUP-LOCKMEMBERSHIP': { row: ['user.lock_user_add', 'user.lock_user_remove'] },
    'WEBHOOK-GROUP-LIFECYCLE': { row: ['user.lifecycle'] },
    // Delivery: "one HTTP POST (JSON body, Content-Type application/json) … per event"; "Headers on each delivery: Content-Type, X-Signature, and the application-chosen header".
    // "Each event is delivered at most once": whatever 2xx the receiver answers (200 is every inbox's default, judged by the rows).
    // "to the registered url per event … at most once": per registration, so a url two registrations share receives one
    // delivery for each, none twice (an own url is every row slice's).
    'DELIVERY-ONE-POST': { ...EVERY_ROW, ...EVERY_LISTENER, 'receiver-answer': ['201', '204', '299', 'other-2xx'], 'receiver-url': ['shared'] },
    'DELIVERY-CONTENT-TYPE': { ...EVERY_ROW, ...EVERY_LISTENER },
    // "the application-chosen header set to the application-chosen token": any token, sent unchanged.
    // An HTTP field value carries no leading or trailing blanks (RFC 9110 §5.5) and non-ASCII only as opaque bytes: those two classes are not declared for a header.
    'DELIVERY-CUSTOM-HEADER': { ...EVERY_ROW, ...EVERY_LISTENER, chars: ['percent', 'plus', 'ampersand', 'equals-hash', 'space', 'long', 'empty'] },
    'DELIVERY-SIGNATURE-PRESENT': { ...EVERY_ROW, ...EVERY_LISTENER },
    // "A response without an HTTP 2xx status is not retried": every class of non-2xx answer; a redirect other than 302 is one too
    // (followed, it sends the event a second time). "Redirections (HTTP 302) are not followed": the status the spec names.
    // The whole domain of 3xx, 4xx and 5xx: named edges and one seeded draw per class (receiver-answer-domain.ts).
    // Whoever registered, on whichever lock: each answer is given to one listener in turn (suites/support/receiver-answers.ts
    // batches, one answer per (lock, role) pair), so every lock and role is drawn, not every answer on every one.
    'DELIVERY-NO-RETRY': { 'receiver-answer': RECEIVER_ANSWER_VALUES.filter((v) => !/^(2|other-2)/.test(v) && v !== '302'), ...EVERY_LISTENER },
    'DELIVERY-NO-REDIRECT': { 'receiver-answer': ['302'], ...EVERY_LISTENER },
    // "A response without an HTTP 2xx status is not retried", "at most once": a connection cut, an answer given up on, to any listener.
    'DELIVERY-NO-RETRY-UNANSWERED': EVERY_LISTENER,
    'DELIVERY-NO-RETRY-TIMEOUT': EVERY_LISTENER,
    // "a status check … triggers a status webhook to all listeners of that lock": a check made by the owner or by a guest,
    // to listeners with urls of their own or one url shared by two registrations (one delivery per registration, not per url).
    'DELIVERY-STATUS-CHECK-FANOUT': { role: 'all', 'receiver-url': 'all' },
    // "whenever a status check is made": on every lock, the second (built-in keypad) too; "Sent to all listeners": each
    // of two registrations sharing one url receives every check (an own url is every lock slice's).
    'DELIVERY-STATUS-EVERY-CHECK': { lock: 'all', 'receiver-url': ['shared'] },
    // Signature: every webhook is signed the same way.
    'SIGNATURE-FORMAT': { ...EVERY_ROW, ...EVERY_LOCK },
    'SIGNATURE-VALID': { ...EVERY_ROW, ...EVERY_LOCK },
    'SIGNATURE-TIMESTAMP-CURRENT': { ...EVERY_ROW, ...EVERY_LOCK },
    // Lock events: every field of the row, every value of the row's enumeration.
    'EVENT-OPERATION-APP': { field: [...OPERATION, ...USER6], 'enum-value': [...LOCK_STATES] },
    // "Lock operated by keypad": whichever keypad the lock has, separate or built in (Device=keypad on both).
    'EVENT-OPERATION-KEYPAD': { field: [...OPERATION, ...USER6], 'enum-value': [...LOCK_STATES], keypad: 'all' },
    'EVENT-OPERATION-MANUAL': { field: [...OPERATION, 'User.UserID', 'timeStamp', 'Timestamp', 'EventID'], 'enum-value': [...LOCK_STATES] },
    'EVENT-DOOR-STATE': { field: [...OPERATION, 'User.UserID'], 'enum-value': [...DOOR_STATES] },
    // User: "The acting or affected user": the user who made the check, the owner or a guest of the lock.
    'EVENT-STATUS-CHECK': { field: [...OPERATION, ...USER6], role: 'all' },
    // The state a status check reports after an operation rests on the control contract (EVENT-STATUS-CHECK-STATE), not on the spec.
    'EVENT-STATUS-CHECK-STATE': { 'enum-value': [...LOCK_STATES] },
    // Lock.Name is the new name, whatever its characters (a JSON string carries any). Outer blanks are not a slice:
    // no sentence says they are kept, a target may trim them (freedom LOCK-NAME-BLANKS, harness/catalog/freedoms.ts).
    'EVENT-LOCK-NAME-CHANGED': { field: ['LockID', 'EventType', 'Event', 'Lock.Name', ...USER6], chars: ['percent', 'plus', 'ampersand', 'equals-hash', 'space', 'non-ascii', 'long'] },
    'EVENT-LOCK-BATTERY': { field: ['LockID', 'EventType', 'Event', 'warningLevel', 'userID'], 'enum-value': [...BATTERY_LEVELS] },
    'EVENT-LOCK-CLOCK-DRIFT': { field: ['LockID', 'EventType', 'Event', 'warningLevel', 'Timestamp', 'TimestampDrifted'] },
    // "Keypad PIN managed (app-managed PINs)": on a lock with either kind of keypad.
    'EVENT-KEYPAD-PIN-MANAGED': { field: ['LockID', 'EventType', 'Event', 'Lock.Name', 'Pin.state', 'Pin.action', ...PINUSER6, ...USER6], 'enum-value': [...PIN_STATES], keypad: 'all' },
    'EVENT-PIN-ACTION-INTENT': { keypad: 'all' },
    'EVENT-MASTER-PIN': { field: ['LockID', 'EventType', 'Event', 'Lock.Name', 'Pin', ...USER6, ...PINUSER6, 'timeStamp', 'Timestamp', 'EventID'] },
    // "Keypad battery" ("Batteries low in the lock or its keypad"): the keypad of any lock that has one, separate or built in.
    'EVENT-KEYPAD-BATTERY': { field: ['LockID', 'EventType', 'Event', 'DeviceType', 'DeviceSerialNumber'], 'enum-value': [...KEYPAD_BATTERY], keypad: 'all' },
    'EVENT-BRIDGE': { field: ['LockID', 'EventType', 'Event'], 'enum-value': [...BRIDGE] },
    'EVENT-LOCK-USER-ADD': { field: [...AUTHZ] },
    'EVENT-LOCK-USER-REMOVE': { field: [...AUTHZ] },
    'EVENT-LOCK-USERTYPE-CHANGED': { field: [...AUTHZ, 'User.UserType', 'timeStamp', 'EventID', 'Timestamp'], 'enum-value': [...USER_TYPES] },
    'EVENT-LOCK-ACCESSTYPE-CHANGED': { field: [...AUTHZ, 'User.AccessType', 'timeStamp', 'EventID', 'Timestamp'], 'enum-value': [...ACCESS_TYPES] },
    // "Timestamp | integer (epoch milliseconds in samples) … timeStamp | integer (epoch milliseconds in samples)": every row the Events tables give one
    // (manual operation, lock clock, master PIN, access level and schedule; all four user events).
    'EVENT-TIMESTAMP-UNITS': { row: ['operation_manual', 'lock_log_timestamp_drifted', 'master_pin_changed', 'lock_usertype_changed', 'lock_accesstype_changed', 'user.lock_user_add', 'user.lock_user_remove', 'user.lock_usertype_changed', 'user.lock_accesstype_changed'] },
    // User events: the common fields of every row, and the row's extra field. "All carry …": every user event, whoever
    // it is about (subject): a member of the lock, its owner, or a user who is not (or no longer, or not yet) a member.
    'EVENT-USER-LOCK-USER-ADD': { field: [...USER_EVENT], subject: 'all' },
    'EVENT-USER-LOCK-USER-REMOVE': { field: [...USER_EVENT], subject: 'all' },
    'EVENT-USER-USERTYPE-CHANGED': { field: [...USER_EVENT, 'UserType'], 'enum-value': [...USER_TYPES], subject: 'all' },
    'EVENT-USER-ACCESSTYPE-CHANGED': { field: [...USER_EVENT, 'AccessType'], 'enum-value': [...ACCESS_TYPES], subject: 'all' },
  },
  noFault: {},
};
