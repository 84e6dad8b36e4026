/**
 * What the webhook commands of exploration share: the users' tokens and calls, the
 * registration slots (one per lock per user, one user registration per user) and the
 * slot a command aims at when it follows the sequence's focus.
 */
import type fc from 'fast-check';
import type { HttpResponse } from '../../harness/contracts.js';
import { predictApi, receiveRotated, type AccessToken, type Hook, type HookKind, type ModelState, type Violation } from '../../harness/model/index.js';
import type { Real } from './steps.js';

export type Cmd = fc.AsyncCommand<ModelState, Real>;

export const USERS = ['owner', 'guest'] as const;
export const is2xx = (s: number) => s >= 200 && s < 300;

/** The newest access token of the user's session through the profile's credential that the model knows valid. */
export function tokenOf(m: Readonly<ModelState>, user: number): AccessToken | undefined {
  const own = m.access.filter((t) => t.cred === 0 && t.account === 'user' && t.user === user && !t.superseded);
  for (let i = own.length - 1; i >= 0; i--) {
    const p = predictApi(m as ModelState, own[i]!);
    if (p.allowed.length === 1 && p.allowed[0] === 'accepted-rotated') return own[i];
  }
  return undefined;
}

/** Calls a webhook endpoint with the user's token; a rotated x-access-token becomes the session's newest. */
export async function call(m: ModelState, r: Real, token: AccessToken, method: string, path: string, json?: unknown): Promise<HttpResponse> {
  const res = await r.port.webhooks!.call(method, path, r.secrets.get(token.id)!, json);
  const rotated = res.headers['x-access-token'];
  if (is2xx(res.status) && rotated) {
    token.used = true;
    r.secrets.set(receiveRotated(m, token).id, rotated);
  }
  return res;
}

export function violation(rule: Violation['rule'], what: string, expected: Violation['expected'], observed: Violation['observed']): Violation {
  return { rule, what, expected, observed };
}

export const slotName = (kind: HookKind, lock: number | null, user: number) => kind === 'lock' ? `the ${USERS[user]}'s registration on lock #${lock}` : `the ${USERS[user]}'s user registration`;

/** A registration slot: a lock registration of a user on a fixture lock, or a user's user registration (lock unused). */
export interface Slot {
  kind: HookKind;
  lock: number;
  user: number;
}

/**
 * The sequence's focus: the slot of its newest registration (made, overwritten or
 * deleted since). A command that follows the focus acts on the slot the sequence last
 * changed, so that one slot goes through overwrites, deletions and registrations again,
 * the state changes the model tracks; undefined when the sequence holds none.
 */
export function focusOf(m: Readonly<ModelState>): Slot | undefined {
  const h = m.hooks[m.hooks.length - 1];
  return h ? { kind: h.kind, lock: h.lock ?? 0, user: h.user } : undefined;
}

/**
 * The registration an aimed event is for: the newest registration in force that no
 * delivery has reached yet (a registration whose header, token and groups are untried).
 */
export function untried(m: Readonly<ModelState>): Hook | undefined {
  for (let i = m.hooks.length - 1; i >= 0; i--) {
    const h = m.hooks[i]!;
    if (h.status === 'live' && h.seen === 0) return h;
  }
  return undefined;
}
