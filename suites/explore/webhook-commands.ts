/**
 * The webhook commands of exploration: register (whole body, or without header and token,
 * or without notificationTypes), overwrite and delete lock and user registrations as the
 * owner or the guest on either fixture lock, status checks by either, and event rows
 * triggered on either lock (control POST /events). After every step that makes an event,
 * what reached each registration's url is judged by the model (harness/model/webhooks.ts):
 * deliveries that must come are awaited with the harness's delivery wait, and when a
 * registration must receive nothing, one quiet window is listened for the whole step.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Delivery, HttpResponse } from '../../harness/contracts.js';
import {
  LOCK_GROUPS, USER_GROUPS, RULES, expectations, retired, type HookExpectation, isMember, judgeCount, judgeDelivery, liveIn, predictApi, receiveRotated, register, registerRule,
  deleteRule, remove, type AccessToken, type Hook, type HookKind, type ModelEvent, type ModelState, type Violation,
} from '../../harness/model/index.js';
import { verifySignature } from '../../harness/wire/signature.js';
import { hmacMatched } from '../support/signatures.js';
import { sameId } from '../support/fixtures.js';
import { step, type Real } from './commands.js';
import type { WebhookPort } from './port.js';

type Cmd = fc.AsyncCommand<ModelState, Real>;

/** Steps that make an event, per sequence at most: each costs a delivery wait, and a quiet window when a registration must receive nothing. */
export const EVENT_STEPS_PER_SEQUENCE = 6;

const USERS = ['owner', 'guest'] as const;
const is2xx = (s: number) => s >= 200 && s < 300;

/** The newest access token of the user's session through the profile's credential that the model knows valid. */
function tokenOf(m: Readonly<ModelState>, user: number): AccessToken | undefined {
  const own = m.access.filter((t) => t.cred === 0 && t.account === 'user' && t.user === user && !t.superseded);
  for (let i = own.length - 1; i >= 0; i--) {
    const p = predictApi(m as ModelState, own[i]!);
    if (p.allowed.length === 1 && p.allowed[0] === 'accepted-rotated') return own[i];
  }
  return undefined;
}

/** Calls a webhook endpoint with the user's token; a rotated x-access-token becomes the session's newest. */
async function call(m: ModelState, r: Real, token: AccessToken, method: string, path: string, json?: unknown): Promise<HttpResponse> {
  const res = await r.port.webhooks!.call(method, path, r.secrets.get(token.id)!, json);
  const rotated = res.headers['x-access-token'];
  if (is2xx(res.status) && rotated) {
    token.used = true;
    r.secrets.set(receiveRotated(m, token).id, rotated);
  }
  return res;
}

function violation(rule: Violation['rule'], what: string, expected: Violation['expected'], observed: Violation['observed']): Violation {
  return { rule, what, expected, observed };
}

const slotName = (kind: HookKind, lock: number | null, user: number) => kind === 'lock' ? `the ${USERS[user]}'s registration on lock #${lock}` : `the ${USERS[user]}'s user registration`;

export class RegisterHook implements Cmd {
  constructor(readonly kind: HookKind, readonly lock: number, readonly user: number, readonly header: boolean, readonly groups: readonly string[] | null) {}
  check(m: Readonly<ModelState>): boolean { return tokenOf(m, this.user) !== undefined; }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const lock = this.kind === 'lock' ? this.lock % w.locks.length : null;
    const prior = liveIn(m.hooks, this.kind, lock, this.user);
    const body = `${this.header ? 'header and token' : 'no header and token'}, ${this.groups === null ? 'no notificationTypes' : `notificationTypes ${this.groups.join(',')}`}`;
    await step(r, `${prior ? 'overwrites' : 'registers'} ${slotName(this.kind, lock, this.user)} (${body})`, async () => {
      const token = tokenOf(m, this.user)!;
      const id = m.nextId++;
      const inbox = await w.newInbox(`exploration #${id}`);
      const header = this.header ? { name: `x-lockconf-hook-${randomBytes(3).toString('hex')}`, token: `hook-${randomBytes(12).toString('hex')}` } : undefined;
      if (header) r.port.secret(header.token, 'webhook_token');
      const json = {
        url: inbox.url, method: 'POST', clientID: w.clientId,
        ...(header ? { header: header.name, token: header.token } : {}),
        ...(this.groups !== null ? { notificationTypes: [...this.groups] } : {}),
      };
      const path = lock === null ? '/webhook/user' : `/webhook/${encodeURIComponent(w.locks[lock]!.lockId)}`;
      const res = await call(m, r, token, 'POST', path, json);
      const member = lock === null || isMember({ members: w.locks.map((l) => l.members) }, lock, this.user);
      const accepted = is2xx(res.status);
      // "Required and optional status of each webhook registration field … not shown": only the whole body by a member must be accepted.
      if (member && this.header && this.groups !== null && !accepted) {
        return violation(registerRule(this.kind, prior !== undefined), `a well-formed registration by a member (${slotName(this.kind, lock, this.user)}) answered HTTP ${res.status}`, ['answered-2xx'], 'refused');
      }
      register(m.hooks, { id, kind: this.kind, lock, user: this.user, header: this.header, groups: this.groups }, accepted, member);
      r.hooks!.set(id, { inbox, ...(header ? { header } : {}) });
      return null;
    });
  }
  toString(): string { return `RegisterHook(${this.kind}, lock ${this.lock}, ${USERS[this.user]}, ${this.header ? 'header' : 'no header'}, ${this.groups?.join('+') ?? 'no groups'})`; }
}

