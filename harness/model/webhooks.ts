/**
 * The webhook part of the model: the registrations a sequence made (one per lock per
 * user, one user registration per user; registering again overwrites, DELETE removes),
 * and for each event the SET of deliveries the spec allows at each registration's url.
 *
 * A registration's url is an inbox of its own, so a delivery says which registration it
 * was sent for. What the model judges, and nothing more:
 *   must      a registration in force whose notificationTypes name a group the spec maps
 *             the event to receives it (awaited with the harness's delivery wait);
 *   must-not  a registration overwritten or deleted receives nothing of a later event
 *             (one shared quiet window per step);
 *   may       everything the spec leaves open: a registration naming no notificationTypes
 *             ("Event groups wanted", required status not shown), an event of a group the
 *             registration did not name (filtering is WEBHOOK-NOTIFICATION-FILTER's, a
 *             SHOULD judged by the groups suite), an event whose group the spec does not fix
 *             (the lock clock row; user webhooks' access level and schedule rows), a
 *             registration whose answer the spec does not fix (a body without its optional
 *             fields refused, a lock the user is no member of).
 * Every delivery that arrives is judged on its own, whatever its order or speed: it
 * carries the registration's own header and token, no header of a registration of the
 * same slot it replaced, a signature that verifies, and its lock's LockID.
 */
import { RULES, type ModelRule } from './rules.js';

export type HookKind = 'lock' | 'user';
export type HookStatus = 'live' | 'overwritten' | 'deleted' | 'uncertain';

export const LOCK_GROUPS = ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'] as const;
export const USER_GROUPS = ['lockmembership', 'lifecycle'] as const;

export interface Hook {
  /** The model's id; the real side keeps its inbox, header name and token under it. */
  id: number;
  kind: HookKind;
  /** Fixture lock index (lock registrations). */
  lock: number | null;
  /** Fixture user index of the registering user. */
  user: number;
  /** The body named a header and token. */
  header: boolean;
  /** notificationTypes as sent; null when the body left them out. */
  groups: readonly string[] | null;
  status: HookStatus;
  /** It replaced a registration of the same slot (an overwrite). */
  overwrote: boolean;
  /** Deliveries that may still arrive for events the model allowed but did not require. */
  pendingMay: number;
  /** Deliveries already judged. */
  seen: number;
}

export type Expectation = 'must' | 'may' | 'must-not';

export interface HookExpectation {
  hook: Hook;
  expect: Expectation;
  /** The rule a miss (must) or an arrival (must-not) breaks. */
  rule: ModelRule;
  why: string;
}

/** What the model knows of the fixtures. */
export interface HookWorld {
  /** Per fixture lock, the fixture users who are its members. */
  members: readonly (readonly number[])[];
}

/** An event as the model routes it: the lock it is about and the groups the spec maps it to. */
export interface ModelEvent {
  what: string;
  lock: number | null;
  /** Lock registrations naming one of these groups must receive it; null: the spec fixes no group (may). */
  lockMust: readonly string[] | null;
  /** The rule a lock registration naming the group breaks when it misses it (else the register/overwrite rule). */
  lockRule?: ModelRule;
  /** The user whose user registration concerns the event, and the groups that must receive it (null: may). */
  user?: { user: number; must: readonly string[] | null };
  /** The event reaches registrations of the lock only (a status check: every listener, by DELIVERY-STATUS-CHECK-FANOUT). */
  fanout?: boolean;
}

/** The registrations of one slot (lock × user, or the user's user registration), oldest first. */
export function slotOf(hooks: readonly Hook[], kind: HookKind, lock: number | null, user: number): Hook[] {
  return hooks.filter((h) => h.kind === kind && h.lock === lock && h.user === user);
}

export function liveIn(hooks: readonly Hook[], kind: HookKind, lock: number | null, user: number): Hook | undefined {
  return slotOf(hooks, kind, lock, user).find((h) => h.status === 'live' || h.status === 'uncertain');
}

export function isMember(w: HookWorld, lock: number, user: number): boolean {
  return w.members[lock]?.includes(user) ?? false;
}

/** Whether the registration body is one the spec shows whole (url, method, clientID, header, token, notificationTypes). */
export function wholeBody(header: boolean, groups: readonly string[] | null): boolean {
  return header && groups !== null;
}

/**
 * The registration's answer, judged: a whole body by a member must be accepted (any 2xx:
 * "Response bodies and status codes … not shown"); anything else may be answered any way.
 */
export function registerRule(kind: HookKind, overwrite: boolean): ModelRule {
  return kind === 'lock' ? (overwrite ? RULES.lockOverwrite : RULES.lockRegister) : (overwrite ? RULES.userOverwrite : RULES.userRegister);
}

