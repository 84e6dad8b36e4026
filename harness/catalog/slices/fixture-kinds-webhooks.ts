/**
 * The fixture kinds of the Webhook registration, Webhook delivery, Webhook signature and
 * Event payloads areas (issue 32, "every universal quantifier a dimension"): for each
 * requirement and each kind of fixture (credential, lock, actor), either the dimension
 * that ranges over it (declared in webhooks-events.ts) or the words of its sentence that
 * restrict it. A kind whose sentence does not restrict it and that has no dimension yet
 * is listed in WEBHOOK_FIXTURE_KINDS_PENDING with what is missing: a known gap, reported,
 * never passed off as a restriction. test/harness/catalog/fixture-kinds-webhooks.test.ts
 * fails on a requirement of these areas that states neither.
 */
export type FixtureKind = 'credential' | 'lock' | 'actor';
export type FixtureKindStatement = { dimension: string } | { restrictedBy: string };
export type FixtureKinds = Partial<Record<FixtureKind, FixtureKindStatement>>;

const dim = (dimension: string): FixtureKindStatement => ({ dimension });
const by = (restrictedBy: string): FixtureKindStatement => ({ restrictedBy });

// Credential: one application, one credential, in every sentence of these areas.
const REGISTRATION_CREDENTIAL = by("clientID | string | The application's client_id.");
const DELIVERY_CREDENTIAL = by('The service sends one HTTP POST (JSON body, Content-Type application/json) to the registered url per event.');
const SIGNING_CREDENTIAL = by('The expected signature is HMAC with SHA-256 over payload_string, keyed with the API key.');
const EVENT_CREDENTIAL = by('Webhooks notify the application of events on locks, keypads and users.');

// Lock: a user webhook has none; a row of a device has the lock with that device.
const USER_WEBHOOK = by('Registers a user webhook. Same body shape; notificationTypes for users: lockmembership, lifecycle.');
const USER_EVENT_LOCK = by('User events (registered through POST /webhook/user)');
const NOT_A_LOCK_RULE = by('Response bodies and status codes of the four webhook endpoints: not shown.');

// Actor: fixed by the row's own values, or by who registers.
const NO_ACTOR_SIGNATURE = by('keyed with the API key');

