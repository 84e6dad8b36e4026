/**
 * The webhook commands of exploration: register (whole body, or without header and token,
 * or without notificationTypes), overwrite and delete lock and user registrations as the
 * owner or the guest on either fixture lock, or on the slot the sequence changed last (its
 * focus, webhook-slots.ts), and status checks by either; the events are webhook-events.ts's.
 * After every step that makes an event, what reached each registration's url is judged by
 * the model (harness/model/webhooks.ts).
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  LOCK_GROUPS, USER_GROUPS, RULES, isMember, liveIn, register, registerRule, deleteRule, remove,
  type HookKind, type ModelEvent, type ModelState,
} from '../../harness/model/index.js';
import { step, type Real } from './steps.js';
import type { WebhookPort } from './port.js';
import { EVENT_STEPS_PER_SEQUENCE, TriggerEvent, rowsOf, settle } from './webhook-events.js';
import { USERS, call, focusOf, is2xx, slotName, tokenOf, violation, type Cmd, type Slot } from './webhook-slots.js';

export { ListenQuietly } from './webhook-events.js';

type Groups = readonly string[] | null;

/**
 * A change of a registration followed at once by an aimed event (drawn by `n`), when the
 * sequence has events left and a registration no delivery has reached: the change is
 * tried before the next one can hide it.
 */
async function exercise(m: ModelState, r: Real, n: number | null): Promise<void> {
  if (n === null || !r.port.webhooks?.emit) return;
  const event = new TriggerEvent(0, 0, n, true);
  if (event.check(m)) await event.run(m, r);
}

const thenText = (n: number | null) => (n === null ? '' : `, then an aimed event ${n}`);

/** The slot a command acts on: its own, or (following the focus) the slot the sequence changed last, with the groups drawn for that slot's kind. */
function slotFor(m: Readonly<ModelState>, own: Slot, follow: boolean): Slot {
  return (follow ? focusOf(m) : undefined) ?? own;
}

export class RegisterHook implements Cmd {
  /** follow: act on the sequence's focus when it has one (then `groups` for a lock slot, `userGroups` for a user slot). */
  constructor(
    readonly kind: HookKind, readonly lock: number, readonly user: number, readonly header: boolean, readonly groups: Groups,
    readonly follow = false, readonly userGroups: Groups = null, readonly then: number | null = null,
  ) {}
  check(m: Readonly<ModelState>): boolean { return tokenOf(m, slotFor(m, this, this.follow).user) !== undefined; }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const slot = slotFor(m, this, this.follow);
    const user = slot.user;
    const groups = slot.kind === this.kind ? this.groups : this.userGroups;
    const lock = slot.kind === 'lock' ? slot.lock % w.locks.length : null;
    const prior = liveIn(m.hooks, slot.kind, lock, user);
    const body = `${this.header ? 'header and token' : 'no header and token'}, ${groups === null ? 'no notificationTypes' : `notificationTypes ${groups.join(',')}`}`;
    await step(r, `${prior ? 'overwrites' : 'registers'} ${slotName(slot.kind, lock, user)} (${body})`, async () => {
      const token = tokenOf(m, user)!;
      const id = m.nextId++;
      const inbox = await w.newInbox(`exploration #${id}`);
      const header = this.header ? { name: `x-lockconf-hook-${randomBytes(3).toString('hex')}`, token: `hook-${randomBytes(12).toString('hex')}` } : undefined;
      if (header) r.port.secret(header.token, 'webhook_token');
      const json = {
        url: inbox.url, method: 'POST', clientID: w.clientId,
        ...(header ? { header: header.name, token: header.token } : {}),
        ...(groups !== null ? { notificationTypes: [...groups] } : {}),
      };
      const path = lock === null ? '/webhook/user' : `/webhook/${encodeURIComponent(w.locks[lock]!.lockId)}`;
      const res = await call(m, r, token, 'POST', path, json);
      const member = lock === null || isMember({ members: w.locks.map((l) => l.members) }, lock, user);
      const accepted = is2xx(res.status);
      // "Required and optional status of each webhook registration field … not shown": only the whole body by a member must be accepted.
      if (member && this.header && groups !== null && !accepted) {
        return violation(registerRule(slot.kind, prior !== undefined), `a well-formed registration by a member (${slotName(slot.kind, lock, user)}) answered HTTP ${res.status}`, ['answered-2xx'], 'refused');
      }
      register(m.hooks, { id, kind: slot.kind, lock, user, header: this.header, groups }, accepted, member);
      r.hooks!.set(id, { inbox, ...(header ? { header } : {}) });
      return null;
    });
    await exercise(m, r, this.then);
  }
  toString(): string {
    const where = this.follow ? 'the focus' : `${this.kind}, lock ${this.lock}, ${USERS[this.user]}`;
    return `RegisterHook(${where}, ${this.header ? 'header' : 'no header'}, ${this.groups?.join('+') ?? 'no groups'}${this.follow ? ` / ${this.userGroups?.join('+') ?? 'no groups'}` : ''}${thenText(this.then)})`;
  }
}