export class DeleteHook implements Cmd {
  constructor(readonly kind: HookKind, readonly lock: number, readonly user: number) {}
  check(m: Readonly<ModelState>): boolean { return tokenOf(m, this.user) !== undefined; }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const lock = this.kind === 'lock' ? this.lock % w.locks.length : null;
    await step(r, `deletes ${slotName(this.kind, lock, this.user)}`, async () => {
      const token = tokenOf(m, this.user)!;
      const path = lock === null ? '/webhook/user' : `/webhook/${encodeURIComponent(w.locks[lock]!.lockId)}/${encodeURIComponent(w.clientId)}`;
      const res = await call(m, r, token, 'DELETE', path);
      const live = liveIn(m.hooks, this.kind, lock, this.user);
      const accepted = is2xx(res.status);
      if (live?.status === 'live' && !accepted) {
        return violation(deleteRule(this.kind), `deleting a registration in force (${slotName(this.kind, lock, this.user)}) answered HTTP ${res.status}`, ['answered-2xx'], 'refused');
      }
      remove(m.hooks, this.kind, lock, this.user, accepted);
      return null;
    });
  }
  toString(): string { return `DeleteHook(${this.kind}, lock ${this.lock}, ${USERS[this.user]})`; }
}

export class StatusCheck implements Cmd {
  constructor(readonly lock: number, readonly user: number) {}
  check(m: Readonly<ModelState>): boolean { return m.hookSteps < EVENT_STEPS_PER_SEQUENCE && tokenOf(m, this.user) !== undefined; }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const lock = this.lock % w.locks.length;
    m.hookSteps++;
    await step(r, `the ${USERS[this.user]} makes a status check on lock #${lock}`, async () => {
      const token = tokenOf(m, this.user)!;
      const route = w.statusRoute(w.locks[lock]!.lockId);
      const res = await call(m, r, token, route.method, route.path);
      const member = isMember({ members: w.locks.map((l) => l.members) }, lock, this.user);
      // The route is not shown: a 404 or 405 says it is not the target's, and no event is judged.
      const made = is2xx(res.status);
      if (member && !made && res.status !== 404 && res.status !== 405) {
        return violation(RULES.statusFanout, `a status check by a member of the lock answered HTTP ${res.status}`, ['answered-2xx'], 'refused');
      }
      const e: ModelEvent = { what: 'the status check', lock, lockMust: member && made ? ['operation'] : null, fanout: true };
      return settle(m, r, e);
    });
  }
  toString(): string { return `StatusCheck(lock ${this.lock}, ${USERS[this.user]})`; }
}

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

export class TriggerEvent implements Cmd {
  constructor(readonly trigger: number, readonly lock: number, readonly n: number) {}
  check(m: Readonly<ModelState>): boolean { return m.hookSteps < EVENT_STEPS_PER_SEQUENCE; }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const t = TRIGGERS[this.trigger]!;
    const lock = this.lock % w.locks.length;
    const l = w.locks[lock]!;
    const owner = l.members[0] ?? 0;
    const subject = t.subject === 'guest-or-owner' ? l.members.find((u) => u !== owner) ?? owner : owner;
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
  toString(): string { return `TriggerEvent(${TRIGGERS[this.trigger]!.kind}, lock ${this.lock})`; }
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
async function settle(m: ModelState, r: Real, e: ModelEvent): Promise<Violation | null> {
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

/** The webhook command arbitraries (empty when the port has no webhook side). */
export function webhookArbitraries(w: WebhookPort | undefined): fc.Arbitrary<Cmd>[] {
  if (!w) return [];
  // The owner on the first lock most often: overwrites and re-registrations of one slot are where sequence-only faults live.
  const lock = fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: 1 }) });
  const user = fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) });
  const lockGroups = fc.oneof(
    { weight: 4, arbitrary: fc.constant<readonly string[] | null>([...LOCK_GROUPS]) },
    { weight: 2, arbitrary: fc.subarray([...LOCK_GROUPS], { minLength: 1 }) as fc.Arbitrary<readonly string[] | null> },
    { weight: 1, arbitrary: fc.constant<readonly string[] | null>(null) },
  );
  const userGroups = fc.oneof(
    { weight: 3, arbitrary: fc.constant<readonly string[] | null>([...USER_GROUPS]) },
    { weight: 1, arbitrary: fc.subarray([...USER_GROUPS], { minLength: 1 }) as fc.Arbitrary<readonly string[] | null> },
    { weight: 1, arbitrary: fc.constant<readonly string[] | null>(null) },
  );
  const header = fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  const registerLock = fc.tuple(lock, user, header, lockGroups).map(([l, u, h, g]) => new RegisterHook('lock', l, u, h, g));
  const registerUser = fc.tuple(user, header, userGroups).map(([u, h, g]) => new RegisterHook('user', 0, u, h, g));
  const arbs: fc.Arbitrary<Cmd>[] = [
    registerLock, registerLock, registerLock, registerUser,
    fc.tuple(lock, user).map(([l, u]) => new DeleteHook('lock', l, u)),
    fc.tuple(lock, user).map(([l, u]) => new DeleteHook('lock', l, u)),
    fc.tuple(lock, user).map(([l, u]) => new DeleteHook('lock', l, u)),
    user.map((u) => new DeleteHook('user', 0, u)),
    fc.tuple(lock, user).map(([l, u]) => new StatusCheck(l, u)),
    fc.tuple(lock, user).map(([l, u]) => new StatusCheck(l, u)),
    fc.tuple(lock, user).map(([l, u]) => new StatusCheck(l, u)),
  ];
  if (w.emit) {
    const rows = w.locks.flatMap((l, li) => TRIGGERS.flatMap((t, ti) => (!t.needs || l[t.needs] ? [[ti, li] as const] : [])));
    arbs.push(fc.tuple(fc.constantFrom(...rows), fc.nat({ max: 1_000_000 })).map(([[ti, li], n]) => new TriggerEvent(ti, li, n)));
  }
  return arbs;
}
