/**
 * Freedoms (issue 32): the choices the spec leaves open, as data beside the
 * requirements and their slices. Each freedom names the requirements it concerns,
 * quotes the spec's words that leave it open (verbatim, cuts marked …), and lists its
 * legal alternatives; the first is the reference mock's own choice. A check never
 * fails an alternative listed here: the self-verification runs the mock with each
 * other alternative on (a generated legal variant, test/self-verification/freedoms.ts)
 * and requires it to be judged with nothing failed or warned.
 *
 * An alternative is implemented in the mock behind the generic switch
 * `ctx.freedoms.chooses(FREEDOM, alternative)` (mock/freedoms.ts; MockOptions
 * `freedoms: ['FREEDOM=alternative']`), or, for the choices the mock made options of
 * before freedoms were data, by a hand-written legal variant (`variant`: its name in
 * test/self-verification/matrix.ts VARIANTS). test/self-verification/freedoms.test.ts
 * fails when an alternative has neither.
 */
import { SERVICE_REQUIREMENTS } from './service.js';

const isRequirementId = (id: string) => SERVICE_REQUIREMENTS.some((r) => r.id === id);

export interface FreedomAlternative {
  /** Stable, lower-case, dashes: the value after `=` in `FREEDOM=alternative`. */
  name: string;
  description: string;
  /** Implemented by this hand-written legal variant (matrix.ts VARIANTS) rather than by a freedom switch of the mock. */
  variant?: string;
}

export interface Freedom {
  /** Stable ID (upper case, dashes); not a requirement ID. */
  id: string;
  /** The requirements whose checks must accept every alternative. */
  requirements: readonly string[];
  /** The spec's section. */
  section: string;
  /** The spec's words that leave the choice open, verbatim (cuts marked …). */
  words: string;
  /** What the words leave open, in one sentence. */
  open: string;
  /** The legal alternatives; the first is the reference mock's default. */
  alternatives: readonly [FreedomAlternative, ...FreedomAlternative[]];
}

const EVENT_ROWS_WITH_USER_OBJECT = [
  'EVENT-OPERATION-KEYPAD', 'EVENT-STATUS-CHECK', 'EVENT-LOCK-NAME-CHANGED', 'EVENT-KEYPAD-PIN-MANAGED',
  'EVENT-LOCK-USER-ADD', 'EVENT-LOCK-USER-REMOVE', 'EVENT-LOCK-USERTYPE-CHANGED', 'EVENT-LOCK-ACCESSTYPE-CHANGED',
] as const;
const SIGNED = ['SIGNATURE-FORMAT', 'SIGNATURE-VALID', 'SIGNATURE-TIMESTAMP-CURRENT', 'SIGNATURE-ENCODING'] as const;

