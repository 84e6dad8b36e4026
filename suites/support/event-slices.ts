/**
 * Event rules checked slice by slice (issue 19; harness/catalog/slices/webhooks-events.ts):
 * a delivery rule on every event row, a payload rule on every field of its row,
 * an event row on every value of its enumeration.
 */
import { z } from 'zod';
import type { ControlEvent, Delivery, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { control } from './context.js';
import { expectDelivery, isAbout, type Predicate } from './deliveries.js';
import type { RowDelivery } from './every-row.js';

/** fn on the deliveries of every declared row (`row` slices); a row the fixtures cannot make happen is not tested. */
export async function eachRow(t: SuiteContext, rows: readonly RowDelivery[], fn: (r: RowDelivery) => void | Promise<void>): Promise<void> {
  await t.eachSlice('row', async (row) => {
    const mine = rows.filter((r) => r.id === row);
    if (mine.length === 0) t.notTested(`no fixture lock can make the ${row} row happen (GET /fixtures: keypad, doorSensor, builtInKeypad, bridgeId)`);
    for (const r of mine) await fn(r);
  });
}

/**
 * The schema of one field of a row's schema (`User.FirstName`: the FirstName of User's), and whether the row lets
 * it be absent (an optional step on the way: `User.FirstName` of a "User object", `Lock.Name` of a row that does
 * not list Lock); null when the row's schema has none.
 */
function fieldSchema(schema: z.ZodType, path: string): { schema: z.ZodType; optional: boolean } | null {
  let at: z.ZodType | undefined = schema;
  let optional = false;
  for (const key of path.split('.')) {
    while (at instanceof z.ZodOptional) {
      optional = true;
      at = at.unwrap() as z.ZodType;
    }
    if (!(at instanceof z.ZodObject)) return null;
    at = (at.shape as Record<string, z.ZodType>)[key];
    if (!at) return null;
  }
  while (at instanceof z.ZodOptional) {
    optional = true;
    at = at.unwrap() as z.ZodType;
  }
  return at ? { schema: at, optional } : null;
}

function valueAt(body: unknown, path: string): unknown {
  let at: unknown = body;
  for (const key of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/**
 * Every declared field of the row (`field` slices), in every delivery caught: present,
 * of the type and value the row's schema gives it (suites/schemas/events.ts). A field
 * the row leaves open (optional in its schema: the User object's fields other than
 * UserID on every row but "User object with full fields", a Lock the row does not list)
 * is judged when present and observed when absent (freedoms USER-OBJECT-FIELDS, MASTER-PIN-LOCK).
 */
export async function expectFields(t: SuiteContext, schema: z.ZodType, deliveries: readonly Delivery[], row: string): Promise<void> {
  await t.eachSlice('field', (field) => {
    const sub = fieldSchema(schema, field);
    if (!sub) throw new Error(`suite error: the schema of ${row} has no field ${field}`);
    for (const d of deliveries) {
      const value = valueAt(d.json, field);
      // Present, or absent where the row leaves the field open.
      t.expect(value !== undefined || sub.optional, `${row} (delivery #${d.seq}): the payload must carry ${field}; payload ${d.bodyText.slice(0, 300)}`).toBe(true);
      if (value === undefined) {
        if (sub.optional) t.observe(`${row}: ${field}`, 'absent (the row leaves it open)');
        continue;
      }
      const parsed = sub.schema.safeParse(value);
      t.expect(parsed.success, `${row} (delivery #${d.seq}): ${field} ${JSON.stringify(value)?.slice(0, 120)} is not what the row gives it: ${parsed.success ? '' : parsed.error.issues.map((i) => i.message).join('; ')}`).toBe(true);
    }
  });
}

/** Emits the event and catches its delivery by the row's shape (not by the value it reports: that is the slice judged). */
export async function emitAndCatchRow(t: SuiteContext, inbox: Inbox, request: ControlEvent, predicate: Predicate, what: string): Promise<Delivery> {
  const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
  await control(t).emit(request);
  const about: Predicate = request.lockId === undefined ? () => true : isAbout(request.lockId);
  return expectDelivery(t, inbox, what, { predicate: (d) => !seen.has(d.seq) && about(d) && predicate(d) });
}

/** A delivery whose EventType is the row's (and Device, when given). */
export function ofType(eventType: string, device?: string): Predicate {
  return (d) => d.json?.EventType === eventType && (device === undefined || d.json?.Device === device);
}
