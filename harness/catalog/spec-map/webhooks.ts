/**
 * Coverage of the spec's webhook statements (registration, payload fields, user
 * object, device values, delivery, signature, groups, lock and user events,
 * limits): anchor (spec-statements.ts) → the requirements that test it, or why
 * nothing can.
 */
import type { SpecMapPart } from './types.js';

/** Every lock-event row: each checks LockID, EventType and Event of its payload. */
const LOCK_ROWS = [
  'EVENT-OPERATION-APP', 'EVENT-OPERATION-KEYPAD', 'EVENT-OPERATION-MANUAL', 'EVENT-DOOR-STATE', 'EVENT-STATUS-CHECK',
  'EVENT-LOCK-NAME-CHANGED', 'EVENT-LOCK-BATTERY', 'EVENT-LOCK-CLOCK-DRIFT', 'EVENT-KEYPAD-PIN-MANAGED', 'EVENT-MASTER-PIN',
  'EVENT-KEYPAD-BATTERY', 'EVENT-BRIDGE', 'EVENT-LOCK-USER-ADD', 'EVENT-LOCK-USER-REMOVE', 'EVENT-LOCK-USERTYPE-CHANGED',
  'EVENT-LOCK-ACCESSTYPE-CHANGED',
] as const;
const USER_ROWS = ['EVENT-USER-LOCK-USER-ADD', 'EVENT-USER-LOCK-USER-REMOVE', 'EVENT-USER-USERTYPE-CHANGED', 'EVENT-USER-ACCESSTYPE-CHANGED'] as const;
const LOCK_GROUPS = ['WEBHOOK-GROUP-OPERATION', 'WEBHOOK-GROUP-OPERATION-TYPE', 'WEBHOOK-GROUP-CONFIGURATION', 'WEBHOOK-GROUP-BATTERY', 'WEBHOOK-GROUP-SYSTEMSTATUS', 'WEBHOOK-GROUP-ACCESSMGMT'] as const;
const USER_GROUPS = ['WEBHOOK-GROUP-LOCKMEMBERSHIP', 'WEBHOOK-GROUP-LIFECYCLE'] as const;

