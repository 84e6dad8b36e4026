/**
 * Slices of the Webhook receiver area (`conformance --receiver`): the dimensions
 * the spec gives what a receiver must accept and refuse. Shared with the service
 * side: the event rows and enumerated values (webhooks-events.ts) and the legal
 * X-Signature forms (../signature-forms.ts). Receiver-only dimensions are here.
 * The generated faults break the example receiver (examples/app/receiver-faults.ts
 * RECEIVER_SLICE_BREAKS), not the mock.
 */
import { ENCODING_FORM_IDS, LAYOUT_FORM_IDS, SIGNATURE_FORM_IDS } from '../signature-forms.js';
import type { Dimension, SliceDeclarations } from './types.js';

/** Every legal form of the X-Signature header (harness/catalog/signature-forms.ts). */
export const SIGNATURE_FORM: Dimension = {
  id: 'signature-form',
  title: 'Legal form of the X-Signature header (order, blanks, other elements, encoding of v, unit of t)',
  source: 'Signature: "X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature." "Text encoding of the signature value: not shown." (the list and the reading of each form: harness/catalog/signature-forms.ts)',
  values: SIGNATURE_FORM_IDS,
};

/** How a delivery can fail the registration's custom header. */
export const CUSTOM_HEADER_BREACH: Dimension = {
  id: 'custom-header-breach',
  title: 'How a delivery departs from the registration\'s custom header and token',
  source: 'Webhook registration (request body): "header | string | Name of an extra header the service adds to every webhook." "token | string | Value sent in the header named by header. … lets the receiver recognize the sender"',
  values: ['missing', 'wrong-token'],
};

/** The Content-Type values of a JSON delivery. */
export const CONTENT_TYPE: Dimension = {
  id: 'content-type',
  title: 'Content-Type of a delivery (the media type application/json, bare or with a charset parameter)',
  source: 'Delivery: "The service sends one HTTP POST (JSON body, Content-Type application/json) to the registered url per event." (a parameter such as charset leaves the media type application/json: RFC 9110 §8.3)',
  values: ['bare', 'charset-utf-8'],
};

/** The age of t on either side of the recommended tolerance. */
export const T_AGE: Dimension = {
  id: 't-age',
  title: 'Age of a correctly signed delivery\'s t against the recommended 5-minute tolerance',
  source: 'Signature: "A valid signature with a timestamp older than the receiver\'s tolerance should be rejected; 5 minutes is the recommended tolerance." Limits: "Recommended signature timestamp tolerance | 5 minutes."',
  values: ['inside-4-min', 'inside-4-min-55-s', 'beyond-5-min-5-s', 'beyond-5-min-30-s'],
};

// ── Adversarial probe domains: one change away from a genuine delivery ─────
// Each value is an edge of its domain, or a draw from the run's seed (recorded,
// replayable with --seed): the probes are built in harness/receiver/probes.ts.

/** Where one byte of a signed body is changed after signing. */
export const BODY_BYTE: Dimension = {
  id: 'body-byte',
  title: 'Position of the one byte of the body changed after signing (its lowest bit flipped)',
  source: 'Signature: "payload_string is the timestamp as a string, then the character ., then the JSON request body as a string." (every byte of the body is signed)',
  values: ['first', 'last', 'inside-string', 'digit-of-number', 'drawn'],
};

/** Bytes added around the JSON text after signing. */
export const BODY_SURROUND: Dimension = {
  id: 'body-surround',
  title: 'Bytes added around the JSON body after signing',
  source: 'Signature: "payload_string is … the JSON request body as a string." (bytes outside the JSON value are bytes of the body)',
  // Not a byte-order mark: a receiver that decodes the body as UTF-8 drops it (RFC 8259 §8.1 lets a parser ignore one),
  // and the string it verifies is then the one signed: accepting it is a reading of "the JSON request body as a string".
  values: ['leading-blank', 'trailing-newline'],
};

/** One member added to a signed JSON object after signing. */
export const BODY_KEY: Dimension = {
  id: 'body-key',
  title: 'One member added to the body\'s JSON object after signing: repeating a key, or a new one',
  source: 'Signature: "payload_string is … the JSON request body as a string." (a member added is bytes added; a repeated key changes the value a last-wins parser reads)',
  values: ['key-repeated', 'key-added'],
};

/** The same text in the other Unicode normalization form than the one signed. */
export const NORMALIZATION: Dimension = {
  id: 'normalization',
  title: 'A lock name signed in one Unicode normalization form, sent in the other',
  source: 'Signature: "payload_string is … the JSON request body as a string." (the string as sent, not an equivalent one)',
  values: ['signed-nfc-sent-nfd', 'signed-nfd-sent-nfc'],
};

