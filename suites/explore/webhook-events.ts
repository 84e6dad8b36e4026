/**
 * The events of the webhook exploration: event rows triggered on a fixture lock (control
 * POST /events), plain (any row on either lock) or aimed (a row the model says the
 * sequence's newest untried registration must receive), and what reached every
 * registration's url after it, judged by the model (harness/model/webhooks.ts): deliveries
 * that must come are awaited with the harness's delivery wait; what must not come is
 * listened for with one quiet window at the end of the sequence (ListenQuietly).
 */
import type { Delivery } from '../../harness/contracts.js';
import {
  RULES, expectations, retired, judgeCount, judgeDelivery, replacedOf,
  type Hook, type HookExpectation, type ModelEvent, type ModelState, type Violation,
} from '../../harness/model/index.js';
import { verifySignature } from '../../harness/wire/signature.js';
import { hmacMatched } from '../support/signatures.js';
import { sameId } from '../support/fixtures.js';
import { step, type Real } from './steps.js';
import type { HookLock, WebhookPort } from './port.js';
import { USERS, slotName, untried, violation, type Cmd } from './webhook-slots.js';

/** Steps that make an event, per sequence at most: each costs a delivery wait, and a quiet window when a registration must receive nothing. */
export const EVENT_STEPS_PER_SEQUENCE = 10;

/** An event row the control protocol can make, on a lock that has what it needs, and how the model routes it. */
export interface Trigger {
  kind: string;
  needs?: 'keypad' | 'doorSensor' | 'builtInKeypad';
  value?: (n: number) => string;
  /** Acting or affected user: the lock's guest where it has one (membership rows), else its owner. */
  subject?: 'guest-or-owner' | 'owner';
  params?: Record<string, unknown>;
  event: (lock: number, subject: number) => Omit<ModelEvent, 'what'>;
}

const lockRow = (must: readonly string[] | null, lockRule?: ModelEvent['lockRule']) => (lock: number): Omit<ModelEvent, 'what'> => ({ lock, lockMust: must, ...(lockRule ? { lockRule } : {}) });

/** The rows, with the groups the catalog's group readings map them to (the clock row's group is not fixed: may). */
export const TRIGGERS: readonly Trigger[] = [
  { kind: 'operation.app', value: (n) => ['unlock', 'lock', 'unlatch'][n % 3]!, subject: 'owner', event: lockRow(['operation']) },
  { kind: 'operation.manual', value: (n) => ['lock', 'unlock'][n % 2]!, event: lockRow(['operation']) },
  { kind: 'door', needs: 'doorSensor', value: (n) => ['open', 'closed', 'ajar'][n % 3]!, event: lockRow(['operation']) },
  { kind: 'operation.keypad', needs: 'keypad', value: (n) => ['unlock', 'lock'][n % 2]!, subject: 'owner', event: lockRow(['operation.type'], RULES.keypadViaLock) },
  { kind: 'lock_name_changed', value: (n) => `Explored ${n}`, subject: 'owner', event: lockRow(['configuration']) },
  { kind: 'keypad_pin_managed', needs: 'keypad', value: () => 'enable', subject: 'owner', event: lockRow(['configuration'], RULES.keypadViaLock) },
  { kind: 'master_pin_changed', needs: 'builtInKeypad', event: lockRow(['configuration']) },
  { kind: 'lock_battery_alert', value: () => 'lock_state_battery_warning_2week', event: lockRow(['battery']) },
  { kind: 'keypad_battery', needs: 'keypad', value: () => 'keypad_battery_warning', event: lockRow(['battery'], RULES.keypadViaLock) },
  { kind: 'lock_log_timestamp_drifted', value: () => 'lock_state_battery_warning_none', params: { drift: 3_600_000 }, event: lockRow(null) },
  { kind: 'lock_user_add', subject: 'guest-or-owner', event: (lock, user) => ({ lock, lockMust: ['accessmgmt'], user: { user, must: ['lockmembership'] } }) },
  { kind: 'lock_user_remove', subject: 'guest-or-owner', event: (lock, user) => ({ lock, lockMust: ['accessmgmt'], user: { user, must: ['lockmembership'] } }) },
  // Which user group receives the access level and schedule rows is not fixed ("The exact mapping … not shown"): may.
  { kind: 'lock_usertype_changed', value: () => 'user', subject: 'guest-or-owner', event: (lock, user) => ({ lock, lockMust: ['accessmgmt'], user: { user, must: null } }) },
  { kind: 'lock_accesstype_changed', value: () => 'rule_access_always', subject: 'guest-or-owner', event: (lock, user) => ({ lock, lockMust: ['accessmgmt'], user: { user, must: null } }) },
  { kind: 'lifecycle.deleted', subject: 'guest-or-owner', event: (_lock, user) => ({ lock: null, lockMust: null, user: { user, must: ['lifecycle'] } }) },
];