/** The model after a registration answered: the slot's earlier registration replaced (accepted) or in doubt (refused). */
export function register(
  hooks: Hook[],
  next: { id: number; kind: HookKind; lock: number | null; user: number; header: boolean; groups: readonly string[] | null },
  accepted: boolean,
  certain: boolean,
): Hook {
  const prior = liveIn(hooks, next.kind, next.lock, next.user);
  const hook: Hook = { ...next, status: accepted && certain ? 'live' : 'uncertain', overwrote: prior !== undefined, pendingMay: 0, seen: 0 };
  if (prior) {
    // Accepted: "calling again … overwrites it". Refused where a refusal is allowed: whether the earlier one stays is not described.
    prior.status = accepted && certain && prior.status === 'live' ? 'overwritten' : 'uncertain';
  }
  hooks.push(hook);
  return hook;
}

/** The model after a DELETE answered: a 2xx removes the registration; a refusal leaves it as it was. */
export function remove(hooks: Hook[], kind: HookKind, lock: number | null, user: number, accepted: boolean): void {
  const live = liveIn(hooks, kind, lock, user);
  if (live && accepted) live.status = live.status === 'live' ? 'deleted' : 'uncertain';
}

/** The rule a DELETE of a registration in force breaks when it is refused. */
export function deleteRule(kind: HookKind): ModelRule {
  return kind === 'lock' ? RULES.lockDelete : RULES.userDelete;
}

const GROUP_RULES: Record<string, ModelRule> = {
  operation: RULES.groupOperation,
  'operation.type': RULES.groupOperationType,
  configuration: RULES.groupConfiguration,
  battery: RULES.groupBattery,
  accessmgmt: RULES.groupAccessmgmt,
  lockmembership: RULES.groupLockmembership,
  lifecycle: RULES.groupLifecycle,
};

function mustRule(h: Hook, e: ModelEvent, group: string, replaced: readonly Hook[]): ModelRule {
  // A group the overwrite named anew (a registration it replaced, or one that one replaced, did not name it): the overwrite's groups are what is tried.
  if (h.overwrote && replaced.some((p) => p.groups !== null && !p.groups.includes(group))) return h.kind === 'lock' ? RULES.lockOverwrite : RULES.userOverwrite;
  if (e.fanout) return RULES.statusFanout;
  const all: readonly string[] = h.kind === 'lock' ? LOCK_GROUPS : USER_GROUPS;
  if (h.overwrote) return h.kind === 'lock' ? RULES.lockOverwrite : RULES.userOverwrite;
  if (!all.every((g) => h.groups!.includes(g))) return (h.kind === 'lock' ? e.lockRule : undefined) ?? GROUP_RULES[group] ?? RULES.lockRegister;
  return h.kind === 'lock' ? (e.lockRule ?? RULES.lockRegister) : RULES.userRegister;
}

function retiredRule(h: Hook): ModelRule {
  if (h.status === 'overwritten') return h.kind === 'lock' ? RULES.lockOverwrite : RULES.userOverwrite;
  return h.kind === 'lock' ? RULES.lockDelete : RULES.userDelete;
}

/** The registrations `h` replaced, newest first: the one before it in its slot, and the ones that one replaced in turn. */
export function replacedOf(hooks: readonly Hook[], h: Hook): Hook[] {
  const before = slotOf(hooks, h.kind, h.lock, h.user).filter((p) => p.id < h.id).reverse();
  const chain: Hook[] = [];
  let overwrote = h.overwrote;
  for (const p of before) {
    if (!overwrote) break;
    chain.push(p);
    overwrote = p.overwrote;
  }
  return chain;
}

/** For each registration the event concerns (its lock's, its user's), what the spec allows at its url. */
export function expectations(hooks: readonly Hook[], e: ModelEvent): HookExpectation[] {
  const out: HookExpectation[] = [];
  for (const h of hooks) {
    const concerned = h.kind === 'lock' ? e.lock !== null && h.lock === e.lock : e.user !== undefined && h.user === e.user.user;
    if (!concerned) continue;
    const must = h.kind === 'lock' ? e.lockMust : e.user?.must ?? null;
    if (h.status === 'overwritten' || h.status === 'deleted') {
      out.push({ hook: h, expect: 'must-not', rule: retiredRule(h), why: `${h.status} before ${e.what}` });
      continue;
    }
    if (h.status === 'uncertain' || h.groups === null || must === null) {
      out.push({ hook: h, expect: 'may', rule: RULES.onePost, why: h.status === 'uncertain' ? 'a registration whose answer the spec leaves open' : h.groups === null ? 'a registration naming no notificationTypes' : `${e.what}: its group is not fixed by the spec` });
      continue;
    }
    const group = must.find((g) => h.groups!.includes(g));
    if (group === undefined) out.push({ hook: h, expect: 'may', rule: RULES.onePost, why: `${e.what}: not of a group it named (filtering is a SHOULD)` });
    else out.push({ hook: h, expect: 'must', rule: mustRule(h, e, group, replacedOf(hooks, h)), why: `it named ${group}` });
  }
  return out;
}