export const FREEDOMS: readonly Freedom[] = [
  // ── Token endpoint ──────────────────────────────────────────────────────
  {
    id: 'MISSING-PARAMETER-REFUSAL',
    requirements: ['TOKEN-REQUIRED-PARAMETER', 'TOKEN-MISSING-PARAMETER-ANSWER', 'TOKEN-MALFORMED-302-ERROR'],
    section: 'Errors',
    words: 'Token request where parameters are malformed, for example unquoted shell ampersands splitting the request, or the wrong HTTP method | HTTP 302 to /error.',
    open: 'The row names a request split by an unquoted & and the wrong method; a well-formed request of the code or refresh grant that lacks only its code or refresh_token is not named, and OAuth 2.0 (RFC 6749 §5.2) answers it 400 invalid_request.',
    alternatives: [
      { name: 'redirect-error', description: 'HTTP 302 to /error, as a malformed request of the Errors row.' },
      { name: 'invalid-request', description: 'HTTP 400 with an OAuth 2.0 error body, error=invalid_request (RFC 6749 §5.2: "The request is missing a required parameter").' },
    ],
  },
  {
    id: 'CC-REFUSAL-ANSWER',
    requirements: ['TOKEN-CC-DISABLED-BY-DEFAULT', 'TOKEN-CC-PER-CREDENTIAL', 'TOKEN-CC-REJECTION-STATUS'],
    section: 'Errors',
    words: 'client_credentials grant without permission | Rejected (status not described).',
    open: 'The status and body of the refusal.',
    alternatives: [
      { name: 'bad-request-400', description: 'HTTP 400, error=unauthorized_client.' },
      { name: 'forbidden-403', description: 'HTTP 403, error=unauthorized_client.' },
    ],
  },
  {
    id: 'ACCESS-TOKEN-LIFETIME',
    requirements: ['TOKEN-ACCESS-LIFETIME', 'TOKEN-ACCESS-LIFETIME-HONOURED', 'HEADERS-TOKEN-LIFETIME-24H', 'TOKEN-RESPONSE-SHAPE'],
    section: 'Refresh flow',
    words: 'Access token lifetime is given by expires_in; it is currently four months and may change at any time. … (access tokens are not issued valid for less than 24 hours)',
    open: 'Any lifetime of at least 24 hours.',
    alternatives: [
      { name: 'four-months', description: 'expires_in 10368000 (four months).' },
      { name: 'two-days', description: 'expires_in 172800 (two days).', variant: 'two-day-access-tokens' },
    ],
  },
  {
    id: 'EXTRA-FIELDS',
    requirements: ['TOKEN-RESPONSE-SHAPE', 'EVENT-OPERATION-APP', 'EVENT-LOCK-NAME-CHANGED', 'EVENT-USER-LOCK-USER-ADD'],
    section: 'Resources and their fields',
    words: 'Fields of the lock resource itself beyond LockID and Name: not shown.',
    open: 'The tables list the fields the service sends; none says the list is closed (except "On manual and door events it carries only UserID").',
    alternatives: [
      { name: 'none', description: 'Only the fields the tables list.' },
      { name: 'unknown-fields', description: 'Unknown extra fields in token responses and webhook payloads.', variant: 'extra-fields' },
    ],
  },

  // ── Webhook registration ────────────────────────────────────────────────
  {
    id: 'WEBHOOK-ENDPOINT-ANSWERS',
    requirements: ['WEBHOOK-LOCK-REGISTER', 'WEBHOOK-USER-REGISTER', 'WEBHOOK-LOCK-DELETE', 'WEBHOOK-USER-DELETE', 'WEBHOOK-ENDPOINT-RESPONSES'],
    section: 'Endpoints',
    words: 'Response bodies and status codes of the four webhook endpoints: not shown.',
    open: 'Any 2xx status, with or without a body.',
    alternatives: [
      { name: 'ok-200-json', description: 'HTTP 200 with a JSON description of the registration or deletion.' },
      { name: 'created-201-no-content-204', description: 'HTTP 201 to a registration and 204 to a deletion, no body.', variant: 'empty-webhook-answers' },
      { name: 'accepted-202', description: 'HTTP 202 with no body on every webhook endpoint.' },
    ],
  },

  {
    id: 'API-RESPONSE-BODIES',
    requirements: ['HEADERS-RESPONSE-BODIES', 'HEADERS-ROTATION-ON-SUCCESS', 'HEADERS-ROTATED-TOKEN-WORKS', 'TOKEN-CC-TOKEN-WORKS', 'REFRESH-NEW-ACCESS-TOKEN-WORKS'],
    section: 'Endpoints',
    words: 'Response bodies of GET /users/locks/mine and GET /users/me: not shown.',
    open: 'What the two API calls the spec names answer, beyond a successful status and the rotated x-access-token header.',
    alternatives: [
      { name: 'json-profile', description: 'JSON: the caller\'s profile (GET /users/me), the caller\'s locks keyed by lock ID (GET /users/locks/mine).' },
      { name: 'plain-text', description: 'HTTP 200 text/plain "ok" on both.' },
    ],
  },

  // ── Webhook signature ───────────────────────────────────────────────────
  {
    id: 'SIGNATURE-V-ENCODING',
    requirements: [...SIGNED],
    section: 'Signature',
    words: 'Text encoding of the signature value: not shown.',
    open: 'How the HMAC bytes are written in v.',
    alternatives: [
      { name: 'hex', description: 'Lower-case hexadecimal.' },
      { name: 'base64', description: 'Base64.', variant: 'base64-signatures' },
    ],
  },
  {
    id: 'SIGNATURE-T-UNIT',
    requirements: [...SIGNED],
    section: 'Signature',
    words: 'Prefix t is the timestamp; prefix v is the signature.',
    open: 'The unit of the timestamp.',
    alternatives: [
      { name: 'milliseconds', description: 'Epoch milliseconds (the unit of the payloads\' samples).' },
      { name: 'seconds', description: 'Epoch seconds.', variant: 'signature-seconds' },
    ],
  },
  {
    id: 'SIGNATURE-LAYOUT',
    requirements: [...SIGNED],
    section: 'Signature',
    words: 'X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature.',
    open: 'The order of the elements, blanks around the commas, elements of other prefixes, the case of hex digits (harness/catalog/signature-forms.ts).',
    alternatives: [
      { name: 't-then-v', description: 't=…,v=… in lower-case hex.' },
      { name: 'every-legal-layout', description: 'Each delivery in the next legal layout of the one list of forms.', variant: 'signature-layouts' },
    ],
  },

  // ── Webhook delivery ────────────────────────────────────────────────────
  {
    id: 'DELIVERY-ORDER-AND-SPEED',
    requirements: ['DELIVERY-ONE-POST', 'DELIVERY-STATUS-CHECK-FANOUT', 'DELIVERY-STATUS-EVERY-CHECK'],
    section: 'Delivery',
    words: 'The service sends one HTTP POST (JSON body, Content-Type application/json) to the registered url per event.',
    open: 'The order in which deliveries fan out, and how fast any answer comes.',
    alternatives: [
      { name: 'in-order-at-once', description: 'Deliveries in registration order, answers without delay.' },
      { name: 'random-order-and-latency', description: 'Deliveries in a random order with random latency, OAuth and API answers after a random delay (seeded).', variant: 'jitter' },
    ],
  },

  // ── Event payloads ──────────────────────────────────────────────────────
  {
    id: 'LIFECYCLE-PAYLOAD',
    requirements: ['EVENT-LIFECYCLE', 'WEBHOOK-GROUP-LIFECYCLE', 'DELIVERY-ONE-POST', 'SIGNATURE-VALID'],
    section: 'Registration groups (notificationTypes)',
    words: 'The exact mapping from registration groups to EventType values, the payload of operation.type events, and the payload of lifecycle events: not shown.',
    open: 'Every field of the lifecycle event\'s body.',
    alternatives: [
      { name: 'lifecycle-user-deleted', description: 'EventType lifecycle, Event user_deleted, UserID, EventID, timeStamp, Timestamp.' },
      { name: 'authorization-shape', description: 'EventType authorization, Event user_account_deleted, UserID, Timestamp.' },
    ],
  },
  {
    id: 'LOCK-ID-CASE',
    requirements: ['EVENT-OPERATION-APP', 'EVENT-BRIDGE', 'WEBHOOK-LOCK-REGISTER', 'EVENT-USER-LOCK-USER-ADD'],
    section: 'Webhook payload fields (common)',
    words: 'LockID | string (hex identifier), or array of one such string in bridge online/offline events | The lock concerned.',
    open: 'The case of the hex digits.',
    alternatives: [
      { name: 'upper-case', description: 'Upper-case hex.' },
      { name: 'lower-case', description: 'Lower-case hex.', variant: 'lower-case-lock-ids' },
    ],
  },
  {
    id: 'USER-OBJECT-FIELDS',
    requirements: [...EVENT_ROWS_WITH_USER_OBJECT],
    section: 'Lock events',
    words: 'Lock operated by app or API | operation | unlock, lock, unlatch | Device=lock, User object with full fields … Lock operated by keypad | operation | unlock, lock, unlatch | Device=keypad, User object',
    open: '"With full fields" is said of the app row alone: on every other row with a "User object" (and PinUser), which fields of the User object table it carries beyond UserID is open.',
    alternatives: [
      { name: 'full', description: 'Every field of the User object table: UserID, FirstName, LastName, PhoneNo, Email, imageInfo.' },
      { name: 'user-id-only', description: 'UserID alone (with the row\'s UserType or AccessType where the row says "including").' },
    ],
  },
  {
    id: 'MASTER-PIN-LOCK',
    requirements: ['EVENT-MASTER-PIN'],
    section: 'Lock events',
    words: 'Master PIN changed (locks with built-in keypad) | configuration | keypad_pin_managed | Pin is an empty object; User and PinUser carry UserID=masterpin, FirstName=Master, LastName=PIN, PhoneNo=n/a, Email=n/a, imageInfo=n/a; timeStamp, Timestamp, EventID',
    open: 'The row does not list Lock; whether the masterpin marker is "a user object" that brings the common table\'s Lock ("Present on configuration and authorization events with a user object") is open.',
    alternatives: [
      { name: 'present', description: 'Lock {Name} of the lock, as on the other configuration rows.' },
      { name: 'absent', description: 'No Lock object.' },
    ],
  },
  {
    id: 'LOCK-NAME-BLANKS',
    requirements: ['EVENT-LOCK-NAME-CHANGED'],
    section: 'Lock events',
    words: 'Lock | object | Has Name (string). … Lock name changed | configuration | lock_name_changed | Lock.Name, User object',
    open: 'No sentence says a name is stored with its outer blanks.',
    alternatives: [
      { name: 'kept', description: 'The new name exactly as given.' },
      { name: 'trimmed', description: 'The new name stored and reported without its leading and trailing blanks.' },
    ],
  },
  {
    id: 'BRIDGE-LOCK-LIST',
    requirements: ['EVENT-BRIDGE'],
    section: 'Lock events',
    words: 'Bridge went online/offline | systemstatus | online, offline | LockID is an array of lock identifiers',
    open: 'Which locks the array holds besides the lock concerned.',
    alternatives: [
      { name: 'lock-alone', description: 'The lock the registration is for.' },
      { name: 'every-lock-on-bridge', description: 'Every lock on the bridge.', variant: 'bridge-lists-all-locks' },
    ],
  },
  {
    id: 'SYSTEM-ROW-VALUES',
    requirements: ['EVENT-LOCK-BATTERY', 'EVENT-LOCK-CLOCK-DRIFT'],
    section: 'Lock events',
    words: 'Lock battery warning | system | lock_battery_alert | warningLevel (see States), userID (string, lower-case name) … Lock clock wrong | systemstatus | lock_log_timestamp_drifted | warningLevel, Timestamp (time the webhook was sent), TimestampDrifted',
    open: '"lower-case name" is the field\'s spelling, not its value; the clock row lists no values for warningLevel.',
    alternatives: [
      { name: 'lower-case-and-echoed', description: 'userID is the user\'s first name in lower case; the clock row\'s warningLevel is the level the control request named.' },
      { name: 'capitals-and-own-level', description: 'userID keeps the name\'s capitals; the clock row\'s warningLevel is a value of the service\'s own.', variant: 'free-system-values' },
    ],
  },
];

