/**
 * Named mistakes of the example receiver (receiver.ts), each the kind of bug a
 * real receiver has. lockconf's self-verification (test/receiver/) runs the
 * receiver suites against the example with each one switched on and checks the
 * requirement named here catches it (and those in `also`, which the same
 * mistake breaks too); with none on, the example is conformant.
 *
 * The signature faults are checked where receiver.ts verifies the signature;
 * the payload faults (a schema stricter than the spec) are here, in shapeFault().
 */
export const RECEIVER_FAULTS = {
  // ── The signature ──────────────────────────────────────────────────────
  'accepts-bad-signature': {
    requirement: 'RECEIVER-REJECTS-TAMPERED-BODY',
    also: ['RECEIVER-REJECTS-WRONG-KEY', 'RECEIVER-REJECTS-BODY-ONLY-SIGNATURE', 'RECEIVER-REJECTS-CHANGED-T'],
    description: 'Reads X-Signature but never compares it: any signature passes.',
  },
  'no-tolerance': {
    requirement: 'RECEIVER-REJECTS-STALE-T',
    also: ['RECEIVER-TOLERANCE-5-MIN'],
    description: 'Never compares t with the current time: a delivery recorded a day ago passes again.',
  },
  'ten-minute-tolerance': {
    requirement: 'RECEIVER-TOLERANCE-5-MIN',
    also: [],
    description: 'Tolerates timestamps up to 10 minutes old instead of the recommended 5.',
  },
  'reserialized-json': {
    requirement: 'RECEIVER-SIGNATURE-RAW-BODY',
    also: [],
    description: 'Verifies the signature over JSON.stringify(JSON.parse(body)) instead of the raw bytes received.',
  },
  'latin1-body': {
    requirement: 'RECEIVER-EVENT-OPERATION-APP',
    also: ['RECEIVER-EVENT-LOCK-NAME-CHANGED', 'RECEIVER-EVENT-LOCK-BATTERY'],
    description: 'Reads the body as Latin-1 text and signs that text as UTF-8: every body with a name outside ASCII fails the signature.',
  },
  'ignores-custom-header': {
    requirement: 'RECEIVER-CUSTOM-HEADER',
    also: [],
    description: "Never looks at the registration's custom header and token.",
  },
  'accepts-body-only-signature': {
    requirement: 'RECEIVER-REJECTS-BODY-ONLY-SIGNATURE',
    also: [],
    description: 'Also accepts an HMAC of the body alone, without t and the dot.',
  },
  'also-accepts-client-secret': {
    requirement: 'RECEIVER-REJECTS-WRONG-KEY',
    also: [],
    description: 'Verifies against the client secret as well as the API key.',
  },
  // ── The payload: a schema stricter than the spec ───────────────────────
  'rejects-unknown-event-types': {
    requirement: 'RECEIVER-UNKNOWN-EVENT-TYPE',
    also: [],
    description: 'Refuses (422) an EventType outside the seven the spec lists.',
  },
  'forgets-status-event-type': {
    requirement: 'RECEIVER-EVENT-STATUS-CHECK',
    also: [],
    description: 'Knows the EventTypes of the registration groups, which do not include status: refuses (422) status check results.',
  },
  'forgets-system-event-type': {
    requirement: 'RECEIVER-EVENT-LOCK-BATTERY',
    also: [],
    description: 'Knows systemstatus but not system: refuses (422) lock battery warnings.',
  },
  'rejects-keypad-device': {
    requirement: 'RECEIVER-EVENT-OPERATION-KEYPAD',
    also: [],
    description: 'Takes Device to be always "lock": refuses (422) keypad operations.',
  },
  'requires-full-user': {
    requirement: 'RECEIVER-EVENT-OPERATION-MANUAL',
    also: ['RECEIVER-EVENT-DOOR-STATE'],
    description: 'Refuses (422) a User object without FirstName, as manual and door events carry.',
  },
  'requires-uuid-userid': {
    requirement: 'RECEIVER-EVENT-DOOR-STATE',
    also: ['RECEIVER-EVENT-OPERATION-MANUAL', 'RECEIVER-EVENT-MASTER-PIN'],
    description: 'Refuses (422) a User.UserID that is not a UUID (the manual, door and master PIN markers).',
  },
  'crashes-without-user': {
    requirement: 'RECEIVER-EVENT-KEYPAD-BATTERY',
    also: ['RECEIVER-EVENT-BRIDGE', 'RECEIVER-EVENT-LOCK-BATTERY', 'RECEIVER-EVENT-LOCK-CLOCK-DRIFT'],
    description: 'Reads event.User.UserID unguarded: answers 500 to every event without a User object.',
  },
  'rejects-lockid-array': {
    requirement: 'RECEIVER-EVENT-BRIDGE',
    also: [],
    description: 'Refuses (422) a LockID that is not a string, as bridge events carry.',
  },
  'rejects-drifted-timestamp': {
    requirement: 'RECEIVER-EVENT-LOCK-CLOCK-DRIFT',
    also: [],
    description: 'Refuses (422) a payload timestamp more than an hour away from now, as a drifted lock clock reports.',
  },
  'requires-pin-state': {
    requirement: 'RECEIVER-EVENT-MASTER-PIN',
    also: [],
    description: 'Refuses (422) a Pin without state, as the master PIN event carries an empty Pin.',
  },
  'requires-imageinfo-object': {
    requirement: 'RECEIVER-IMAGEINFO-NA',
    also: ['RECEIVER-EVENT-KEYPAD-PIN-MANAGED', 'RECEIVER-EVENT-MASTER-PIN'],
    description: 'Refuses (422) a user whose imageInfo is the string "n/a".',
  },
  'requires-eventid': {
    requirement: 'RECEIVER-EVENT-LOCK-USER-ADD',
    also: ['RECEIVER-EVENT-LOCK-USER-REMOVE'],
    description: 'Refuses (422) an authorization event without EventID, as lock_user_add and lock_user_remove on lock registrations carry none.',
  },
  'guest-owner-usertype': {
    requirement: 'RECEIVER-EVENT-LOCK-USERTYPE-CHANGED',
    also: [],
    description: 'Expects UserType guest or owner (the spec\'s glosses) instead of user or superuser.',
  },
  'knows-two-access-types': {
    requirement: 'RECEIVER-EVENT-LOCK-ACCESSTYPE-CHANGED',
    also: [],
    description: 'Knows rule_access_always and rule_access_temporary only: refuses (422) rule_access_recurring.',
  },
  'requires-user-object': {
    requirement: 'RECEIVER-EVENT-USER-EVENTS',
    also: [],
    description: 'Refuses (422) an authorization event without a User object, as user events carry a top-level UserID instead.',
  },
  'rejects-unknown-pin-action': {
    requirement: 'RECEIVER-UNKNOWN-PIN-ACTION',
    also: [],
    description: 'Refuses (422) a Pin.action other than intent.',
  },
} as const satisfies Record<string, { requirement: string; also: readonly string[]; description: string }>;

