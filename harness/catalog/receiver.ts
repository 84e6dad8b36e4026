/**
 * The requirements of an application's webhook receiver (the receiver as the
 * target of `conformance --receiver URL`): what the spec binds the receiving end
 * to (Signature items 3-4, Delivery, the registration's header and token, the
 * event tables), as data. `rule` quotes the spec verbatim (cuts marked …);
 * `reading` says what lockconf checks and why. Where the spec is silent the
 * requirement is INFO: the receiver's answer is recorded, never judged.
 */
import { r, type Area, type Requirement } from './requirement.js';

const V = 'Webhook receiver' as const;

/** The receiver areas in report order. */
export const RECEIVER_AREAS: readonly Area[] = [V];

/** Why a receiver must take every documented shape: nothing is sent twice. */
const ACCEPT = 'A correctly signed delivery of this row, with the registration\'s header and token, is accepted (2xx), with every value the spec lists for the row (slices enum-value, where it lists any): the service does not retry, so a refused event is lost.';

/** The reading behind every "accepts what a conforming service may send" MUST. */
const MAY_SEND = 'Reading: a receiver must accept every form a conforming service may send, since the service does not retry and an event refused for its form is lost.';

export const RECEIVER_REQUIREMENTS: readonly Requirement[] = [
  // ── Genuine deliveries: every event row, accepted ────────────────────────
  r('RECEIVER-EVENT-OPERATION-APP', 'MUST', V, 'Lock events',
    'Lock operated by app or API | operation | unlock, lock, unlatch | Device=lock, User object with full fields',
    { reading: `${ACCEPT} The User carries names outside ASCII.` }),
  r('RECEIVER-EVENT-OPERATION-KEYPAD', 'MUST', V, 'Lock events',
    'Lock operated by keypad | operation | unlock, lock, unlatch | Device=keypad, User object', { reading: ACCEPT }),
  r('RECEIVER-EVENT-OPERATION-MANUAL', 'MUST', V, 'Lock events',
    'Lock turned manually | operation | unlock, lock, unlatch | Device=lock, User.UserID=manualunlock (unlock and unlatch) or manuallock (lock), timeStamp, Timestamp, EventID',
    { reading: `${ACCEPT} The User object carries only UserID (the manualunlock or manuallock marker).` }),
  r('RECEIVER-EVENT-DOOR-STATE', 'MUST', V, 'Lock events',
    'Door state | operation | closed, open, ajar | Device=lock, User.UserID=DoorStateChanged',
    { reading: `${ACCEPT} The User object carries only UserID=DoorStateChanged.` }),
  r('RECEIVER-EVENT-STATUS-CHECK', 'MUST', V, 'Lock events',
    'Status check result | status | unlock, lock, unlatch (state now) | Device=lock, User object. Sent to all listeners of the lock whenever a status check is made.',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-LOCK-NAME-CHANGED', 'MUST', V, 'Lock events',
    'Lock name changed | configuration | lock_name_changed | Lock.Name, User object',
    { reading: `${ACCEPT} The new Lock.Name is outside ASCII (accents, CJK, an emoji).` }),
  r('RECEIVER-EVENT-LOCK-BATTERY', 'MUST', V, 'Lock events',
    'Lock battery warning | system | lock_battery_alert | warningLevel (see States), userID (string, lower-case name)',
    { reading: `${ACCEPT} The user is named by a lower-case userID, not a User object.` }),
  r('RECEIVER-EVENT-LOCK-CLOCK-DRIFT', 'MUST', V, 'Lock events',
    'Lock clock wrong | systemstatus | lock_log_timestamp_drifted | warningLevel, Timestamp (time the webhook was sent), TimestampDrifted (lock-reported time, in the future or too far in the past)',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-KEYPAD-PIN-MANAGED', 'MUST', V, 'Lock events',
    'Keypad PIN managed (app-managed PINs) | configuration | keypad_pin_managed | Lock.Name, Pin {state, action}, PinUser (the PIN\'s assignee), User (the owner who added it). Pin.state is load, disable, enable or delete; the sample action is intent.',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-MASTER-PIN', 'MUST', V, 'Lock events',
    'Master PIN changed (locks with built-in keypad) | configuration | keypad_pin_managed | Pin is an empty object; User and PinUser carry UserID=masterpin, FirstName=Master, LastName=PIN, PhoneNo=n/a, Email=n/a, imageInfo=n/a; timeStamp, Timestamp, EventID',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-KEYPAD-BATTERY', 'MUST', V, 'Lock events',
    'Keypad battery | battery | keypad_battery_none, keypad_battery_warning, keypad_battery_critical | DeviceType=keypad, DeviceSerialNumber (string)',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-BRIDGE', 'MUST', V, 'Lock events',
    'Bridge went online/offline | systemstatus | online, offline | LockID is an array of lock identifiers',
    { reading: `${ACCEPT} LockID is an array, not a string.` }),
  r('RECEIVER-EVENT-LOCK-USER-ADD', 'MUST', V, 'Lock events',
    'User added to lock | authorization | lock_user_add | Lock.Name, User object', { reading: ACCEPT }),
  r('RECEIVER-EVENT-LOCK-USER-REMOVE', 'MUST', V, 'Lock events',
    'User removed from lock | authorization | lock_user_remove | Lock.Name, User object', { reading: ACCEPT }),
  r('RECEIVER-EVENT-LOCK-USERTYPE-CHANGED', 'MUST', V, 'Lock events',
    'Access level changed | authorization | lock_usertype_changed | Lock.Name, User object including UserType (user = guest, superuser = owner), timeStamp, EventID, Timestamp',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-LOCK-ACCESSTYPE-CHANGED', 'MUST', V, 'Lock events',
    'Access schedule changed | authorization | lock_accesstype_changed | Lock.Name, User object including AccessType, timeStamp, EventID, Timestamp',
    { reading: ACCEPT }),
  r('RECEIVER-EVENT-USER-EVENTS', 'MUST', V, 'User events',
    'All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp.',
    { reading: `${ACCEPT} Every row of the user events table (slices row: lock_user_add, lock_user_remove, lock_usertype_changed, lock_accesstype_changed) and every UserType and AccessType (slices enum-value): UserID is top-level, there is no User object.` }),
  r('RECEIVER-IMAGEINFO-NA', 'MUST', V, 'User object',
    'imageInfo | object with original and thumbnail, each having width (integer), height (integer), format (string), url (string), secure_url (string); or the string n/a',
    { reading: 'A correctly signed event whose User has imageInfo "n/a" (a user without a picture, not the master PIN) is accepted (2xx).' }),
  r('RECEIVER-UNKNOWN-EVENT-TYPE', 'SHOULD', V, 'Registration groups (notificationTypes)',
    'The exact mapping from registration groups to EventType values, the payload of operation.type events, and the payload of lifecycle events: not shown.',
    { reading: 'The service sends events whose payloads the spec does not show (operation.type, lifecycle): a correctly signed delivery with an EventType and Event the receiver does not know is accepted (2xx), since a refused event is not sent again. SHOULD: the spec does not say what a receiver does with them.' }),
  r('RECEIVER-UNKNOWN-PIN-ACTION', 'SHOULD', V, 'Lock events',
    'Values of Pin.action other than intent: not shown.',
    { reading: 'A correctly signed keypad_pin_managed delivery whose Pin.action is not "intent" is accepted (2xx). SHOULD, as above.' }),

  // ── Signature: what the receiver verifies ────────────────────────────────
  r('RECEIVER-SIGNATURE-RAW-BODY', 'MUST', V, 'Signature',
    'payload_string is the timestamp as a string, then the character ., then the JSON request body as a string.',
    { reading: 'The receiver verifies the signature over the body exactly as received (slices raw-layout): a correctly signed delivery is accepted (2xx) whose JSON is laid out differently from a re-serialization (spaces, escaped unicode, key order); whose JSON text has whitespace before or after the value (JSON\'s insignificant whitespace, RFC 8259 §2), signed with it; and whose lock name is in Unicode normalization form NFD, signed so. A receiver that trims or normalizes the body before verifying refuses them.' }),
  r('RECEIVER-REJECTS-TAMPERED-BODY', 'MUST', V, 'Signature',
    'The receiver compares expected and received signatures, and compares the timestamp to the current time.',
    { reading: 'A delivery whose body was changed after signing (a value changed; or only its whitespace) is rejected (non-2xx), in every legal form of X-Signature (slices signature-form) and on every event row (slices row: the rows whose examples in the spec omit X-Signature included). Adversarial probes, each one change away from a genuine delivery: one byte of the body changed (slices body-byte: the first, the last, one inside a string, a digit of a number, one drawn from the run\'s seed; the position is recorded); bytes added around the JSON after signing (slices body-surround: a leading blank, a trailing newline, a byte order mark); one member added to the JSON object after signing (slices body-key: repeating a key, which a last-wins parser reads, or a new key); the same text in the other Unicode normalization form than the one signed (slices normalization). Every one is rejected: the signature is over the body as a string, byte for byte.' }),
  r('RECEIVER-REJECTS-WRONG-KEY', 'MUST', V, 'Signature',
    'The expected signature is HMAC with SHA-256 over payload_string, keyed with the API key.',
    { reading: 'A delivery signed with another key than the API key (the client secret when LOCKCONF_CLIENT_SECRET is given, else a random key) is rejected (non-2xx), in every legal form of X-Signature (slices signature-form). Also signed with every other secret a receiver holds and the API key\'s near misses (slices wrong-key: the client secret, the registration\'s webhook token, its header name, an empty key, the API key with its first, last or a drawn character changed): "keyed with the API key" names one key. A slice whose secret the run was not given (LOCKCONF_CLIENT_SECRET, LOCKCONF_WEBHOOK_HEADER/TOKEN) is signed with a random key, as the client secret is.' }),
  r('RECEIVER-REJECTS-BODY-ONLY-SIGNATURE', 'MUST', V, 'Signature',
    'payload_string is the timestamp as a string, then the character ., then the JSON request body as a string.',
    { reading: 'A delivery whose v is the HMAC of the body alone (without the timestamp and the dot) is rejected (non-2xx), in every legal form of X-Signature (slices signature-form).' }),
  r('RECEIVER-REJECTS-CHANGED-T', 'MUST', V, 'Signature',
    'The receiver compares expected and received signatures, and compares the timestamp to the current time.',
    { reading: 'A delivery whose t was changed after signing (by one millisecond) is rejected (non-2xx): t is covered by the signature.' }),
  r('RECEIVER-REJECTS-STALE-T', 'SHOULD', V, 'Signature',
    'The receiver compares expected and received signatures, and compares the timestamp to the current time. A valid signature with a timestamp older than the receiver\'s tolerance should be rejected',
    { reading: 'A correctly signed delivery whose t is a day old is rejected (non-2xx), in every legal form of X-Signature (slices signature-form: t in epoch seconds included): a receiver that does not compare t with the current time accepts any recorded delivery again. Also when a fresh t is added before or after the signed day-old one (slices stale-disguise): a receiver that checks the freshness of one t and the signature over the other accepts a recorded delivery. Every stale delivery carries a body whose own times are current (slices body-time: timeStamp, Timestamp, both): the timestamp compared is t, and a receiver that falls back to the body\'s time accepts a recorded delivery whose body says it is fresh. SHOULD: the spec\'s own word for the rejection is "should", and the tolerance is the receiver\'s.' }),
  r('RECEIVER-TOLERANCE-5-MIN', 'SHOULD', V, 'Signature',
    'A valid signature with a timestamp older than the receiver\'s tolerance should be rejected; 5 minutes is the recommended tolerance.',
    { reading: 'Slices t-age: a correctly signed delivery whose t is 4 minutes or 4 minutes 55 seconds old is accepted (2xx), and one whose t is 5 minutes 5 seconds or 5 minutes 30 seconds old is rejected (non-2xx): a tolerance of the recommended 5 minutes takes the ones and refuses the others. The edges stand 5 seconds off the 5 minutes, not 1: the receiver reads its own clock when the delivery arrives, and no verdict may depend on how fast the machine sends it.' }),
  r('RECEIVER-CUSTOM-HEADER', 'SHOULD', V, 'Webhook registration (request body)',
    'token | string | Value sent in the header named by header. Chosen by the application; lets the receiver recognize the sender or pass parameters.',
    { reading: 'A correctly signed delivery without the registered header, or with a wrong token in it, is rejected (non-2xx) (slices custom-header-breach). Not tested without LOCKCONF_WEBHOOK_HEADER and LOCKCONF_WEBHOOK_TOKEN.' }),

  r('RECEIVER-REJECTS-ALTERED-V', 'MUST', V, 'Signature',
    'The receiver compares expected and received signatures, and compares the timestamp to the current time.',
    { reading: 'A delivery whose v is the right signature changed by one character is rejected (non-2xx) (slices v-alteration: its first or last hex character changed, one drawn from the run\'s seed, the last one dropped, a byte appended), or a prefix of it (half of it, one byte short, one hex digit), or the signature with as many bytes again after it: comparing the signatures is comparing all of them, not a prefix nor a part, nor the first bytes received. Each alteration is one every decoder of v sees: a lenient hex decoder ignores one trailing odd digit (and would read the real signature), so what is appended is a whole byte, two hex digits.' }),
  r('RECEIVER-REJECTS-INCOMPLETE-SIGNATURE', 'MUST', V, 'Signature',
    'X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature. … payload_string is the timestamp as a string, then the character ., then the JSON request body as a string.',
    { reading: 'A delivery whose X-Signature lacks one element is rejected (non-2xx) (slices element-breach: no t element, no v element, v empty): without t there is no payload_string to sign, without v no signature to compare. A receiver that skips the check when an element is missing accepts anything. So does one that skips it when the header itself is missing (slice no-header): an operation event, a row whose example carries X-Signature ("Headers on each delivery: Content-Type, X-Signature, …"), sent without it is rejected. The two rows whose examples omit the header (lock battery warning, lock clock) are RECEIVER-UNSIGNED\'s, recorded only.' }),

  // ── What a conforming service may send: every form accepted ──────────────
  r('RECEIVER-SIGNATURE-FORMS', 'MUST', V, 'Signature',
    'X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature.',
    { reading: `A correctly signed delivery is accepted (2xx) in every layout of X-Signature the format shown allows (slices signature-form, the layouts of the one list lockconf's service checks accept too, harness/catalog/signature-forms.ts): v before t, blanks after or around the comma, an element of another prefix before or after them. "comma-separated elements of the form prefix=value" gives no order and names t and v without closing the set of prefixes. ${MAY_SEND} (The encoding of v and the unit of t are RECEIVER-SIGNATURE-ENCODINGS.)` }),
  r('RECEIVER-SIGNATURE-ENCODINGS', 'SHOULD', V, 'Signature',
    'Prefix t is the timestamp; prefix v is the signature. … Text encoding of the signature value: not shown.',
    { reading: 'A correctly signed delivery is accepted (2xx) with v in upper-case hex and in base64, and with t in epoch seconds (slices signature-form, the encodings of the one list, harness/catalog/signature-forms.ts). SHOULD, not MUST: the spec leaves the text encoding of v "not shown" and gives t no unit, so a receiver that reads one encoding (lower-case hex, as the service\'s own wording suggests) and one unit (epoch milliseconds, as the samples\' timestamps) is not against the text. Accepting every one is robustness: a service that picked another loses every event to such a receiver, and the service does not retry.' }),
  r('RECEIVER-CONTENT-TYPE', 'MUST', V, 'Delivery',
    'The service sends one HTTP POST (JSON body, Content-Type application/json) to the registered url per event.',
    { reading: `A correctly signed delivery is accepted (2xx) with Content-Type application/json bare and with a charset parameter (application/json; charset=utf-8), as lockconf's service check allows (DELIVERY-CONTENT-TYPE) (slices content-type). ${MAY_SEND}` }),

  r('RECEIVER-LOCKID-FORMS', 'MUST', V, 'Webhook payload fields (common)',
    'LockID | string (hex identifier), or array of one such string in bridge online/offline events … Bridge went online/offline | systemstatus | online, offline | LockID is an array of lock identifiers',
    { reading: `A correctly signed delivery is accepted (2xx) with LockID in lower-case hex ("hex identifier" fixes no letter case) and with a bridge event whose LockID lists two locks (the Lock events row: "an array of lock identifiers"), as lockconf's service checks allow (the legal variants lower-case-lock-ids and bridge-lists-all-locks) (slices lockid-form). ${MAY_SEND}` }),

  // ── What the spec leaves open: recorded ──────────────────────────────────
  r('RECEIVER-UNSIGNED', 'INFO', V, 'Delivery',
    'Headers on each delivery: Content-Type, X-Signature, and the application-chosen header set to the application-chosen token. (The examples for the lock battery warning and the lock clock events omit X-Signature, though every webhook is stated to carry one.)',
    { reading: 'How the receiver answers a delivery without X-Signature is recorded: the spec\'s own examples omit it on two rows.' }),
  r('RECEIVER-REPLAY', 'INFO', V, 'Delivery',
    'Each event is delivered at most once.',
    { reading: 'How the receiver answers the same signed delivery a second time (within the tolerance) is recorded.' }),
  r('RECEIVER-FUTURE-T', 'INFO', V, 'Signature',
    'The receiver compares expected and received signatures, and compares the timestamp to the current time.',
    { reading: 'How the receiver answers a correctly signed delivery whose t lies 10 minutes, and a day, in the future is recorded: the spec only speaks of timestamps older than the tolerance.' }),
  r('RECEIVER-SIGNATURE-SECOND-V', 'INFO', V, 'Signature',
    'X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature.',
    { reading: 'How the receiver answers a header with a second v element that is not the signature (before the right one) is recorded: "prefix v is the signature" speaks of one, so no form of the legal list carries two (the order, other prefixes, blanks, encoding and unit of t are RECEIVER-SIGNATURE-FORMS).' }),
  r('RECEIVER-ANSWER-TIME', 'INFO', V, 'Delivery',
    'A response without an HTTP 2xx status is not retried. Each event is delivered at most once.',
    { reading: 'The time the receiver takes to answer each delivery is recorded: the service does not retry, so a receiver that answers late may lose events.' }),
];