/** A delivery as the model sees it. */
export interface DeliveryView {
  /** Whether the body's LockID (or the LockID array) names the lock of the registration. */
  aboutLock: boolean | null;
  /** The value of each header name asked about (lower case), or undefined. */
  header(name: string): string | undefined;
  /** 'ok' | 'missing' | 'mismatch': the HMAC over t.body with the API key. */
  signature: 'ok' | 'missing' | 'mismatch';
}

/** The header names and tokens of the registrations, kept by the real side (the model holds no secret). */
export interface HeaderBook {
  of(hookId: number): { name: string; token: string } | undefined;
}

export interface DeliveryViolation {
  rule: ModelRule;
  what: string;
}

/**
 * One delivery at the url of `h`, judged on its own (order and speed play no part):
 * no header of a registration of the slot it replaced, its own header and token, a
 * signature present and valid, about its lock.
 */
export function judgeDelivery(hooks: readonly Hook[], h: Hook, d: DeliveryView, book: HeaderBook): DeliveryViolation | null {
  const before = slotOf(hooks, h.kind, h.lock, h.user).filter((p) => p.id < h.id && p.header && (p.status === 'overwritten' || p.status === 'deleted'));
  const own = h.header ? book.of(h.id) : undefined;
  for (const p of before) {
    const old = book.of(p.id);
    if (old && old.name !== own?.name && d.header(old.name) !== undefined) {
      return { rule: retiredRule(p), what: `a delivery to the registration that followed one ${p.status === 'overwritten' ? 'it overwrote' : 'the user deleted'} carries the earlier registration's header ${old.name}` };
    }
  }
  if (own && d.header(own.name) !== own.token && h.status !== 'uncertain') {
    // An overwrite "replaces the url, header, token": its deliveries carry the new header and token (WEBHOOK-*-OVERWRITE's reading).
    const rule = h.overwrote ? (h.kind === 'lock' ? RULES.lockOverwrite : RULES.userOverwrite) : RULES.customHeader;
    return { rule, what: `a delivery to a registration naming header ${own.name} ${d.header(own.name) === undefined ? 'lacks that header' : 'carries another token in it'}` };
  }
  if (d.signature === 'missing') return { rule: RULES.signaturePresent, what: 'a delivery without X-Signature' };
  if (d.signature === 'mismatch') return { rule: RULES.signatureValid, what: 'a delivery whose X-Signature does not verify with the API key' };
  if (h.kind === 'lock' && d.aboutLock === false) return { rule: RULES.lockPerLock, what: 'a lock registration received an event about another lock' };
  return null;
}

/**
 * The count at one registration's url after a step: `arrived` new deliveries. Only what
 * arrived is evidence (a copy too many, a delivery where none may come), never what has
 * not arrived yet, except a delivery that must come, which was awaited. Updates what may
 * still arrive late (an allowed delivery that had not come when the step ended).
 */
export function judgeCount(x: HookExpectation, arrived: number): DeliveryViolation | null {
  const h = x.hook;
  const slack = h.pendingMay;
  switch (x.expect) {
    case 'must':
      if (arrived === 0) return { rule: x.rule, what: `a registration in force (${x.why}) did not receive the event` };
      if (arrived > 1 + slack) return { rule: RULES.onePost, what: `a registration received ${arrived} copies of one event` };
      h.pendingMay = Math.max(0, slack - (arrived - 1));
      return null;
    case 'may':
      if (arrived > 1 + slack) return { rule: RULES.onePost, what: `a registration received ${arrived} copies of one event` };
      h.pendingMay = Math.max(0, slack + 1 - arrived);
      return null;
    case 'must-not':
      if (arrived > slack) return { rule: x.rule, what: `a registration ${x.why} received it` };
      h.pendingMay = Math.max(0, slack - arrived);
      return null;
  }
}

/**
 * The registrations that must receive nothing more, as judged once at the end of a
 * sequence after one quiet window: every overwritten or deleted registration, for every
 * event made after it was replaced (deliveries it may still get for earlier events are
 * its pendingMay).
 */
export function retired(hooks: readonly Hook[]): HookExpectation[] {
  return hooks.filter((h) => h.status === 'overwritten' || h.status === 'deleted')
    .map((h) => ({ hook: h, expect: 'must-not' as const, rule: retiredRule(h), why: `${h.status} before the events that followed` }));
}