export type ReceiverFaultName = keyof typeof RECEIVER_FAULTS;

export const RECEIVER_FAULT_NAMES = Object.keys(RECEIVER_FAULTS) as ReceiverFaultName[];

type Fields = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOUR = 3_600_000;

/**
 * The payload faults: the status and reason a faulty receiver refuses this event
 * with, or null. A crash is thrown, as the unguarded code would.
 */
export function shapeFault(event: Fields, faults: ReadonlySet<ReceiverFaultName>, now: number): { status: number; reason: string } | null {
  const refuse = (reason: string) => ({ status: 422, reason });
  const on = (name: ReceiverFaultName) => faults.has(name);
  const type = String(event.EventType);
  const user = event.User as Fields | undefined;
  const pin = event.Pin as Fields | undefined;
  const known = ['operation', 'status', 'configuration', 'system', 'systemstatus', 'battery', 'authorization'];
  if (on('rejects-unknown-event-types') && !known.includes(type)) return refuse('unknown EventType');
  if (on('forgets-status-event-type') && type === 'status') return refuse('unknown EventType');
  if (on('forgets-system-event-type') && type === 'system') return refuse('unknown EventType');
  if (on('rejects-keypad-device') && event.Device !== undefined && event.Device !== 'lock') return refuse('unknown Device');
  if (on('requires-full-user') && user && typeof user.FirstName !== 'string') return refuse('User without FirstName');
  if (on('requires-uuid-userid') && user && !UUID.test(String(user.UserID))) return refuse('User.UserID is not a UUID');
  if (on('crashes-without-user')) void (user as Fields).UserID; // TypeError without a User: the route answers 500
  if (on('rejects-lockid-array') && Array.isArray(event.LockID)) return refuse('LockID is not a string');
  const stamps = [event.Timestamp, event.timeStamp, event.TimestampDrifted].filter((v): v is number => typeof v === 'number');
  if (on('rejects-drifted-timestamp') && stamps.some((ms) => Math.abs(ms - now) > HOUR)) return refuse('timestamp out of range');
  if (on('requires-pin-state') && pin && typeof pin.state !== 'string') return refuse('Pin without state');
  const people = [user, event.PinUser as Fields | undefined].filter((p): p is Fields => !!p);
  if (on('requires-imageinfo-object') && people.some((p) => p.imageInfo !== undefined && typeof p.imageInfo !== 'object')) return refuse('imageInfo is not an object');
  if (on('requires-eventid') && type === 'authorization' && typeof event.EventID !== 'string') return refuse('no EventID');
  const userType = user?.UserType ?? event.UserType;
  if (on('guest-owner-usertype') && userType !== undefined && userType !== 'guest' && userType !== 'owner') return refuse('unknown UserType');
  const accessType = user?.AccessType ?? event.AccessType;
  if (on('knows-two-access-types') && accessType !== undefined && accessType !== 'rule_access_always' && accessType !== 'rule_access_temporary') return refuse('unknown AccessType');
  if (on('requires-user-object') && type === 'authorization' && !user) return refuse('no User object');
  if (on('rejects-unknown-pin-action') && pin && pin.action !== undefined && pin.action !== 'intent') return refuse('unknown Pin.action');
  return null;
}