/** The layouts of a genuine body a receiver must verify as they are. */
export const RAW_LAYOUT: Dimension = {
  id: 'raw-layout',
  title: 'Layout of a correctly signed body that a receiver rewriting the body before verifying would refuse',
  source: 'Signature: "payload_string is … the JSON request body as a string." RFC 8259 §2: insignificant whitespace is allowed before or after the JSON value.',
  values: ['other-serializer', 'leading-whitespace', 'trailing-whitespace', 'nfd-text'],
};

/** How v departs from the signature by one character. */
export const V_ALTERATION: Dimension = {
  id: 'v-alteration',
  title: 'One character of v changed or dropped, v cut to a prefix of the signature (half, one byte short, one hex digit), or bytes appended beyond its length',
  source: 'Signature: "The receiver compares expected and received signatures" (the whole of each: a prefix of the signature, or the signature with bytes after it, is not the signature; each alteration one every decoder of v sees: a lenient hex decoder ignores a trailing odd digit, so what is added is whole bytes)',
  values: ['first-char', 'last-char', 'drawn-char', 'last-char-dropped', 'prefix-half', 'prefix-one-byte-short', 'prefix-one-digit', 'byte-appended', 'signature-doubled'],
};

/** The keys other than the API key a delivery can be signed with: the other secrets a receiver holds, and the API key one character off. */
export const WRONG_KEY: Dimension = {
  id: 'wrong-key',
  title: 'The key a forged delivery is signed with: another secret of the application (client secret, the registration\'s token, its header name), an empty key, the API key with one character changed (first, last, drawn)',
  source: 'Signature: "The expected signature is HMAC with SHA-256 over payload_string, keyed with the API key." Credentials: "client_secret | string | Password-like"; Webhook registration: "token | string | Value sent in the header named by header."',
  values: ['client-secret', 'webhook-token', 'custom-header-name', 'empty-key', 'api-key-first-char', 'api-key-last-char', 'api-key-drawn-char'],
};

/**
 * How old a stale t is: from hours past any sensible tolerance to decades (t near the epoch). A receiver's
 * age arithmetic can fail far from the one sample of a day: a 32-bit millisecond difference wraps after
 * about 25 days, a t read in the wrong unit lands years away.
 */
export const STALE_AGE: Dimension = {
  id: 'stale-age',
  title: 'The age of a stale t: hours, a day, a month, a year, decades (t near the epoch)',
  source: 'Signature: "A valid signature with a timestamp older than the receiver\'s tolerance should be rejected; 5 minutes is the recommended tolerance." (any timestamp older than the tolerance, however much older)',
  values: ['hours', 'a-day', 'a-month', 'a-year', 'decades'],
};

/** The body's own times of a stale delivery. */
export const BODY_TIME: Dimension = {
  id: 'body-time',
  title: 'The body\'s own times (timeStamp, Timestamp) of a delivery whose t is stale: current, one or both',
  source: 'Signature: "compares the timestamp to the current time" (t, the signed timestamp of X-Signature); Webhook payload fields: "timeStamp | … Time the webhook was sent", "Timestamp | … Time of the event, or of sending" (the body\'s times are not t)',
  values: ['fresh-timeStamp', 'fresh-Timestamp', 'fresh-both'],
};

/** An element of X-Signature missing or empty. */
export const ELEMENT_BREACH: Dimension = {
  id: 'element-breach',
  title: 'An element of X-Signature missing or empty, or the header itself missing (on an operation event, a row whose example carries it)',
  source: 'Signature: "X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature."; Delivery: "Headers on each delivery: Content-Type, X-Signature, and the application-chosen header"; "The receiver compares expected and received signatures": a receiver that verifies only when the header is there compares nothing',
  values: ['no-t', 'no-v', 'empty-v', 'no-header'],
};

/** A recorded delivery disguised by a fresh t beside the signed one. */
export const STALE_DISGUISE: Dimension = {
  id: 'stale-disguise',
  title: 'A delivery signed with a day-old t, a fresh t element added after or before it',
  source: 'Signature: "Prefix t is the timestamp" (one); "A valid signature with a timestamp older than the receiver\'s tolerance should be rejected"',
  values: ['fresh-t-after', 'fresh-t-before'],
};

/** The forms of LockID the spec's words allow. */
export const LOCKID_FORM: Dimension = {
  id: 'lockid-form',
  title: 'Form of LockID the spec allows beyond the samples (letter case of the hex, several locks on a bridge event)',
  source: 'Webhook payload fields (common): "LockID | string (hex identifier), or array of one such string in bridge online/offline events"; Lock events: "Bridge went online/offline | systemstatus | online, offline | LockID is an array of lock identifiers"',
  values: ['lower-case-hex', 'bridge-several-locks'],
};