export const WEBHOOK_FIXTURE_KINDS: Record<string, FixtureKinds> = {
  // ── Webhook registration ──
  'WEBHOOK-LOCK-REGISTER': { credential: REGISTRATION_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'WEBHOOK-LOCK-OVERWRITE': { credential: REGISTRATION_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'WEBHOOK-LOCK-PER-USER': { credential: REGISTRATION_CREDENTIAL, actor: by('One per lock per user') },
  'WEBHOOK-LOCK-PER-LOCK': { credential: REGISTRATION_CREDENTIAL, lock: by('One per lock per user') },
  'WEBHOOK-LOCK-DELETE': { credential: REGISTRATION_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'WEBHOOK-KEYPAD-VIA-LOCK': { credential: REGISTRATION_CREDENTIAL, lock: dim('keypad') },
  'WEBHOOK-USER-REGISTER': { credential: REGISTRATION_CREDENTIAL, lock: USER_WEBHOOK },
  'WEBHOOK-USER-OVERWRITE': { credential: REGISTRATION_CREDENTIAL, lock: USER_WEBHOOK },
  'WEBHOOK-USER-DELETE': { credential: REGISTRATION_CREDENTIAL, lock: by('Deletes the user webhook registration. No body.') },
  'WEBHOOK-NOTIFICATION-FILTER': { credential: REGISTRATION_CREDENTIAL },
  'WEBHOOK-GROUP-OPERATION': { credential: REGISTRATION_CREDENTIAL, actor: by('status checked by anyone') },
  'WEBHOOK-GROUP-OPERATION-TYPE': { credential: REGISTRATION_CREDENTIAL },
  'WEBHOOK-GROUP-CONFIGURATION': { credential: REGISTRATION_CREDENTIAL },
  'WEBHOOK-GROUP-BATTERY': { credential: REGISTRATION_CREDENTIAL, actor: by('Batteries low in the lock or its keypad.') },
  'WEBHOOK-GROUP-SYSTEMSTATUS': { credential: REGISTRATION_CREDENTIAL, actor: by('Lock went offline or came online (reachable remotely).') },
  'WEBHOOK-GROUP-ACCESSMGMT': { credential: REGISTRATION_CREDENTIAL },
  'WEBHOOK-GROUP-LOCKMEMBERSHIP': { credential: REGISTRATION_CREDENTIAL, lock: USER_WEBHOOK },
  'WEBHOOK-GROUP-LIFECYCLE': { credential: REGISTRATION_CREDENTIAL, lock: by('lifecycle (user) | The user deleted their account.'), actor: by('The user deleted their account.') },
  'WEBHOOK-ENDPOINT-RESPONSES': { credential: REGISTRATION_CREDENTIAL, lock: NOT_A_LOCK_RULE, actor: NOT_A_LOCK_RULE },

  // ── Webhook delivery ──
  // Each delivery to a registration on either lock, made by the lock's owner or a guest on it (pairs: suites/support/lock-roles.ts).
  'DELIVERY-ONE-POST': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-CONTENT-TYPE': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-CUSTOM-HEADER': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-SIGNATURE-PRESENT': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-NO-RETRY': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-NO-RETRY-UNANSWERED': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-NO-RETRY-TIMEOUT': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-NO-REDIRECT': { credential: DELIVERY_CREDENTIAL, lock: dim('lock'), actor: dim('role') },
  'DELIVERY-STATUS-CHECK-FANOUT': { credential: DELIVERY_CREDENTIAL, actor: dim('role') },
  'DELIVERY-STATUS-EVERY-CHECK': { credential: DELIVERY_CREDENTIAL, lock: dim('lock') },
  'DELIVERY-STATUS-CHECK-ENDPOINT': { credential: DELIVERY_CREDENTIAL, lock: by('Method, request and response of /remoteoperate/status: not shown.'), actor: by('Method, request and response of /remoteoperate/status: not shown.') },

  // ── Webhook signature ──
  'SIGNATURE-FORMAT': { credential: SIGNING_CREDENTIAL, lock: dim('lock'), actor: NO_ACTOR_SIGNATURE },
  'SIGNATURE-VALID': { credential: SIGNING_CREDENTIAL, lock: dim('lock'), actor: NO_ACTOR_SIGNATURE },
  'SIGNATURE-TIMESTAMP-CURRENT': { credential: SIGNING_CREDENTIAL, lock: dim('lock'), actor: NO_ACTOR_SIGNATURE },
  'SIGNATURE-ENCODING': { credential: SIGNING_CREDENTIAL, lock: by('Text encoding of the signature value: not shown.'), actor: by('Text encoding of the signature value: not shown.') },

  // ── Event payloads: lock events ──
  'EVENT-OPERATION-APP': { credential: EVENT_CREDENTIAL },
  'EVENT-OPERATION-KEYPAD': { credential: EVENT_CREDENTIAL, lock: dim('keypad') },
  'EVENT-OPERATION-MANUAL': { credential: EVENT_CREDENTIAL, actor: by('User.UserID=manualunlock (unlock and unlatch) or manuallock (lock)') },
  'EVENT-DOOR-STATE': { credential: EVENT_CREDENTIAL, lock: by('Door (door sensor)'), actor: by('User.UserID=DoorStateChanged') },
  'EVENT-STATUS-CHECK': { credential: EVENT_CREDENTIAL, actor: dim('role') },
  'EVENT-STATUS-CHECK-STATE': { credential: EVENT_CREDENTIAL, actor: by('The three `operation.*` kinds also set the lock\'s state to `value`') },
  'EVENT-LOCK-NAME-CHANGED': { credential: EVENT_CREDENTIAL },
  'EVENT-LOCK-BATTERY': { credential: EVENT_CREDENTIAL, actor: by('Lock battery warning | system | lock_battery_alert | warningLevel (see States), userID (string, lower-case name)') },
  'EVENT-LOCK-CLOCK-DRIFT': { credential: EVENT_CREDENTIAL, actor: by('Lock clock wrong | systemstatus | lock_log_timestamp_drifted | warningLevel, Timestamp (time the webhook was sent), TimestampDrifted') },
  'EVENT-KEYPAD-PIN-MANAGED': { credential: EVENT_CREDENTIAL, lock: dim('keypad'), actor: by('User (the owner who added it)') },
  'EVENT-PIN-ACTION-INTENT': { credential: EVENT_CREDENTIAL, lock: dim('keypad'), actor: by('User (the owner who added it)') },
  'EVENT-MASTER-PIN': { credential: EVENT_CREDENTIAL, lock: by('Master PIN changed (locks with built-in keypad)'), actor: by('User and PinUser carry UserID=masterpin') },
  'EVENT-KEYPAD-BATTERY': { credential: EVENT_CREDENTIAL, lock: dim('keypad'), actor: by('DeviceType=keypad, DeviceSerialNumber (string)') },
  'EVENT-BRIDGE': { credential: EVENT_CREDENTIAL, actor: by('Bridge went online/offline | systemstatus | online, offline | LockID is an array of lock identifiers') },
  'EVENT-LOCK-USER-ADD': { credential: EVENT_CREDENTIAL },
  'EVENT-LOCK-USER-REMOVE': { credential: EVENT_CREDENTIAL },
  'EVENT-LOCK-USERTYPE-CHANGED': { credential: EVENT_CREDENTIAL },
  'EVENT-LOCK-ACCESSTYPE-CHANGED': { credential: EVENT_CREDENTIAL },
  'EVENT-OPERATION-TYPE': { credential: EVENT_CREDENTIAL, lock: by('the payload of operation.type events … not shown'), actor: by('the payload of operation.type events … not shown') },
  'EVENT-TIMESTAMP-UNITS': { credential: EVENT_CREDENTIAL, actor: by('Timestamp | integer (epoch milliseconds in samples)') },
  'EVENT-TIMESTAMP-ORDER': { credential: EVENT_CREDENTIAL, actor: by('For operation events, Timestamp is stated to be when the event happened on the lock') },
  'EVENT-BRIDGE-OFFLINE-DELAY': { credential: EVENT_CREDENTIAL, actor: by('The bridge offline event is sent after about 5 minutes without contact') },

  // ── Event payloads: user events ──
  // The user a user event is about, whose own registration receives it: a member of the lock, its owner, or no member.
  'EVENT-USER-LOCK-USER-ADD': { credential: EVENT_CREDENTIAL, actor: dim('subject') },
  'EVENT-USER-LOCK-USER-REMOVE': { credential: EVENT_CREDENTIAL, actor: dim('subject') },
  'EVENT-USER-USERTYPE-CHANGED': { credential: EVENT_CREDENTIAL, actor: dim('subject') },
  'EVENT-USER-ACCESSTYPE-CHANGED': { credential: EVENT_CREDENTIAL, actor: dim('subject') },
  'EVENT-LIFECYCLE': { credential: EVENT_CREDENTIAL, lock: by('lifecycle (user) | The user deleted their account.'), actor: by('The user deleted their account.') },
};

/**
 * Kinds whose sentence does not restrict them and that have no dimension yet: the gaps of
 * "every universal quantifier a dimension" left on these areas, each with what is unrestricted.
 * An entry here must not also be stated above (the test holds the two apart).
 */
const ANY_LOCK = 'the sentence speaks of "a lock" / "the lock" without restriction: a `lock` dimension is still to be declared';
const ANY_ACTOR = 'the acting or registering user is not restricted (owner or guest): a `role` dimension is still to be declared';
const lockAndActor = { lock: ANY_LOCK, actor: ANY_ACTOR } as const;

export const WEBHOOK_FIXTURE_KINDS_PENDING: Record<string, Partial<Record<FixtureKind, string>>> = {
  'WEBHOOK-LOCK-PER-USER': { lock: ANY_LOCK },
  'WEBHOOK-LOCK-PER-LOCK': { actor: ANY_ACTOR },
  'WEBHOOK-KEYPAD-VIA-LOCK': { actor: ANY_ACTOR },
  'WEBHOOK-USER-REGISTER': { actor: ANY_ACTOR },
  'WEBHOOK-USER-OVERWRITE': { actor: ANY_ACTOR },
  'WEBHOOK-USER-DELETE': { actor: ANY_ACTOR },
  'WEBHOOK-NOTIFICATION-FILTER': lockAndActor,
  'WEBHOOK-GROUP-OPERATION': { lock: ANY_LOCK },
  'WEBHOOK-GROUP-OPERATION-TYPE': lockAndActor,
  'WEBHOOK-GROUP-CONFIGURATION': lockAndActor,
  'WEBHOOK-GROUP-BATTERY': { lock: ANY_LOCK },
  'WEBHOOK-GROUP-SYSTEMSTATUS': { lock: ANY_LOCK },
  'WEBHOOK-GROUP-ACCESSMGMT': lockAndActor,
  'WEBHOOK-GROUP-LOCKMEMBERSHIP': { actor: ANY_ACTOR },
  'DELIVERY-STATUS-CHECK-FANOUT': { lock: ANY_LOCK },
  'DELIVERY-STATUS-EVERY-CHECK': { actor: ANY_ACTOR },
  'EVENT-OPERATION-APP': lockAndActor,
  'EVENT-OPERATION-KEYPAD': { actor: ANY_ACTOR },
  'EVENT-OPERATION-MANUAL': { lock: ANY_LOCK },
  'EVENT-STATUS-CHECK': { lock: ANY_LOCK },
  'EVENT-STATUS-CHECK-STATE': { lock: ANY_LOCK },
  'EVENT-LOCK-NAME-CHANGED': lockAndActor,
  'EVENT-LOCK-BATTERY': { lock: ANY_LOCK },
  'EVENT-LOCK-CLOCK-DRIFT': { lock: ANY_LOCK },
  'EVENT-BRIDGE': { lock: ANY_LOCK },
  'EVENT-LOCK-USER-ADD': lockAndActor,
  'EVENT-LOCK-USER-REMOVE': lockAndActor,
  'EVENT-LOCK-USERTYPE-CHANGED': lockAndActor,
  'EVENT-LOCK-ACCESSTYPE-CHANGED': lockAndActor,
  'EVENT-TIMESTAMP-UNITS': { lock: ANY_LOCK },
  'EVENT-TIMESTAMP-ORDER': { lock: ANY_LOCK },
  'EVENT-BRIDGE-OFFLINE-DELAY': { lock: ANY_LOCK },
  'EVENT-USER-LOCK-USER-ADD': { lock: ANY_LOCK },
  'EVENT-USER-LOCK-USER-REMOVE': { lock: ANY_LOCK },
  'EVENT-USER-USERTYPE-CHANGED': { lock: ANY_LOCK },
  'EVENT-USER-ACCESSTYPE-CHANGED': { lock: ANY_LOCK },
};
