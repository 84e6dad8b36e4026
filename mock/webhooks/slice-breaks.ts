/**
 * The slice break points of the Webhook delivery, Webhook signature and Event
 * payloads areas (spread into SLICE_BREAKS, mock/slice-faults.ts). Each is ONE
 * call of ctx.faults.breaks at the place the rule is implemented, generic over
 * its dimension's values: delivery and signature rules over the event row
 * (mock/webhooks/delivery.ts prepare), the no-retry and no-redirect rules over the
 * receiver's answer (delivery.ts #followUp), payload rules over the field and the
 * enumerated value (mock/events/payload-breaks.ts), the status check fan-out over
 * the role of the user who checked (mock/events/event-service.ts emitStatus).
 */
import type { SliceBreak } from '../slice-break.js';

const FIELD = 'On that payload field of the row: a value of the wrong type (a string becomes a number, anything else true).';
const VALUE = 'When the row reports that enumerated value, it reports the next value of the same enumeration instead.';
const payload = { dims: ['field', 'enum-value'], description: `${FIELD} ${VALUE}` } as const;
const fieldOnly = { dims: ['field'], description: FIELD } as const;
const GROUP_ROW = { dims: ['row'], description: 'A registration naming the group without every other group of its kind receives no event of that row (mock/events/event-service.ts #dispatch).' } as const;

export const WEBHOOK_SLICE_BREAKS = {
  // Webhook registration
  'WEBHOOK-LOCK-REGISTER': { dims: ['url-part'], description: 'A lock registration whose url has that component is delivered to a mangled url (query dropped, path cut to two segments, path lower-cased, loopback host pinned to 127.0.0.1, IPv6 brackets dropped, port dropped, https downgraded to http: mock/webhooks/url-parts.ts).' },
  'WEBHOOK-USER-REGISTER': { dims: ['url-part'], description: 'A user registration whose url has that component is delivered to a mangled url (query dropped, path cut to two segments, path lower-cased, loopback host pinned to 127.0.0.1, IPv6 brackets dropped, port dropped, https downgraded to http: mock/webhooks/url-parts.ts).' },
  'WEBHOOK-LOCK-OVERWRITE': { dims: ['untouched'], description: 'Registering a lock again also removes the registrations of that class (the user\'s on other locks, other users\' on the lock, the user\'s user registration).' },
  'WEBHOOK-LOCK-DELETE': { dims: ['untouched'], description: 'Deleting a lock registration also removes the registrations of that class (the user\'s on other locks, other users\' on the lock, the user\'s user registration).' },
  'WEBHOOK-USER-OVERWRITE': { dims: ['untouched'], description: 'Registering the user webhook again also removes the registrations of that class (other users\' user registrations, the user\'s lock registrations).' },
  'WEBHOOK-USER-DELETE': { dims: ['untouched'], description: 'Deleting the user registration also removes the registrations of that class (other users\' user registrations, the user\'s lock registrations).' },
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
  'DELIVERY-ONE-POST': { dims: ['row'], description: 'Deliveries of that event row are sent twice.' },
  'DELIVERY-CONTENT-TYPE': { dims: ['row'], description: 'Deliveries of that event row carry Content-Type text/plain.' },
  'DELIVERY-CUSTOM-HEADER': { dims: ['row', 'chars'], description: 'Deliveries of that event row carry the registration\'s header with the token cut short by one character; a token of that character class is sent mangled (percent encoded again, plus decoded to space, & escaped, cut at = or #, spaces encoded as +, blanks trimmed, non-ASCII replaced, long cut short: mock/webhooks/chars.ts).' },
  'DELIVERY-SIGNATURE-PRESENT': { dims: ['row'], description: 'Deliveries of that event row carry no X-Signature.' },
  'DELIVERY-NO-RETRY': { dims: ['receiver-answer'], description: 'A delivery answered with that status (not 2xx) is sent again once, to the same url, at once (mock/webhooks/delivery.ts #followUp).' },
  'DELIVERY-NO-REDIRECT': { dims: ['receiver-answer'], description: 'A redirect answered with that status is followed to its Location (mock/webhooks/delivery.ts #followUp).' },
  'DELIVERY-STATUS-CHECK-FANOUT': { dims: ['role'], description: 'A status check made by a user of that role (owner or guest of the lock) reaches only the caller\'s own registration.' },
  // Webhook signature
  'SIGNATURE-FORMAT': { dims: ['row'], description: 'Deliveries of that event row separate the X-Signature elements with semicolons.' },
  'SIGNATURE-VALID': { dims: ['row'], description: 'Deliveries of that event row are signed with the client secret instead of the API key.' },
  'SIGNATURE-TIMESTAMP-CURRENT': { dims: ['row'], description: 'Deliveries of that event row carry a signature timestamp 10 minutes old.' },
  // Event payloads
  'EVENT-OPERATION-APP': payload,
  'EVENT-OPERATION-KEYPAD': payload,
  'EVENT-OPERATION-MANUAL': payload,
  'EVENT-DOOR-STATE': payload,
  'EVENT-STATUS-CHECK': fieldOnly,
  'EVENT-STATUS-CHECK-STATE': { dims: ['enum-value'], description: 'A status check reports the next lock state of the enumeration instead of that one, the state the last operation event set.' },
  'EVENT-LOCK-NAME-CHANGED': { dims: ['field', 'chars'], description: `${FIELD} A new name of that character class is reported mangled (mock/webhooks/chars.ts).` },
  'EVENT-LOCK-BATTERY': payload,
  'EVENT-LOCK-CLOCK-DRIFT': fieldOnly,
  'EVENT-KEYPAD-PIN-MANAGED': payload,
  'EVENT-MASTER-PIN': fieldOnly,
  'EVENT-KEYPAD-BATTERY': payload,
  'EVENT-BRIDGE': payload,
  'EVENT-LOCK-USER-ADD': fieldOnly,
  'EVENT-LOCK-USER-REMOVE': fieldOnly,
  'EVENT-LOCK-USERTYPE-CHANGED': payload,
  'EVENT-LOCK-ACCESSTYPE-CHANGED': payload,
  'EVENT-USER-LOCK-USER-ADD': fieldOnly,
  'EVENT-USER-LOCK-USER-REMOVE': fieldOnly,
  'EVENT-USER-USERTYPE-CHANGED': payload,
  'EVENT-USER-ACCESSTYPE-CHANGED': payload,
} as const satisfies Record<string, SliceBreak>;
