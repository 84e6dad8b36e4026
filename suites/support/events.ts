/**
 * Making the target emit an event (control POST /events) and catching the delivery
 * it causes, and judging a payload against its schema with zod's own explanation.
 */
import type { z } from 'zod';
import type { ControlEvent, Delivery, FixtureLock, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { control, newInbox } from './context.js';
import { ARRIVAL_TIMEOUT_MS, describeDeliveries, expectDelivery, isAbout, isEvent, type Predicate } from './deliveries.js';
import { user } from './fixtures.js';
import { KEYPAD_EVENTS, arrivalRestsOn, expectAccepted, registerLock, registerUser, LOCK_GROUPS, USER_GROUPS } from './webhooks.js';

/** Per inbox opened here: the requirements an event's arrival there rests on (its registration's group filter). */
const restsOnByInbox = new WeakMap<Inbox, string[]>();

/** users[0] (the owner) registers the lock for every lock group; the inbox receives what the lock emits. */
export async function listenToLock(t: SuiteContext, lock: FixtureLock, groups: readonly string[] = LOCK_GROUPS): Promise<Inbox> {
  const session = await t.flows.userSession(0);
  const inbox = await newInbox(t, { label: `lock ${lock.name ?? lock.lockId}` });
  expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken, notificationTypes: groups }));
  restsOnByInbox.set(inbox, arrivalRestsOn('lock', groups));
  return inbox;
}

/** fixtures.users[index] registers its user webhook for every user group. */
export async function listenToUser(t: SuiteContext, index: number, groups: readonly string[] = USER_GROUPS): Promise<Inbox> {
  const session = await t.flows.userSession(index);
  const inbox = await newInbox(t, { label: `user #${index}` });
  expectAccepted(t, await registerUser(t, { inbox, accessToken: session.accessToken, notificationTypes: groups }), 'user webhook registration');
  restsOnByInbox.set(inbox, arrivalRestsOn('user', groups));
  return inbox;
}

/** What a row asks of the delivery beyond its Event value, and how to say it was not met. */
export interface DeliveryMatch {
  predicate: Predicate;
  /** Said when deliveries of the event arrived for the lock, but none met the predicate. */
  unmet: string;
}

/** Operation rows: EventType operation and the row's Device. */
export function operationOn(device: 'lock' | 'keypad'): DeliveryMatch {
  return {
    predicate: (d) => d.json?.EventType === 'operation' && d.json?.Device === device,
    unmet: `operation deliveries arrived but none with EventType=operation and Device=${device}`,
  };
}

/**
 * Emits the event and waits for the delivery that is this event: Event equal to
 * `event`, about the lock asked for (LockID equal without regard to case, or in the
 * LockID array of bridge events), and meeting the row's own predicate. Other
 * deliveries (an operation.type delivery shaped differently, say) are passed over.
 * When deliveries of the event arrive but none is the one wanted, the failure says
 * what was wrong with them rather than reporting a bare timeout. When none of the event
 * arrives at all, the test is blocked by what the arrival rests on when that failed in
 * the run (the registration's group filter, WEBHOOK-KEYPAD-VIA-LOCK for a keypad's event),
 * and failed otherwise.
 */
export async function emitAndCatch(t: SuiteContext, inbox: Inbox, request: ControlEvent, event: string, match?: DeliveryMatch): Promise<Delivery> {
  // Deliveries already in the inbox are not this event's.
  const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
  const answer = await control(t).emit(request);
  const what = `${request.kind}${request.value ? ` (${request.value})` : ''}: the ${event} event`;
  const ofEvent: Predicate = (d) => !seen.has(d.seq) && isEvent(event)(d);
  const aboutLock: Predicate = request.lockId === undefined ? () => true : isAbout(request.lockId);
  const wanted: Predicate = (d) => ofEvent(d) && aboutLock(d) && (match ? match.predicate(d) : true);
  let d: Delivery;
  try {
    [d] = (await inbox.waitFor(1, { predicate: wanted, timeoutMs: ARRIVAL_TIMEOUT_MS })) as [Delivery];
  } catch {
    const arrived = (await inbox.deliveries().catch(() => [] as Delivery[])).filter(ofEvent);
    if (arrived.length > 0 && !arrived.some(aboutLock)) {
      t.expect.unreachable(`${what}: deliveries of the event arrived but with another LockID than the lock ${request.lockId}: ${arrived.map((x) => JSON.stringify(x.json?.LockID)).join(', ')} (${describeDeliveries(arrived)})`);
    }
    if (arrived.length > 0 && match) {
      t.expect.unreachable(`${what}: ${match.unmet}; received: ${describeDeliveries(arrived)}; payloads: ${arrived.map((x) => x.bodyText.slice(0, 300)).join(' | ')}`);
    }
    const restsOn = [...(restsOnByInbox.get(inbox) ?? []), ...(KEYPAD_EVENTS.has(request.kind) && request.lockId !== undefined ? ['WEBHOOK-KEYPAD-VIA-LOCK'] : [])];
    return expectDelivery(t, inbox, what, { predicate: wanted, timeoutMs: 0, ...(arrived.length === 0 && restsOn.length ? { restsOn } : {}) });
  }
  // The payload itself is in the test's delivery evidence; the observation says what was asked and what came.
  t.observe(`${request.kind}${request.value ? ` ${request.value}` : ''}`, { emitted: answer.emitted, EventType: d.json?.EventType ?? null, Event: d.json?.Event ?? null });
  return d;
}

/** The payload must match the row's schema; the failure names every field that does not. */
export function expectSchema<S extends z.ZodType>(t: SuiteContext, schema: S, d: Delivery, row: string): z.infer<S> {
  const parsed = schema.safeParse(d.json);
  if (!parsed.success) {
    t.expect.unreachable(`${row}: the payload does not match the spec's row:\n${prettify(parsed.error)}\npayload: ${d.bodyText.slice(0, 600)}`);
  }
  return parsed.data;
}

function prettify(error: z.ZodError): string {
  return error.issues.map((i) => `  ${i.path.join('.') || '(body)'}: ${i.message}`).join('\n');
}

/** The acting user of an event row: fixtures.users[0], the owner of the locks. */
export function owner(t: SuiteContext) {
  return user(t, 0);
}

/**
 * A time field as epoch ms: a number in epoch seconds or milliseconds (told apart by
 * size), or an ISO 8601 string; null when it is neither.
 */
export function asEpochMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.abs(value) < 1e11 ? value * 1000 : value;
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^-?\d+(\.\d+)?$/.test(value.trim())) return asEpochMs(Number(value));
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}