/** The fixture user a row is about on a lock: its guest where it has one (membership rows), else its owner. */
function subjectOf(t: Trigger, l: HookLock): number {
  const owner = l.members[0] ?? 0;
  return t.subject === 'guest-or-owner' ? l.members.find((u) => u !== owner) ?? owner : owner;
}

/** Every row a lock can make: [trigger, lock] pairs (keypad, door and built-in keypad rows only on a lock that has one). */
export function rowsOf(w: WebhookPort): ReadonlyArray<readonly [number, number]> {
  return w.locks.flatMap((l, li) => TRIGGERS.flatMap((t, ti) => (!t.needs || l[t.needs] ? [[ti, li] as const] : [])));
}

/**
 * The rows that reach a registration, by the model: those it must receive (a group it
 * named), else those it may (it named no groups), else none. Of the rows it must receive,
 * those the registration it replaced was not bound to receive come first (a group the
 * overwrite named anew): what the overwrite changed is what the event tries. Which one an
 * aimed event makes is drawn among them.
 */
export function rowsFor(w: WebhookPort, h: Hook, replaced?: Hook): ReadonlyArray<readonly [number, number]> {
  const rows = rowsOf(w).map(([ti, li]) => {
    const t = TRIGGERS[ti]!;
    const e = { what: t.kind, ...t.event(li, subjectOf(t, w.locks[li]!)) };
    const x = expectations([h], e)[0];
    const before = replaced ? expectations([{ ...replaced, status: 'live' }], e)[0] : undefined;
    return { row: [ti, li] as const, expect: x?.expect, anew: before !== undefined && before.expect !== 'must' };
  });
  const must = rows.filter((x) => x.expect === 'must');
  const anew = must.filter((x) => x.anew);
  return (anew.length > 0 ? anew : must.length > 0 ? must : rows.filter((x) => x.expect === 'may')).map((x) => x.row);
}

export class TriggerEvent implements Cmd {
  /** aimed: the row is drawn (by n) among those the sequence's newest untried registration must receive. */
  constructor(readonly trigger: number, readonly lock: number, readonly n: number, readonly aimed = false) {}
  check(m: Readonly<ModelState>): boolean { return m.hookSteps < EVENT_STEPS_PER_SEQUENCE && (!this.aimed || untried(m) !== undefined); }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const target = this.aimed ? untried(m) : undefined;
    const aims = target ? rowsFor(w, target, replacedOf(m.hooks, target)[0]) : [];
    const [ti, li] = aims.length > 0 ? aims[this.n % aims.length]! : [this.trigger, this.lock];
    const t = TRIGGERS[ti]!;
    const lock = li % w.locks.length;
    const l = w.locks[lock]!;
    const owner = l.members[0] ?? 0;
    const subject = subjectOf(t, l);
    m.hookSteps++;
    const value = t.value?.(this.n);
    await step(r, `the lock #${lock} emits ${t.kind}${value ? ` (${value})` : ''}${t.subject ? ` for the ${USERS[subject]}` : ''} (control)`, async () => {
      await w.emit!({
        kind: t.kind, ...(t.kind === 'lifecycle.deleted' ? {} : { lockId: l.lockId }), ...(value ? { value } : {}),
        ...(t.subject ? { userId: w.userIds[subject]! } : {}),
        ...(t.params || t.kind === 'keypad_pin_managed' ? { params: { ...t.params, ...(t.kind === 'keypad_pin_managed' ? { pinUserId: w.userIds[owner]! } : {}) } } : {}),
      });
      return settle(m, r, { what: `the ${t.kind} event`, ...t.event(lock, subject) });
    });
  }
  toString(): string { return this.aimed ? `TriggerEvent(aimed at the newest untried registration, ${this.n})` : `TriggerEvent(${TRIGGERS[this.trigger]!.kind}, lock ${this.lock})`; }
}