export class DeleteHook implements Cmd {
  /** follow: delete the sequence's focus when it has one in force (a deletion of nothing is left to the other deletions). */
  constructor(readonly kind: HookKind, readonly lock: number, readonly user: number, readonly follow = false) {}
  check(m: Readonly<ModelState>): boolean {
    const slot = slotFor(m, this, this.follow);
    return tokenOf(m, slot.user) !== undefined && (!this.follow || liveIn(m.hooks, slot.kind, slot.kind === 'lock' ? slot.lock : null, slot.user) !== undefined);
  }
  async run(m: ModelState, r: Real): Promise<void> {
    const w = r.port.webhooks!;
    const slot = slotFor(m, this, this.follow);
    const user = slot.user;
    const lock = slot.kind === 'lock' ? slot.lock % w.locks.length : null;
    await step(r, `deletes ${slotName(slot.kind, lock, user)}`, async () => {
      const token = tokenOf(m, user)!;
      const path = lock === null ? '/webhook/user' : `/webhook/${encodeURIComponent(w.locks[lock]!.lockId)}/${encodeURIComponent(w.clientId)}`;
      const res = await call(m, r, token, 'DELETE', path);
      const live = liveIn(m.hooks, slot.kind, lock, user);
      const accepted = is2xx(res.status);
      if (live?.status === 'live' && !accepted) {
        return violation(deleteRule(slot.kind), `deleting a registration in force (${slotName(slot.kind, lock, user)}) answered HTTP ${res.status}`, ['answered-2xx'], 'refused');
      }
      remove(m.hooks, slot.kind, lock, user, accepted);
      return null;
    });
  }
  toString(): string { return `DeleteHook(${this.follow ? 'the focus' : `${this.kind}, lock ${this.lock}, ${USERS[this.user]}`})`; }
}

/** Changes of the focus one after the other (each skipped when it cannot run, as a command of its own would be). */
export class Rework implements Cmd {
  constructor(readonly changes: ReadonlyArray<RegisterHook | DeleteHook>) {}
  check(m: Readonly<ModelState>): boolean { return this.changes.some((c) => c.check(m)); }
  async run(m: ModelState, r: Real): Promise<void> {
    for (const c of this.changes) if (c.check(m)) await c.run(m, r);
  }
  toString(): string { return `Rework(${this.changes.map(String).join('; ')})`; }
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

/** The webhook command arbitraries (empty when the port has no webhook side). */
export function webhookArbitraries(w: WebhookPort | undefined): fc.Arbitrary<Cmd>[] {
  if (!w) return [];
  // The owner on the first lock most often: overwrites and re-registrations of one slot are where sequence-only faults live.
  const lock = fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: 1 }) });
  const user = fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) });
  // As many registrations name some groups as name them all: an overwrite that changes the groups is then tried by an
  // event of a group it names anew (webhook-events.ts rowsFor).
  const lockGroups = fc.oneof(
    { weight: 3, arbitrary: fc.constant<readonly string[] | null>([...LOCK_GROUPS]) },
    { weight: 3, arbitrary: fc.subarray([...LOCK_GROUPS], { minLength: 1 }) as fc.Arbitrary<readonly string[] | null> },
    { weight: 1, arbitrary: fc.constant<readonly string[] | null>(null) },
  );
  const userGroups = fc.oneof(
    { weight: 3, arbitrary: fc.constant<readonly string[] | null>([...USER_GROUPS]) },
    { weight: 1, arbitrary: fc.subarray([...USER_GROUPS], { minLength: 1 }) as fc.Arbitrary<readonly string[] | null> },
    { weight: 1, arbitrary: fc.constant<readonly string[] | null>(null) },
  );
  const header = fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  // Most registrations and deletions follow the focus (the slot the sequence changed last): one slot overwritten again and
  // again, deleted and registered again, is where the state the model tracks changes most.
  const follow = fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  // Most registrations are followed at once by an aimed event (a row the new registration must receive).
  const then = fc.option(fc.nat({ max: 1_000_000 }), { freq: 8 });
  const registerLock = fc.tuple(lock, user, header, lockGroups, follow, userGroups, then).map(([l, u, h, g, f, ug, t]) => new RegisterHook('lock', l, u, h, g, f, ug, t));
  const registerUser = fc.tuple(user, header, userGroups, then).map(([u, h, g, t]) => new RegisterHook('user', 0, u, h, g, false, null, t));
  const deleteLock = fc.tuple(lock, user, follow).map(([l, u, f]) => new DeleteHook('lock', l, u, f));
  // A rework: two to five changes of the focus in a row (registrations three times for two deletions), each registration
  // tried at once: an overwrite of an overwrite, a registration again after a deletion, within one command.
  const change = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(lock, user, header, lockGroups, userGroups, then).map(([l, u, h, g, ug, t]) => new RegisterHook('lock', l, u, h, g, true, ug, t)) },
    { weight: 2, arbitrary: fc.tuple(lock, user).map(([l, u]) => new DeleteHook('lock', l, u, true)) },
  );
  const rework = fc.array(change, { minLength: 2, maxLength: 5 }).map((cs) => new Rework(cs));
  const arbs: fc.Arbitrary<Cmd>[] = [
    rework, rework, rework, rework,
    registerLock, registerLock, registerUser,
    deleteLock, deleteLock, user.map((u) => new DeleteHook('user', 0, u)),
    fc.tuple(lock, user).map(([l, u]) => new StatusCheck(l, u)),
  ];
  if (w.emit) {
    const rows = rowsOf(w);
    const n = fc.nat({ max: 1_000_000 });
    arbs.push(fc.tuple(fc.constantFrom(...rows), n).map(([[ti, li], k]) => new TriggerEvent(ti, li, k)));
    // Most events are aimed: a row the newest registration no delivery has reached yet must receive, so that every
    // overwrite, deletion and registration again is followed by a delivery the model judges.
    const aimed = fc.tuple(fc.constantFrom(...rows), n).map(([[ti, li], k]) => new TriggerEvent(ti, li, k, true));
    arbs.push(aimed, aimed);
  }
  return arbs;
}
