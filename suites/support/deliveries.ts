/**
 * Waiting for webhook deliveries without waiting out real time longer than needed:
 * expected deliveries resolve as soon as they arrive; "nothing (more) arrives" is
 * judged over a short window.
 */
import type { Delivery, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { sameId } from './fixtures.js';
import { PrerequisiteFailed } from './prerequisite.js';
import { ArrivalTimeout } from './arrival-watch.js';

/**
 * How long an expected delivery may take to arrive (the wait ends as soon as it does).
 * LOCKCONF_DELIVERY_WAIT_MS changes it: longer for a slow sandbox, shorter where the
 * target is known to deliver at once (the self-verification matrix against the mock).
 */
export const ARRIVAL_TIMEOUT_MS = positiveInt(process.env.LOCKCONF_DELIVERY_WAIT_MS) ?? 15_000;
/** Test timeout for event tests that loop over several values, each waiting for a delivery. */
export const LOOPING_TEST_TIMEOUT_MS = 60_000;
/**
 * How long we listen to show that nothing (more) arrives. LOCKCONF_QUIET_WINDOW_MS
 * changes it; global setup shortens it for the embedded mock, which sends from the
 * same process within milliseconds (the self-verification matrix checks that the
 * mock's faults are still caught with it).
 */
export const QUIET_WINDOW_MS = positiveInt(process.env.LOCKCONF_QUIET_WINDOW_MS) ?? 500;
/** Listening window for retries, which a target may schedule a little later. */
export const RETRY_WINDOW_MS = QUIET_WINDOW_MS * 3;

export type Predicate = (d: Delivery) => boolean;

function positiveInt(text: string | undefined): number | null {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : null;
}

/** A delivery whose JSON body is the event named (and, when given, for the lock named). */
export function isEvent(event: string, opts: { eventType?: string; lockId?: string } = {}): Predicate {
  return (d) => {
    const body = d.json;
    if (!body || typeof body !== 'object') return false;
    if (body.Event !== event) return false;
    if (opts.eventType !== undefined && body.EventType !== opts.eventType) return false;
    if (opts.lockId !== undefined) {
      const ids = Array.isArray(body.LockID) ? body.LockID : [body.LockID];
      if (!ids.some((id: unknown) => sameId(id, opts.lockId))) return false;
    }
    return true;
  };
}

/** A short, secret-free description of deliveries for failure messages. */
export function describeDeliveries(list: Delivery[]): string {
  if (list.length === 0) return 'none';
  return list
    .map((d) => {
      const b = d.json && typeof d.json === 'object' ? d.json : null;
      const what = b ? `${String(b.EventType)}/${String(b.Event)}` : `non-JSON body (${d.rawBody.length} bytes)`;
      return `#${d.seq} ${d.method} ${what} → answered ${d.answeredStatus}`;
    })
    .join('; ');
}

/** What waiting for a delivery may say besides its predicate and time. */
export interface ArrivalOptions {
  predicate?: Predicate;
  timeoutMs?: number;
  /**
   * The requirements whose rules make this delivery arrive, when its arrival is a step on
   * the way to the test's check rather than the check itself (the registration, the group
   * filter, the event row...): a delivery that does not arrive blocks the test by those of
   * them that failed in the run (harness/run/prerequisite.ts), and fails it when none did.
   */
  restsOn?: readonly string[];
}

/** The first `n` deliveries matching the predicate; fails the test with the rule's words if they do not arrive. */
export async function expectDeliveries(
  t: SuiteContext,
  inbox: Inbox,
  what: string,
  opts: ArrivalOptions & { n?: number } = {},
): Promise<Delivery[]> {
  const n = opts.n ?? 1;
  const timeoutMs = opts.timeoutMs ?? ARRIVAL_TIMEOUT_MS;
  try {
    return await inbox.waitFor(n, { ...(opts.predicate ? { predicate: opts.predicate } : {}), timeoutMs, what });
  } catch (err) {
    const seen = await inbox.deliveries().catch(() => []);
    // A wait the run's watch shortened (the target delivered nothing in the run) says how long it was and why.
    const waited = err instanceof ArrivalTimeout && err.shortened ? err.waitedMs : timeoutMs;
    const message = `${what}: expected ${n} matching deliver${n === 1 ? 'y' : 'ies'} within ${waited} ms; received: ${describeDeliveries(seen)}` +
      (err instanceof Error && !/timeout|ERR_DELIVERY/i.test(err.message) ? ` (${err.message})` : '');
    if (opts.restsOn?.length) throw new PrerequisiteFailed(opts.restsOn, message);
    t.expect.unreachable(message);
  }
}

export async function expectDelivery(t: SuiteContext, inbox: Inbox, what: string, opts: ArrivalOptions = {}): Promise<Delivery> {
  const [first] = await expectDeliveries(t, inbox, what, { ...opts, n: 1 });
  return first!;
}

/**
 * Does a delivery matching the predicate arrive (or is it there already)? Positive evidence,
 * waited for as long as an expected delivery (ARRIVAL_TIMEOUT_MS), so the answer never rests
 * on how fast the target delivers or in which order: a slow "yes" is still a yes.
 */
export async function arrives(inbox: Inbox, predicate: Predicate, timeoutMs = ARRIVAL_TIMEOUT_MS): Promise<boolean> {
  try {
    await inbox.waitFor(1, { predicate, timeoutMs });
    return true;
  } catch {
    return false;
  }
}

/** Listens for the window, then returns every delivery the inbox holds (those before the window included). */
export async function deliveriesAfter(inbox: Inbox, windowMs: number): Promise<Delivery[]> {
  await inbox.collectFor(windowMs);
  return inbox.deliveries();
}

/**
 * More copies of the events a test caused than it expects (`copies` of `expected`): the test's own rule
 * is broken (a retry, a redirect followed, a second status event), or DELIVERY-ONE-POST's ("each event
 * is delivered at most once"), whose own test judges every event row. The failure names both: the test
 * is blocked when DELIVERY-ONE-POST failed in the run, and fails as its own when it did not
 * (harness/run/verdict.ts). Nothing when there are no more copies than expected (the caller's check follows).
 */
export function expectNoExtraCopies(t: SuiteContext, copies: number, expected: number, message: string): void {
  if (copies > expected) throw new PrerequisiteFailed([t.requirement.id, 'DELIVERY-ONE-POST'], message);
}

/**
 * Listens for the window and fails unless the inbox holds exactly `total` deliveries (matching the predicate).
 * With `copies`, more than `total` of them are extra copies of the events the test caused (expectNoExtraCopies).
 */
export async function expectQuiet(
  t: SuiteContext,
  inbox: Inbox,
  what: string,
  opts: { total?: number; predicate?: Predicate; windowMs?: number; copies?: boolean } = {},
): Promise<Delivery[]> {
  const all = await deliveriesAfter(inbox, opts.windowMs ?? QUIET_WINDOW_MS);
  const matching = opts.predicate ? all.filter(opts.predicate) : all;
  const total = opts.total ?? 0;
  const message = `${what}: expected ${total} deliver${total === 1 ? 'y' : 'ies'} after listening ${opts.windowMs ?? QUIET_WINDOW_MS} ms; received: ${describeDeliveries(matching)}`;
  if (opts.copies) expectNoExtraCopies(t, matching.length, total, message);
  t.expect(matching.length, message).toBe(total);
  return matching;
}

/** Any JSON delivery about the lock (LockID equal, or containing it in bridge events). */
export function isAbout(lockId: string): Predicate {
  return (d) => {
    const body = d.json;
    if (!body || typeof body !== 'object') return false;
    const ids = Array.isArray(body.LockID) ? body.LockID : [body.LockID];
    return ids.some((id: unknown) => sameId(id, lockId));
  };
}
