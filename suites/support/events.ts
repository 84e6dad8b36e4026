/**
 * Making the target emit an event (control POST /events) and catching the delivery
 * it causes, and judging a payload against its schema with zod's own explanation.
 */
import type { z } from 'zod';
import type { ControlEvent, Delivery, FixtureLock, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { control, newInbox } from './context.js';
import { expectDelivery, isEvent } from './deliveries.js';
import { user } from './fixtures.js';
import { expectAccepted, registerLock, registerUser, LOCK_GROUPS, USER_GROUPS } from './webhooks.js';

/** users[0] (the owner) registers the lock for every lock group; the inbox receives what the lock emits. */
export async function listenToLock(t: SuiteContext, lock: FixtureLock, groups: readonly string[] = LOCK_GROUPS): Promise<Inbox> {
  const session = await t.flows.userSession(0);
  const inbox = await newInbox(t, { label: `lock ${lock.name ?? lock.lockId}` });
  expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken, notificationTypes: groups }));
  return inbox;
}

/** fixtures.users[index] registers its user webhook for every user group. */
export async function listenToUser(t: SuiteContext, index: number, groups: readonly string[] = USER_GROUPS): Promise<Inbox> {
  const session = await t.flows.userSession(index);
  const inbox = await newInbox(t, { label: `user #${index}` });
  expectAccepted(t, await registerUser(t, { inbox, accessToken: session.accessToken, notificationTypes: groups }), 'user webhook registration');
  return inbox;
}

/** Emits the event and waits for the delivery whose Event is `event`. */
export async function emitAndCatch(t: SuiteContext, inbox: Inbox, request: ControlEvent, event: string): Promise<Delivery> {
  // Deliveries already in the inbox are not this event's.
  const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
  const answer = await control(t).emit(request);
  return expectDelivery(t, inbox, `${request.kind}${request.value ? ` (${request.value})` : ''}: the ${event} event`, {
    predicate: (d) => !seen.has(d.seq) && isEvent(event)(d),
  }).then((d) => {
    t.observe(`${request.kind}${request.value ? ` ${request.value}` : ''}`, { emitted: answer.emitted, payload: d.json });
    return d;
  });
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
