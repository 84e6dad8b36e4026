/**
 * The slice break points of the payload rules (Event payloads), in one place for
 * every row: a slice fault `<EVENT-…>@field=<path>` gives that field of that
 * row's payload a value of the wrong type; `<EVENT-…>@enum-value=<value>` makes
 * the row report the next value of the same enumeration when it should report
 * that one. Generic over the fields a payload holds and the enumerations of the
 * spec (kinds.ts): no fault is written per field or per value.
 * Costs one empty-set check when no slice fault is on.
 */
import type { FaultSet } from '../faults.js';
import type { SliceBreakId } from '../slice-faults.js';
import { ACCESS_TYPES, BRIDGE_STATES, DOOR_STATES, KEYPAD_BATTERY_LEVELS, LOCK_BATTERY_LEVELS, LOCK_STATES, PIN_STATES, USER_TYPES } from './kinds.js';
import { PAYLOAD_REQUIREMENT, eventRow } from './rows.js';

type Payload = Record<string, unknown>;

const ENUMS: readonly (readonly string[])[] = [LOCK_STATES, DOOR_STATES, LOCK_BATTERY_LEVELS, KEYPAD_BATTERY_LEVELS, PIN_STATES, BRIDGE_STATES, USER_TYPES, ACCESS_TYPES];
/** Where a row reports an enumerated value. */
const ENUM_FIELDS = ['Event', 'warningLevel', 'Pin.state', 'User.UserType', 'User.AccessType', 'UserType', 'AccessType'] as const;

/** Every field path of a payload: its keys, and the keys of the objects it holds (one level down). */
function fieldPaths(payload: Payload): string[] {
  return Object.entries(payload).flatMap(([key, value]) => value !== null && typeof value === 'object' && !Array.isArray(value)
    ? [key, ...Object.keys(value).map((sub) => `${key}.${sub}`)]
    : [key]);
}

function get(payload: Payload, path: string): unknown {
  const [head, sub] = path.split('.') as [string, string | undefined];
  const value = payload[head];
  return sub === undefined ? value : (value as Payload | undefined)?.[sub];
}

function set(payload: Payload, path: string, value: unknown): void {
  const [head, sub] = path.split('.') as [string, string | undefined];
  if (sub === undefined) payload[head] = value;
  else payload[head] = { ...(payload[head] as Payload), [sub]: value };
}

/** A value no row allows in that field: a number for a string, true for anything else. */
function wrongType(value: unknown): unknown {
  return typeof value === 'string' ? 12345 : true;
}

/** The payload as sent to registrations of this kind (user or lock), with the payload slice faults applied. */
export function breakPayload(faults: FaultSet, toUser: boolean, payload: Payload): Payload {
  const row = eventRow(toUser, payload);
  const requirement = PAYLOAD_REQUIREMENT[row] as SliceBreakId | undefined;
  if (!requirement) return payload;
  let out = payload;
  const edit = () => (out === payload ? (out = { ...payload }) : out);
  // EVENT-TIMESTAMP-UNITS@row=<row>: that row's Timestamp and timeStamp in epoch seconds.
  if (faults.breaks('EVENT-TIMESTAMP-UNITS', { row })) {
    for (const field of ['Timestamp', 'timeStamp']) if (typeof payload[field] === 'number') set(edit(), field, Math.floor((payload[field] as number) / 1000));
  }
  for (const path of fieldPaths(payload)) {
    if (faults.breaks(requirement, { field: path })) set(edit(), path, wrongType(get(payload, path)));
  }
  // The status row's state rests on the control contract: its values break EVENT-STATUS-CHECK-STATE.
  const enumRequirement: SliceBreakId = requirement === 'EVENT-STATUS-CHECK' ? 'EVENT-STATUS-CHECK-STATE' : requirement;
  for (const path of ENUM_FIELDS) {
    const value = get(payload, path);
    if (typeof value !== 'string' || !faults.breaks(enumRequirement, { 'enum-value': value })) continue;
    const values = ENUMS.find((e) => e.includes(value));
    if (values) set(edit(), path, values[(values.indexOf(value) + 1) % values.length]);
  }
  return out;
}
