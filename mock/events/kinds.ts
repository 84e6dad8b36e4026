/**
 * The event kinds of the control protocol (POST /_control/events): the values each
 * accepts, the registration group that receives it (spec: Registration groups), and
 * whether it needs a keypad on the lock.
 */
import type { LockGroup, UserGroup } from '../webhooks/groups.js';

export const LOCK_STATES = ['lock', 'unlock', 'unlatch'] as const;
export const DOOR_STATES = ['closed', 'open', 'ajar'] as const;
export const LOCK_BATTERY_LEVELS = [
  'lock_state_battery_warning_none', 'lock_state_battery_warning_4week', 'lock_state_battery_warning_2week',
  'lock_state_battery_warning_1week', 'lock_state_battery_warning_2day',
] as const;
export const KEYPAD_BATTERY_LEVELS = ['keypad_battery_none', 'keypad_battery_warning', 'keypad_battery_critical'] as const;
export const PIN_STATES = ['load', 'disable', 'enable', 'delete'] as const;
export const BRIDGE_STATES = ['online', 'offline'] as const;
export const USER_TYPES = ['user', 'superuser'] as const;
export const ACCESS_TYPES = ['rule_access_always', 'rule_access_temporary', 'rule_access_recurring'] as const;

/** What `value` may be: one of a list, a lock name, a warning level identifier, or nothing. */
export type ValueRule = readonly string[] | 'lock-name' | 'identifier' | 'none';

export interface KindDefinition {
  value: ValueRule;
  /** Group of lock registrations that receive it (null: none). */
  lockGroup: LockGroup | null;
  /** Group of the affected user's user registration that receives it (null: none). */
  userGroup: UserGroup | null;
  /** The event comes from a keypad: the lock must have one. */
  keypad: boolean;
  /** Further lock groups that also receive it (a keypad operation is an operation.type event too). */
  alsoLockGroups?: readonly LockGroup[];
  /** Whether userId (the affected user) is required rather than defaulting to the lock's owner. lifecycle.deleted alone concerns no lock. */
  subjectRequired: boolean;
}

function kind(value: ValueRule, lockGroup: LockGroup | null, userGroup: UserGroup | null = null, extra: Partial<KindDefinition> = {}): KindDefinition {
  return { value, lockGroup, userGroup, keypad: false, subjectRequired: false, ...extra };
}

export const KINDS = {
  'operation.app': kind(LOCK_STATES, 'operation'),
  'operation.keypad': kind(LOCK_STATES, 'operation', null, { keypad: true, alsoLockGroups: ['operation.type'] }),
  'operation.manual': kind(LOCK_STATES, 'operation'),
  door: kind(DOOR_STATES, 'operation'),
  lock_name_changed: kind('lock-name', 'configuration'),
  lock_battery_alert: kind(LOCK_BATTERY_LEVELS, 'battery'),
  lock_log_timestamp_drifted: kind('identifier', 'systemstatus'),
  keypad_pin_managed: kind(PIN_STATES, 'configuration', null, { keypad: true }),
  master_pin_changed: kind('none', 'configuration'),
  keypad_battery: kind(KEYPAD_BATTERY_LEVELS, 'battery', null, { keypad: true }),
  bridge: kind(BRIDGE_STATES, 'systemstatus'),
  lock_user_add: kind('none', 'accessmgmt', 'lockmembership', { subjectRequired: true }),
  lock_user_remove: kind('none', 'accessmgmt', 'lockmembership', { subjectRequired: true }),
  lock_usertype_changed: kind(USER_TYPES, 'accessmgmt', 'lockmembership', { subjectRequired: true }),
  lock_accesstype_changed: kind(ACCESS_TYPES, 'accessmgmt', 'lockmembership', { subjectRequired: true }),
  'lifecycle.deleted': kind('none', null, 'lifecycle', { subjectRequired: true }),
} as const satisfies Record<string, KindDefinition>;

export type EventKind = keyof typeof KINDS;

export function isEventKind(name: string): name is EventKind {
  return Object.prototype.hasOwnProperty.call(KINDS, name);
}

export const EVENT_KINDS = Object.keys(KINDS) as EventKind[];
