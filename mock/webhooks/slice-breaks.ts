/**
 * The slice break points of the Webhook delivery, Webhook signature and Event
 * payloads areas (spread into SLICE_BREAKS, mock/slice-faults.ts). Each is ONE
 * call of ctx.faults.breaks at the place the rule is implemented, generic over
 * its dimension's values: delivery and signature rules over the event row
 * (mock/webhooks/delivery.ts prepare), the no-retry and no-redirect rules over the
 * receiver's answer (delivery.ts #followUp), payload rules over the field and the
 * enumerated value (mock/events/payload-breaks.ts), the status check fan-out over
 * the role of the user who checked (mock/events/event-service.ts emitStatus), delivery and signature rules also over
 * the registration's lock and its registering user's role (delivery.ts prepare, #where), user events
 * over their subject's relation to the lock (mock/events/payloads.ts membershipForUser).
 */
import type { SliceBreak } from '../slice-break.js';

const FIELD = 'On that payload field of the row: a value of the wrong type (a string becomes a number, anything else true).';
const VALUE = 'When the row reports that enumerated value, it reports the next value of the same enumeration instead.';
const SUBJECT = 'About a user of that relation to the lock (a member, its owner, no member of it), the user-webhook payload leaves LockID out (mock/events/payloads.ts membershipForUser).';
const payload = { dims: ['field', 'enum-value'], description: `${FIELD} ${VALUE}` } as const;
const fieldOnly = { dims: ['field'], description: FIELD } as const;
const GROUP_ROW = { dims: ['row'], description: 'A registration naming the group without every other group of its kind receives no event of that row (mock/events/event-service.ts #dispatch).' } as const;