const LOCK_STATES = ['unlock', 'lock', 'unlatch'];
const DOOR_STATES = ['closed', 'open', 'ajar'];
const BATTERY_LEVELS = ['lock_state_battery_warning_none', 'lock_state_battery_warning_4week', 'lock_state_battery_warning_2week', 'lock_state_battery_warning_1week', 'lock_state_battery_warning_2day'];
const KEYPAD_BATTERY = ['keypad_battery_none', 'keypad_battery_warning', 'keypad_battery_critical'];
const PIN_STATES = ['load', 'disable', 'enable', 'delete'];
const USER_TYPES = ['user', 'superuser'];
const ACCESS_TYPES = ['rule_access_always', 'rule_access_temporary', 'rule_access_recurring'];
const USER_ROWS = ['user.lock_user_add', 'user.lock_user_remove', 'user.lock_usertype_changed', 'user.lock_accesstype_changed'];

export const RECEIVER_SLICES: SliceDeclarations = {
  dimensions: [SIGNATURE_FORM, CUSTOM_HEADER_BREACH, CONTENT_TYPE, T_AGE, LOCKID_FORM, BODY_BYTE, BODY_SURROUND, BODY_KEY, NORMALIZATION, RAW_LAYOUT, V_ALTERATION, ELEMENT_BREACH, STALE_DISGUISE, WRONG_KEY, BODY_TIME, STALE_AGE],
  slices: {
    // Every value a row reports is accepted: a receiver that knows some of them loses the others' events.
    'RECEIVER-EVENT-OPERATION-APP': { 'enum-value': LOCK_STATES },
    'RECEIVER-EVENT-OPERATION-KEYPAD': { 'enum-value': LOCK_STATES },
    'RECEIVER-EVENT-OPERATION-MANUAL': { 'enum-value': LOCK_STATES },
    'RECEIVER-EVENT-DOOR-STATE': { 'enum-value': DOOR_STATES },
    'RECEIVER-EVENT-STATUS-CHECK': { 'enum-value': LOCK_STATES },
    'RECEIVER-EVENT-LOCK-BATTERY': { 'enum-value': BATTERY_LEVELS },
    'RECEIVER-EVENT-KEYPAD-PIN-MANAGED': { 'enum-value': PIN_STATES },
    'RECEIVER-EVENT-KEYPAD-BATTERY': { 'enum-value': KEYPAD_BATTERY },
    'RECEIVER-EVENT-BRIDGE': { 'enum-value': ['online', 'offline'] },
    'RECEIVER-EVENT-LOCK-USERTYPE-CHANGED': { 'enum-value': USER_TYPES },
    'RECEIVER-EVENT-LOCK-ACCESSTYPE-CHANGED': { 'enum-value': ACCESS_TYPES },
    'RECEIVER-EVENT-USER-EVENTS': { row: USER_ROWS, 'enum-value': [...USER_TYPES, ...ACCESS_TYPES] },
    // What a conforming service may send, accepted in every form.
    'RECEIVER-SIGNATURE-FORMS': { 'signature-form': LAYOUT_FORM_IDS },
    'RECEIVER-SIGNATURE-ENCODINGS': { 'signature-form': ENCODING_FORM_IDS },
    'RECEIVER-SIGNATURE-RAW-BODY': { 'raw-layout': 'all' },
    'RECEIVER-CONTENT-TYPE': { 'content-type': 'all' },
    'RECEIVER-LOCKID-FORMS': { 'lockid-form': 'all' },
    // Every forgery refused in every form, a changed body on every row.
    'RECEIVER-REJECTS-TAMPERED-BODY': { 'signature-form': 'all', row: 'all', 'body-byte': 'all', 'body-surround': 'all', 'body-key': 'all', normalization: 'all' },
    'RECEIVER-REJECTS-ALTERED-V': { 'v-alteration': 'all' },
    'RECEIVER-REJECTS-INCOMPLETE-SIGNATURE': { 'element-breach': 'all' },
    'RECEIVER-REJECTS-WRONG-KEY': { 'signature-form': 'all', 'wrong-key': 'all' },
    'RECEIVER-REJECTS-BODY-ONLY-SIGNATURE': { 'signature-form': 'all' },
    'RECEIVER-REJECTS-STALE-T': { 'signature-form': 'all', 'stale-disguise': 'all', 'body-time': 'all', 'stale-age': 'all' },
    'RECEIVER-TOLERANCE-5-MIN': { 't-age': 'all' },
    'RECEIVER-CUSTOM-HEADER': { 'custom-header-breach': 'all' },
  },
};