function signatureOf(w: WebhookPort, d: Delivery): 'ok' | 'missing' | 'mismatch' {
  const header = d.headers['x-signature'];
  if (header === undefined || header.trim() === '') return 'missing';
  // Only the HMAC: the timestamp's age is SIGNATURE-TIMESTAMP-CURRENT's, and the target's clock may have moved.
  const v = verifySignature({ header, body: d.rawBody, apiKey: w.apiKey, nowMs: Date.now(), toleranceMs: Number.MAX_SAFE_INTEGER });
  return hmacMatched(v.code) ? 'ok' : 'mismatch';
}

function aboutLock(w: WebhookPort, h: Hook, d: Delivery): boolean | null {
  if (h.kind !== 'lock' || h.lock === null) return null;
  const id = (d.json as { LockID?: unknown } | undefined)?.LockID;
  if (id === undefined) return null;
  const ids = Array.isArray(id) ? id : [id];
  return ids.some((x) => sameId(x, w.locks[h.lock!]!.lockId));
}

/**
 * What reached the urls after an event: every expected delivery awaited (at once, whatever
 * the order), then every new delivery judged on its own and each registration's count
 * judged on what arrived. What must not come is listened for once, at the end of the
 * sequence (ListenQuietly).
 */
export async function settle(m: ModelState, r: Real, e: ModelEvent): Promise<Violation | null> {
  const w = r.port.webhooks!;
  const xs = expectations(m.hooks, e);
  const inboxOf = (h: Hook) => r.hooks!.get(h.id)!.inbox;
  await Promise.all(xs.filter((x) => x.expect === 'must').map((x) => inboxOf(x.hook).waitFor(x.hook.seen + 1, { timeoutMs: w.waitMs }).catch(() => null)));
  return judgeArrivals(m, r, xs, e.what);
}

/** Reads each registration's new deliveries and judges them, one by one and by count; the step's story gets what arrived where. */
async function judgeArrivals(m: ModelState, r: Real, xs: readonly HookExpectation[], what: string): Promise<Violation | null> {
  const w = r.port.webhooks!;
  const inboxOf = (h: Hook) => r.hooks!.get(h.id)!.inbox;
  const book = { of: (id: number) => r.hooks!.get(id)?.header };
  const notes: string[] = [];
  let found: Violation | null = null;
  for (const x of xs) {
    const list = await inboxOf(x.hook).deliveries();
    const fresh = list.slice(x.hook.seen);
    x.hook.seen = list.length;
    notes.push(`registration #${x.hook.id} (${slotName(x.hook.kind, x.hook.lock, x.hook.user)}, ${x.hook.status}): ${fresh.length} deliver${fresh.length === 1 ? 'y' : 'ies'} (${x.expect}: ${x.why})`);
    if (found) continue;
    for (const d of fresh) {
      const v = judgeDelivery(m.hooks, x.hook, { aboutLock: aboutLock(w, x.hook, d), header: (name) => d.headers[name.toLowerCase()], signature: signatureOf(w, d) }, book);
      if (v) { found = violation(v.rule, `${what}: ${v.what}`, ['delivered'], 'delivered-wrongly'); break; }
    }
    if (found) continue;
    const c = judgeCount(x, fresh.length);
    if (c) found = violation(c.rule, `${what}: ${c.what}`, x.expect === 'must' ? ['delivered'] : ['nothing-delivered'], x.expect === 'must' ? 'nothing-delivered' : 'delivered');
  }
  r.steps[r.steps.length - 1]!.notes = notes;
  return found;
}

/**
 * The end of every webhook sequence: when a registration was overwritten or deleted, one
 * quiet window (the harness's), then what reached those urls is judged: nothing of an
 * event made after the registration was replaced. One window per sequence, not per
 * registration nor per step.
 */
export class ListenQuietly implements Cmd {
  check(): boolean { return true; }
  async run(m: ModelState, r: Real): Promise<void> {
    const xs = retired(m.hooks);
    if (xs.length === 0 || !r.port.webhooks) return;
    await step(r, `listens ${r.port.webhooks.quietMs} ms: the replaced and deleted registrations must have received nothing more`, async () => {
      await new Promise((resolve) => setTimeout(resolve, r.port.webhooks!.quietMs));
      return judgeArrivals(m, r, xs, 'after the sequence');
    });
  }
  toString(): string { return 'ListenQuietly'; }
}