export const WEBHOOKS_SPEC_MAP: SpecMapPart = {
  // ── Webhook registration (request body) ──────────────────────────────────
  'webhook-registration/row-1': { requirements: ['WEBHOOK-LOCK-REGISTER', 'WEBHOOK-USER-REGISTER', 'WEBHOOK-LOCK-OVERWRITE', 'WEBHOOK-USER-OVERWRITE'], note: 'deliveries arrive at the url registered, and at the new url after re-registering' },
  'webhook-registration/row-2': { requirements: ['WEBHOOK-LOCK-REGISTER', 'DELIVERY-ONE-POST', 'WEBHOOK-ENDPOINT-RESPONSES'], note: 'registrations are made with method POST and deliveries are POSTs; any restriction on the method value is not shown' },
  'webhook-registration/row-3': { requirements: ['WEBHOOK-LOCK-REGISTER', 'WEBHOOK-LOCK-DELETE'], note: 'registrations carry the credential\'s client_id, which the lock DELETE names in its path' },
  'webhook-registration/row-4': { requirements: ['DELIVERY-CUSTOM-HEADER', 'WEBHOOK-LOCK-OVERWRITE', 'WEBHOOK-USER-OVERWRITE'] },
  'webhook-registration/row-5': { requirements: ['DELIVERY-CUSTOM-HEADER', 'WEBHOOK-LOCK-OVERWRITE', 'WEBHOOK-USER-OVERWRITE'] },
  'webhook-registration/row-6': { requirements: ['WEBHOOK-NOTIFICATION-FILTER', ...LOCK_GROUPS, ...USER_GROUPS, 'WEBHOOK-LOCK-OVERWRITE', 'WEBHOOK-USER-OVERWRITE'] },

  // ── Webhook payload fields (common) ──────────────────────────────────────
  'webhook-payload-fields/row-1': { requirements: [...LOCK_ROWS], note: 'each row\'s schema checks LockID as a hex identifier (an array in bridge events)' },
  'webhook-payload-fields/row-2': { requirements: [...LOCK_ROWS, ...USER_ROWS], note: 'each row checks its own EventType' },
  'webhook-payload-fields/row-3': { requirements: [...LOCK_ROWS, ...USER_ROWS], note: 'each row checks its own Event values' },
  'webhook-payload-fields/row-4': { requirements: ['EVENT-OPERATION-APP', 'EVENT-OPERATION-KEYPAD', 'EVENT-OPERATION-MANUAL', 'EVENT-DOOR-STATE', 'EVENT-STATUS-CHECK'] },
  'webhook-payload-fields/row-5': { requirements: ['EVENT-OPERATION-APP', 'EVENT-OPERATION-MANUAL', 'EVENT-DOOR-STATE', 'EVENT-LOCK-USER-ADD'], note: 'manual and door schemas are strict: User carries only UserID' },
  'webhook-payload-fields/row-6': { requirements: ['EVENT-LOCK-NAME-CHANGED', 'EVENT-KEYPAD-PIN-MANAGED', 'EVENT-MASTER-PIN', 'EVENT-LOCK-USER-ADD', 'EVENT-LOCK-USER-REMOVE', 'EVENT-LOCK-USERTYPE-CHANGED', 'EVENT-LOCK-ACCESSTYPE-CHANGED'], note: 'every configuration and authorization row checks Lock.Name, the master PIN change too (its User is the masterpin marker)' },
  'webhook-payload-fields/row-7': { requirements: ['EVENT-OPERATION-MANUAL', 'EVENT-MASTER-PIN', 'EVENT-LOCK-USERTYPE-CHANGED', 'EVENT-LOCK-ACCESSTYPE-CHANGED', ...USER_ROWS], note: 'EventID is checked as a UUID on the rows that list it' },
  'webhook-payload-fields/row-8': { requirements: ['EVENT-TIMESTAMP-UNITS', 'EVENT-TIMESTAMP-ORDER', 'EVENT-LOCK-CLOCK-DRIFT'] },
  'webhook-payload-fields/row-9': { requirements: ['EVENT-TIMESTAMP-UNITS', 'EVENT-TIMESTAMP-ORDER'] },

  // ── User object ──────────────────────────────────────────────────────────
  'user-object/row-1': { requirements: ['EVENT-OPERATION-APP', 'EVENT-OPERATION-MANUAL', 'EVENT-DOOR-STATE', 'EVENT-MASTER-PIN'], note: 'a UUID for real users; manualunlock, manuallock, DoorStateChanged and masterpin as markers' },
  'user-object/row-2': { requirements: ['EVENT-OPERATION-APP', 'EVENT-MASTER-PIN'] },
  'user-object/row-3': { requirements: ['EVENT-OPERATION-APP', 'EVENT-MASTER-PIN'] },
  'user-object/row-4': { requirements: ['EVENT-OPERATION-APP', 'EVENT-MASTER-PIN'] },
  'user-object/row-5': { requirements: ['EVENT-OPERATION-APP', 'EVENT-MASTER-PIN'] },
  'user-object/row-6': { requirements: ['EVENT-OPERATION-APP', 'EVENT-MASTER-PIN'], note: 'either shape is accepted; the master PIN event carries n/a' },
  'user-object/row-7': { requirements: ['EVENT-LOCK-USERTYPE-CHANGED'] },
  'user-object/row-8': { requirements: ['EVENT-LOCK-ACCESSTYPE-CHANGED'] },
  'user-object/para-1': { notTestable: 'Not shown: the spec gives no field of the lock resource beyond LockID and Name, so there is nothing to check.' },

  // ── Values reported in events ────────────────────────────────────────────
  'values-reported-in-events/row-1': { requirements: ['EVENT-OPERATION-APP', 'EVENT-OPERATION-KEYPAD', 'EVENT-OPERATION-MANUAL', 'EVENT-STATUS-CHECK', 'EVENT-STATUS-CHECK-STATE'], note: 'every value emitted; that the status check reports each state set before it rests on the control protocol (EVENT-STATUS-CHECK-STATE, SHOULD)' },
  'values-reported-in-events/row-2': { requirements: ['EVENT-DOOR-STATE'] },
  'values-reported-in-events/row-3': { requirements: ['EVENT-LOCK-BATTERY'], note: 'all five levels emitted' },
  'values-reported-in-events/row-4': { requirements: ['EVENT-KEYPAD-BATTERY'], note: 'all three values emitted' },
  'values-reported-in-events/row-5': { requirements: ['EVENT-KEYPAD-PIN-MANAGED'], note: 'all four states emitted' },
  'values-reported-in-events/row-6': { requirements: ['EVENT-BRIDGE'] },
  'values-reported-in-events/row-7': { requirements: ['EVENT-LOCK-USERTYPE-CHANGED', 'EVENT-USER-USERTYPE-CHANGED'] },
  'values-reported-in-events/row-8': { requirements: ['EVENT-LOCK-ACCESSTYPE-CHANGED', 'EVENT-USER-ACCESSTYPE-CHANGED'] },
  'values-reported-in-events/para-1': { notTestable: 'Not shown: the control protocol sets each value directly, and the spec gives no transition to compare with.' },

  // ── Endpoints ────────────────────────────────────────────────────────────
  'post-base-url-webhook-lockid/para-1': { requirements: ['WEBHOOK-LOCK-REGISTER', 'WEBHOOK-KEYPAD-VIA-LOCK', 'WEBHOOK-LOCK-OVERWRITE', 'WEBHOOK-LOCK-PER-USER', 'WEBHOOK-LOCK-PER-LOCK', ...LOCK_GROUPS] },
  'post-base-url-webhook-user/para-1': { requirements: ['WEBHOOK-USER-REGISTER', 'WEBHOOK-USER-OVERWRITE', ...USER_GROUPS] },
  'delete-base-url-webhook-lockid-clientid/para-1': { requirements: ['WEBHOOK-LOCK-DELETE'] },
  'delete-base-url-webhook-user/para-1': { requirements: ['WEBHOOK-USER-DELETE'] },

  // ── Delivery ─────────────────────────────────────────────────────────────
  'delivery/item-1': { requirements: ['DELIVERY-ONE-POST', 'DELIVERY-CONTENT-TYPE'] },
  'delivery/item-2': { requirements: ['DELIVERY-CONTENT-TYPE', 'DELIVERY-SIGNATURE-PRESENT', 'DELIVERY-CUSTOM-HEADER'], note: 'judged on a delivery of every event row, user webhooks included; what the battery and clock rows carry is recorded' },
  'delivery/item-3': { requirements: ['DELIVERY-NO-REDIRECT', 'DELIVERY-NO-RETRY', 'DELIVERY-NO-RETRY-UNANSWERED', 'DELIVERY-NO-RETRY-TIMEOUT', 'DELIVERY-ONE-POST'] },

  // ── Signature ────────────────────────────────────────────────────────────
  'signature/item-1': { requirements: ['SIGNATURE-FORMAT'] },
  'signature/item-2': { requirements: ['SIGNATURE-VALID'] },
  'signature/item-3': { requirements: ['SIGNATURE-VALID'] },
  'signature/item-4': { requirements: ['SIGNATURE-TIMESTAMP-CURRENT'], note: 'the receiver\'s side of the rule; the service is judged on sending a current timestamp' },
  'signature/para-1': { requirements: ['SIGNATURE-ENCODING'] },

  // ── Registration groups ──────────────────────────────────────────────────
  'registration-groups/row-1': { requirements: ['WEBHOOK-GROUP-OPERATION', 'WEBHOOK-NOTIFICATION-FILTER'] },
  'registration-groups/row-2': { requirements: ['WEBHOOK-GROUP-OPERATION-TYPE', 'EVENT-OPERATION-TYPE'] },
  'registration-groups/row-3': { requirements: ['WEBHOOK-GROUP-CONFIGURATION', 'WEBHOOK-NOTIFICATION-FILTER'] },
  'registration-groups/row-4': { requirements: ['WEBHOOK-GROUP-BATTERY', 'WEBHOOK-NOTIFICATION-FILTER'] },
  'registration-groups/row-5': { requirements: ['WEBHOOK-GROUP-SYSTEMSTATUS', 'WEBHOOK-NOTIFICATION-FILTER'] },
  'registration-groups/row-6': { requirements: ['WEBHOOK-GROUP-ACCESSMGMT', 'WEBHOOK-NOTIFICATION-FILTER'] },
  'registration-groups/row-7': { requirements: ['WEBHOOK-GROUP-LOCKMEMBERSHIP', 'WEBHOOK-NOTIFICATION-FILTER'] },
  'registration-groups/row-8': { requirements: ['WEBHOOK-GROUP-LIFECYCLE', 'EVENT-LIFECYCLE'] },
  'registration-groups/para-1': { requirements: ['EVENT-OPERATION-TYPE', 'EVENT-LIFECYCLE'] },

  // ── Lock events ──────────────────────────────────────────────────────────
  'lock-events/row-1': { requirements: ['EVENT-OPERATION-APP'] },
  'lock-events/row-2': { requirements: ['EVENT-OPERATION-KEYPAD'] },
  'lock-events/row-3': { requirements: ['EVENT-OPERATION-MANUAL'] },
  'lock-events/row-4': { requirements: ['EVENT-DOOR-STATE'] },
  'lock-events/row-5': { requirements: ['EVENT-STATUS-CHECK', 'EVENT-STATUS-CHECK-STATE', 'DELIVERY-STATUS-CHECK-FANOUT', 'DELIVERY-STATUS-EVERY-CHECK', 'DELIVERY-STATUS-CHECK-ENDPOINT'] },
  'lock-events/row-6': { requirements: ['EVENT-LOCK-NAME-CHANGED'] },
  'lock-events/row-7': { requirements: ['EVENT-LOCK-BATTERY'] },
  'lock-events/row-8': { requirements: ['EVENT-LOCK-CLOCK-DRIFT'] },
  'lock-events/row-9': { requirements: ['EVENT-KEYPAD-PIN-MANAGED', 'EVENT-PIN-ACTION-INTENT'] },
  'lock-events/row-10': { requirements: ['EVENT-MASTER-PIN'] },
  'lock-events/row-11': { requirements: ['EVENT-KEYPAD-BATTERY', 'WEBHOOK-KEYPAD-VIA-LOCK'] },
  'lock-events/row-12': { requirements: ['EVENT-BRIDGE'] },
  'lock-events/row-13': { requirements: ['EVENT-LOCK-USER-ADD'] },
  'lock-events/row-14': { requirements: ['EVENT-LOCK-USER-REMOVE'] },
  'lock-events/row-15': { requirements: ['EVENT-LOCK-USERTYPE-CHANGED'] },
  'lock-events/row-16': { requirements: ['EVENT-LOCK-ACCESSTYPE-CHANGED'] },
  'lock-events/para-1': { notTestable: 'A lead-in ("Rules:") to the numbered rules that follow; it states nothing of its own.' },
  'lock-events/item-1': { requirements: ['EVENT-TIMESTAMP-ORDER'] },
  'lock-events/item-2': { requirements: ['EVENT-BRIDGE-OFFLINE-DELAY'] },
  'lock-events/item-3': { notTestable: 'Not shown: the separate webhook system for PINs managed through the API is outside the spec.' },
  'lock-events/item-4': { requirements: ['EVENT-PIN-ACTION-INTENT'] },

  // ── User events ──────────────────────────────────────────────────────────
  'user-events/para-1': { requirements: [...USER_ROWS] },
  'user-events/row-1': { requirements: ['EVENT-USER-LOCK-USER-ADD'] },
  'user-events/row-2': { requirements: ['EVENT-USER-LOCK-USER-REMOVE'] },
  'user-events/row-3': { requirements: ['EVENT-USER-USERTYPE-CHANGED'] },
  'user-events/row-4': { requirements: ['EVENT-USER-ACCESSTYPE-CHANGED'] },

  // ── Limits ───────────────────────────────────────────────────────────────
  'limits/row-1': { requirements: ['TOKEN-ACCESS-LIFETIME', 'TOKEN-ACCESS-LIFETIME-HONOURED', 'HEADERS-TOKEN-LIFETIME-24H'] },
  'limits/row-2': { requirements: ['REFRESH-VALID-WITHIN-YEAR', 'REFRESH-EXPIRED-AFTER-YEAR', 'REFRESH-SINGLE-USE'] },
  'limits/row-3': { requirements: ['WEBHOOK-LOCK-PER-USER', 'WEBHOOK-LOCK-PER-LOCK', 'WEBHOOK-LOCK-OVERWRITE', 'WEBHOOK-USER-OVERWRITE'] },
  'limits/row-4': { requirements: ['DELIVERY-ONE-POST', 'DELIVERY-NO-RETRY', 'DELIVERY-NO-RETRY-UNANSWERED', 'DELIVERY-NO-RETRY-TIMEOUT'] },
  'limits/row-5': { requirements: ['SIGNATURE-TIMESTAMP-CURRENT'] },
  'limits/row-6': { requirements: ['EVENT-BRIDGE-OFFLINE-DELAY'] },
  'limits/row-7': { requirements: ['HEADERS-TOKEN-LIFETIME-24H', 'HEADERS-ROTATED-TOKEN-WORKS'] },
  'limits/para-1': { notTestable: 'Not shown: the spec gives no rate or size limit to check.' },
};