/** The freedom with this ID; throws on an unknown one. */
export function freedom(id: string): Freedom {
  const found = FREEDOMS.find((f) => f.id === id);
  if (!found) throw new Error(`unknown freedom: ${id}`);
  return found;
}

/** The freedoms that concern a requirement. */
export function freedomsOf(requirementId: string): Freedom[] {
  return FREEDOMS.filter((f) => f.requirements.includes(requirementId));
}

/** Declaration errors: unknown requirement IDs, duplicate IDs or names, a freedom with no other alternative. */
export function freedomDeclarationProblems(): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const f of FREEDOMS) {
    if (ids.has(f.id)) problems.push(`${f.id}: declared twice`);
    ids.add(f.id);
    if (isRequirementId(f.id)) problems.push(`${f.id}: a freedom ID must not be a requirement ID`);
    if (!/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/.test(f.id)) problems.push(`${f.id}: not an ID (upper case, dashes)`);
    for (const id of f.requirements) if (!isRequirementId(id)) problems.push(`${f.id}: unknown requirement ${id}`);
    if (f.alternatives.length < 2) problems.push(`${f.id}: no alternative besides the mock's own`);
    const names = new Set<string>();
    for (const a of f.alternatives) {
      if (!/^[a-z0-9][a-z0-9-]*$/.test(a.name)) problems.push(`${f.id}=${a.name}: not a name (lower case, dashes)`);
      if (names.has(a.name)) problems.push(`${f.id}=${a.name}: declared twice`);
      names.add(a.name);
    }
    if (f.alternatives[0].variant) problems.push(`${f.id}: the first alternative is the mock's default and needs no variant`);
  }
  return problems;
}