export const WEBHOOK_SLICE_BREAKS = {
  // Webhook registration
  'WEBHOOK-LOCK-REGISTER': { dims: ['url-part', 'lock', 'role', 'registration-fields'], description: 'A lock registration whose url has that component is delivered to a mangled url (query dropped, path cut to two segments, path lower-cased, loopback host pinned to 127.0.0.1, IPv6 brackets dropped, port dropped, https downgraded to http: mock/webhooks/url-parts.ts); one on that lock of its set, or made by a user of that role, loses its url\'s query (mock/webhooks/delivery.ts prepare); one without that optional field is answered as registered but not kept (mock/api/webhook-routes.ts).' },
  'WEBHOOK-USER-REGISTER': { dims: ['url-part', 'registration-fields'], description: 'A user registration whose url has that component is delivered to a mangled url (query dropped, path cut to two segments, path lower-cased, loopback host pinned to 127.0.0.1, IPv6 brackets dropped, port dropped, https downgraded to http: mock/webhooks/url-parts.ts); one without that optional field is answered as registered but not kept.' },
  'WEBHOOK-LOCK-OVERWRITE': { dims: ['untouched', 'lock', 'role', 'registration-fields'], description: 'Registering a lock again also removes the registrations of that class (the user\'s on other locks, other users\' on the lock, the user\'s user registration); on that lock of its set (first, second) or by a user of that role, it is added beside the earlier one instead of replacing it; bare-overwrite: an overwrite without header and token keeps the earlier ones (mock/webhooks/registry.ts).' },
  'WEBHOOK-LOCK-DELETE': { dims: ['untouched', 'lock', 'role'], description: 'Deleting a lock registration also removes the registrations of that class (the user\'s on other locks, other users\' on the lock, the user\'s user registration); deleting one on that lock of its set, or by a user of that role, answers as deleted but keeps it (mock/webhooks/registry.ts).' },
  'WEBHOOK-USER-OVERWRITE': { dims: ['untouched'], description: 'Registering the user webhook again also removes the registrations of that class (other users\' user registrations, the user\'s lock registrations).' },
  'WEBHOOK-USER-DELETE': { dims: ['untouched'], description: 'Deleting the user registration also removes the registrations of that class (other users\' user registrations, the user\'s lock registrations).' },
  'WEBHOOK-LOCK-PER-USER': { dims: ['receiver-url'], description: 'A lock registration replaces the other users\' registrations on that lock whose url is of that kind: the same url (shared: registrations kept by lock and url, not by lock and user) or another one (own) (mock/webhooks/registry.ts registerLock).' },
  'WEBHOOK-KEYPAD-VIA-LOCK': { dims: ['keypad'], description: 'The keypad events of a lock with that kind of keypad (separate, built-in) reach no lock registration (mock/events/event-service.ts emit).' },
  'WEBHOOK-GROUP-OPERATION': GROUP_ROW,
  'WEBHOOK-GROUP-OPERATION-TYPE': GROUP_ROW,
  'WEBHOOK-GROUP-CONFIGURATION': GROUP_ROW,
  'WEBHOOK-GROUP-BATTERY': GROUP_ROW,
  'WEBHOOK-GROUP-SYSTEMSTATUS': GROUP_ROW,
  'WEBHOOK-GROUP-ACCESSMGMT': GROUP_ROW,
  'WEBHOOK-GROUP-LOCKMEMBERSHIP': GROUP_ROW,
  'WEBHOOK-GROUP-LIFECYCLE': GROUP_ROW,
  // Event payloads: the unit of the time stamps (mock/events/payload-breaks.ts)
  'EVENT-TIMESTAMP-UNITS': { dims: ['row'], description: 'That row\'s Timestamp and timeStamp are epoch seconds.' },
  // Webhook delivery
  'DELIVERY-ONE-POST': { dims: ['row', 'receiver-answer', 'receiver-url', 'lock', 'role'], description: 'Deliveries of that event row (or to a registration on that lock of its fixture set, first or second, or made by a user of that role, owner or guest) are sent twice; a delivery answered with that 2xx status (other-2xx: any 2xx but 200 not named) is sent again once (mock/webhooks/delivery.ts #followUp); a lock event reaching registrations of that kind of url (shared: another listener of the lock names it) is sent to each of them twice, once per registration at the url (mock/events/event-service.ts #dispatch).' },
  'DELIVERY-CONTENT-TYPE': { dims: ['row', 'lock', 'role'], description: 'Deliveries of that event row, or to a registration on that lock of its fixture set or made by a user of that role, carry Content-Type text/plain.' },
  'DELIVERY-CUSTOM-HEADER': { dims: ['row', 'chars', 'lock', 'role'], description: 'Deliveries of that event row, or to a registration on that lock of its fixture set or made by a user of that role, carry the registration\'s header with the token cut short by one character; a token of that character class is sent mangled (percent encoded again, plus decoded to space, & escaped, cut at = or #, spaces encoded as +, blanks trimmed, non-ASCII replaced, long cut short: mock/webhooks/chars.ts).' },
  'DELIVERY-SIGNATURE-PRESENT': { dims: ['row', 'lock', 'role'], description: 'Deliveries of that event row, or to a registration on that lock of its fixture set or made by a user of that role, carry no X-Signature.' },
  'DELIVERY-NO-RETRY': { dims: ['receiver-answer', 'lock', 'role'], description: 'A delivery answered with that status (not 2xx; other-3xx/4xx/5xx: any status of the class not named, mock/webhooks/receiver-answers.ts), or any non-2xx answer but a 302 to a registration on that lock of its fixture set or made by a user of that role, is sent again once, to the same url, at once (mock/webhooks/delivery.ts #followUp).' },
  'DELIVERY-NO-REDIRECT': { dims: ['receiver-answer', 'lock', 'role'], description: 'A redirect answered with that status, or a 302 answered to a registration on that lock of its fixture set or made by a user of that role, is followed to its Location (mock/webhooks/delivery.ts #followUp).' },
  'DELIVERY-NO-RETRY-UNANSWERED': { dims: ['lock', 'role'], description: 'A delivery to a registration on that lock of its fixture set, or made by a user of that role, whose connection was cut without an answer is attempted again once, 300 ms later (mock/webhooks/delivery.ts #followUp).' },
  'DELIVERY-NO-RETRY-TIMEOUT': { dims: ['lock', 'role'], description: 'A delivery to a registration on that lock of its fixture set, or made by a user of that role, that the mock gave up waiting for is sent again once, 300 ms later (mock/webhooks/delivery.ts #followUp).' },
  'DELIVERY-STATUS-EVERY-CHECK': { dims: ['lock', 'receiver-url'], description: 'On that lock of its fixture set (first or second), a status check that finds the state unchanged sends no status event; to registrations of that kind of url (shared: several listeners of the lock name it), it is sent once per url, not once per registration (mock/events/event-service.ts emitStatus).' },
  'DELIVERY-STATUS-CHECK-FANOUT': { dims: ['role', 'receiver-url'], description: 'A status check made by a user of that role (owner or guest of the lock) reaches only the caller\'s own registration; one reaching registrations of that kind of url is sent once per url, not once per registration (shared: several listeners of the lock name it; the caller\'s kept, else the first registered), and an own url other than the caller\'s receives nothing (mock/events/event-service.ts emitStatus).' },
  // Webhook signature
  'SIGNATURE-FORMAT': { dims: ['row', 'lock'], description: 'Deliveries of that event row, or to a registration on that lock of its fixture set, separate the X-Signature elements with semicolons.' },
  'SIGNATURE-VALID': { dims: ['row', 'lock'], description: 'Deliveries of that event row, or to a registration on that lock of its fixture set, are signed with the client secret instead of the API key.' },
  'SIGNATURE-TIMESTAMP-CURRENT': { dims: ['row', 'lock'], description: 'Deliveries of that event row, or to a registration on that lock of its fixture set, carry a signature timestamp 10 minutes old.' },
  // Event payloads
  'EVENT-OPERATION-APP': payload,
  'EVENT-OPERATION-KEYPAD': { dims: ['field', 'enum-value', 'keypad'], description: `${FIELD} ${VALUE} On a lock with that kind of keypad (separate, built-in), a keypad operation is reported as the app's: Device=lock (mock/events/payloads.ts).` },
  'EVENT-OPERATION-MANUAL': payload,
  'EVENT-DOOR-STATE': payload,
  'EVENT-STATUS-CHECK': { dims: ['field', 'role'], description: `${FIELD} A status check made by a user of that role (owner or guest of the lock) names another member of the lock as its User (mock/events/event-service.ts emitStatus).` },
  'EVENT-STATUS-CHECK-STATE': { dims: ['enum-value'], description: 'A status check reports the next lock state of the enumeration instead of that one, the state the last operation event set.' },
  'EVENT-LOCK-NAME-CHANGED': { dims: ['field', 'chars'], description: `${FIELD} A new name of that character class is reported mangled (mock/webhooks/chars.ts).` },
  'EVENT-LOCK-BATTERY': payload,
  'EVENT-LOCK-CLOCK-DRIFT': fieldOnly,
  'EVENT-KEYPAD-PIN-MANAGED': { dims: ['field', 'enum-value', 'keypad'], description: `${FIELD} ${VALUE} On a lock with that kind of keypad (separate, built-in), every Pin.state is reported as the next one (mock/events/payloads.ts).` },
  'EVENT-PIN-ACTION-INTENT': { dims: ['keypad'], description: 'On a lock with that kind of keypad (separate, built-in), Pin.action is update instead of intent (mock/events/payloads.ts).' },
  'EVENT-MASTER-PIN': fieldOnly,
  'EVENT-KEYPAD-BATTERY': { dims: ['field', 'enum-value', 'keypad'], description: `${FIELD} ${VALUE} On a lock with that kind of keypad (separate, built-in), the keypad's battery is reported as the lock's: DeviceType=lock (mock/events/payloads.ts).` },
  'EVENT-BRIDGE': payload,
  'EVENT-LOCK-USER-ADD': fieldOnly,
  'EVENT-LOCK-USER-REMOVE': fieldOnly,
  'EVENT-LOCK-USERTYPE-CHANGED': payload,
  'EVENT-LOCK-ACCESSTYPE-CHANGED': payload,
  'EVENT-USER-LOCK-USER-ADD': { dims: ['field', 'subject'], description: `${FIELD} ${SUBJECT}` },
  'EVENT-USER-LOCK-USER-REMOVE': { dims: ['field', 'subject'], description: `${FIELD} ${SUBJECT}` },
  'EVENT-USER-USERTYPE-CHANGED': { dims: ['field', 'enum-value', 'subject'], description: `${FIELD} ${VALUE} ${SUBJECT}` },
  'EVENT-USER-ACCESSTYPE-CHANGED': { dims: ['field', 'enum-value', 'subject'], description: `${FIELD} ${VALUE} ${SUBJECT}` },
} as const satisfies Record<string, SliceBreak>;
