/**
 * The row of the spec's Events tables a delivered payload belongs to (the slice
 * dimension `row` of the slice faults, mock/webhooks/slice-breaks.ts), read off
 * the payload as built and the registration it goes to (a user registration:
 * the User events table, or the lifecycle event). Also, for each row, the
 * requirement that states its payload.
 */

type Payload = Record<string, unknown>;

const DOOR = new Set(['closed', 'open', 'ajar']);
const MANUAL = new Set(['manuallock', 'manualunlock']);

/** `user.<Event>` / `user.lifecycle` for a user registration; the lock row otherwise. */
export function eventRow(toUser: boolean, payload: unknown): string {
  const p = (payload ?? {}) as Payload;
  const event = String(p.Event ?? '');
  if (toUser) return p.EventType === 'lifecycle' ? 'user.lifecycle' : `user.${event}`;
  const userId = (p.User as Payload | undefined)?.UserID;
  switch (p.EventType) {
    case 'operation':
      if (p.Device === 'keypad') return 'operation_keypad';
      if (DOOR.has(event)) return 'door_state';
      return typeof userId === 'string' && MANUAL.has(userId) ? 'operation_manual' : 'operation_app';
    case 'status':
      return 'status_check';
    case 'battery':
      return 'keypad_battery';
    case 'systemstatus':
      return event === 'online' || event === 'offline' ? 'bridge' : event;
    default:
      if (event === 'keypad_pin_managed' && userId === 'masterpin') return 'master_pin_changed';
      return event;
  }
}

/** Row → the requirement that states its payload (catalog IDs, shared by convention). */
export const PAYLOAD_REQUIREMENT: Readonly<Record<string, string>> = {
  operation_app: 'EVENT-OPERATION-APP',
  operation_keypad: 'EVENT-OPERATION-KEYPAD',
  operation_manual: 'EVENT-OPERATION-MANUAL',
  door_state: 'EVENT-DOOR-STATE',
  status_check: 'EVENT-STATUS-CHECK',
  lock_name_changed: 'EVENT-LOCK-NAME-CHANGED',
  lock_battery_alert: 'EVENT-LOCK-BATTERY',
  lock_log_timestamp_drifted: 'EVENT-LOCK-CLOCK-DRIFT',
  keypad_pin_managed: 'EVENT-KEYPAD-PIN-MANAGED',
  master_pin_changed: 'EVENT-MASTER-PIN',
  keypad_battery: 'EVENT-KEYPAD-BATTERY',
  bridge: 'EVENT-BRIDGE',
  lock_user_add: 'EVENT-LOCK-USER-ADD',
  lock_user_remove: 'EVENT-LOCK-USER-REMOVE',
  lock_usertype_changed: 'EVENT-LOCK-USERTYPE-CHANGED',
  lock_accesstype_changed: 'EVENT-LOCK-ACCESSTYPE-CHANGED',
  'user.lock_user_add': 'EVENT-USER-LOCK-USER-ADD',
  'user.lock_user_remove': 'EVENT-USER-LOCK-USER-REMOVE',
  'user.lock_usertype_changed': 'EVENT-USER-USERTYPE-CHANGED',
  'user.lock_accesstype_changed': 'EVENT-USER-ACCESSTYPE-CHANGED',
};
