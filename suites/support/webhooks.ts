/**
 * Webhook registration as an application does it (spec: POST {base_url}/webhook/:lockID,
 * POST {base_url}/webhook/user, and the two DELETEs). Each registration gets its own
 * header name and token, so a delivery shows which registration it was sent for.
 *
 * Status codes and bodies of these endpoints are "not shown": any 2xx is accepted,
 * and the callers record the status as an observation.
 */
import { randomBytes } from 'node:crypto';
import type { Delivery, HttpResponse, Inbox, TokenSet } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { newInbox } from './context.js';
import { PrerequisiteFailed, refusedAsSuperseded } from './prerequisite.js';

export const LOCK_GROUPS = ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'] as const;
export const USER_GROUPS = ['lockmembership', 'lifecycle'] as const;

export interface Registration {
  kind: 'lock' | 'user';
  lockId: string | null;
  inbox: Inbox;
  /** The application-chosen header name and its token. */
  header: string;
  token: string;
  accessToken: string;
  response: HttpResponse;
}

function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The requirement of a notification group (WEBHOOK-GROUP-OPERATION-TYPE for operation.type). */
export function groupRequirement(group: string): string {
  return `WEBHOOK-GROUP-${group.replace(/\./g, '-').toUpperCase()}`;
}

/**
 * What the arrival of an event at a registration rests on besides the event itself: the
 * group filter, when the registration names only some of its kind's groups.
 */
export function arrivalRestsOn(kind: 'lock' | 'user', groups: readonly string[] | undefined): string[] {
  const all: readonly string[] = kind === 'lock' ? LOCK_GROUPS : USER_GROUPS;
  if (!groups || all.every((g) => groups.includes(g))) return [];
  return groups.filter((g) => all.includes(g)).map(groupRequirement);
}

/** The control events a lock's keypad makes: they reach a lock registration through WEBHOOK-KEYPAD-VIA-LOCK. */
export const KEYPAD_EVENTS: ReadonlySet<string> = new Set(['operation.keypad', 'keypad_pin_managed', 'keypad_battery']);

/** A fresh header name and token: lower-case names, since the capture server lower-cases them. */
export function newHeaderAndToken(t: SuiteContext): { header: string; token: string } {
  const header = `x-lockconf-hook-${randomBytes(3).toString('hex')}`;
  const token = `hook-${randomBytes(12).toString('hex')}`;
  t.target.redactor.add(token, 'webhook_token');
  return { header, token };
}

/** A field of the registration body whose required status the spec does not show (left out by the slices `registration-fields`). */
export type OptionalField = 'header' | 'token' | 'method' | 'notificationTypes';

/** The fields a slice `registration-fields` leaves out of the body. */
export const FIELDS_LEFT_OUT: Readonly<Record<string, readonly OptionalField[]>> = {
  'no-header-token': ['header', 'token'],
  'no-method': ['method'],
  'no-notification-types': ['notificationTypes'],
  'bare-overwrite': ['header', 'token', 'method', 'notificationTypes'],
};

function registrationBody(t: SuiteContext, inbox: Inbox, header: string, token: string, notificationTypes: readonly string[], omit: readonly OptionalField[] = []) {
  const body: Record<string, unknown> = { url: inbox.url, method: 'POST', clientID: t.target.profile.clientId, header, token, notificationTypes: [...notificationTypes] };
  for (const field of omit) delete body[field];
  return body;
}

/** POST /webhook/:lockID for the user whose access token is given. Does not judge the answer. */
export async function registerLock(
  t: SuiteContext,
  opts: { lockId: string; inbox: Inbox; accessToken: string; notificationTypes?: readonly string[]; header?: string; token?: string; omit?: readonly OptionalField[] },
): Promise<Registration> {
  const fresh = newHeaderAndToken(t);
  const header = opts.header ?? fresh.header;
  const token = opts.token ?? fresh.token;
  const response = await t.http.api('POST', `/webhook/${encodeURIComponent(opts.lockId)}`, {
    accessToken: opts.accessToken,
    json: registrationBody(t, opts.inbox, header, token, opts.notificationTypes ?? LOCK_GROUPS, opts.omit),
  });
  return { kind: 'lock', lockId: opts.lockId, inbox: opts.inbox, header, token, accessToken: opts.accessToken, response };
}

/** POST /webhook/user for the user whose access token is given. Does not judge the answer. */
export async function registerUser(
  t: SuiteContext,
  opts: { inbox: Inbox; accessToken: string; notificationTypes?: readonly string[]; header?: string; token?: string; omit?: readonly OptionalField[] },
): Promise<Registration> {
  const fresh = newHeaderAndToken(t);
  const header = opts.header ?? fresh.header;
  const token = opts.token ?? fresh.token;
  const response = await t.http.api('POST', '/webhook/user', {
    accessToken: opts.accessToken,
    json: registrationBody(t, opts.inbox, header, token, opts.notificationTypes ?? USER_GROUPS, opts.omit),
  });
  return { kind: 'user', lockId: null, inbox: opts.inbox, header, token, accessToken: opts.accessToken, response };
}

/**
 * Insists a well-formed registration was accepted (any 2xx). A refusal blocks the calling
 * test by WEBHOOK-LOCK-REGISTER or WEBHOOK-USER-REGISTER, whose own tests judge it (their
 * own refusal is their failure), or by HEADERS-PREVIOUS-TOKEN-VALID when the token was
 * refused after an earlier answer rotated it.
 */
export function expectAccepted(t: SuiteContext, reg: Registration, what = 'webhook registration'): void {
  if (is2xx(reg.response.status)) return;
  const stale = refusedAsSuperseded(t, reg.response, reg.accessToken);
  const id = stale ? 'HEADERS-PREVIOUS-TOKEN-VALID' : reg.kind === 'lock' ? 'WEBHOOK-LOCK-REGISTER' : 'WEBHOOK-USER-REGISTER';
  throw new PrerequisiteFailed(id, `${what}: a well-formed registration must be accepted (any 2xx); got HTTP ${reg.response.status} ${t.target.redactor.redact(reg.response.text.slice(0, 200))}${stale ? ' (an earlier answer had rotated the access token presented)' : ''}`);
}

/**
 * DELETE /webhook/:lockID/:clientID or DELETE /webhook/user, with the token of the
 * registration. A 401 for that token after an answer rotated it blocks the test by
 * HEADERS-PREVIOUS-TOKEN-VALID: the deletion itself could not be tried.
 */
export async function deleteRegistration(t: SuiteContext, reg: Registration): Promise<HttpResponse> {
  const path = reg.kind === 'lock'
    ? `/webhook/${encodeURIComponent(reg.lockId!)}/${encodeURIComponent(t.target.profile.clientId)}`
    : '/webhook/user';
  const res = await t.http.api('DELETE', path, { accessToken: reg.accessToken });
  if (refusedAsSuperseded(t, res, reg.accessToken)) {
    throw new PrerequisiteFailed('HEADERS-PREVIOUS-TOKEN-VALID', `DELETE ${reg.kind === 'lock' ? '/webhook/:lockID/:clientID' : '/webhook/user'} answered HTTP 401 for the registration's access token, which an earlier answer had rotated`);
  }
  return res;
}

/**
 * A delivery sent for this registration: it carries the header the registration named, set to its token. What the
 * target itself sent says which registration a delivery belongs to (two registrations may share one url), never the
 * order deliveries arrive in.
 */
export function sentFor(reg: Pick<Registration, 'header' | 'token'>): (d: Delivery) => boolean {
  return (d) => d.headers[reg.header] === reg.token;
}

/** Whether the owner's and the guest's registrations name urls of their own, or one url (the slice dimension `receiver-url`). */
export type ReceiverUrl = 'own' | 'shared';

export interface OwnerAndGuest {
  owner: TokenSet;
  guest: TokenSet;
  ownerReg: Registration;
  guestReg: Registration;
}

/**
 * fixtures.users[0] (the owner) and users[1] (a guest on the lock) each register the lock, to an inbox of their own
 * (`own`) or both to one inbox (`shared`: two listeners, one url; each registration its own header and token, so
 * each delivery says whose it is). Both registrations must be accepted. Registering again for the same users
 * overwrites their earlier registrations on the lock (one per lock per user).
 */
export async function ownerAndGuestRegistered(t: SuiteContext, lockId: string, receiverUrl: ReceiverUrl = 'own'): Promise<OwnerAndGuest> {
  const owner = await t.flows.userSession(0);
  const guest = await t.flows.userSession(1);
  const ownerInbox = await newInbox(t, { label: receiverUrl === 'shared' ? 'owner and guest, one url' : 'owner' });
  const guestInbox = receiverUrl === 'shared' ? ownerInbox : await newInbox(t, { label: 'guest' });
  const ownerReg = await registerLock(t, { lockId, inbox: ownerInbox, accessToken: owner.accessToken });
  expectAccepted(t, ownerReg, 'owner registration');
  const guestReg = await registerLock(t, { lockId, inbox: guestInbox, accessToken: guest.accessToken });
  expectAccepted(t, guestReg, receiverUrl === 'shared' ? 'guest registration naming the owner registration\'s url' : 'guest registration');
  return { owner, guest, ownerReg, guestReg };
}

/**
 * fixtures.users[0] (the owner) and users[1] (a guest on the lock) each register the lock
 * to an inbox of their own; both registrations must be accepted.
 */
export async function ownerAndGuestListening(t: SuiteContext, lockId: string): Promise<{ owner: TokenSet; guest: TokenSet; ownerInbox: Inbox; guestInbox: Inbox }> {
  const { owner, guest, ownerReg, guestReg } = await ownerAndGuestRegistered(t, lockId, 'own');
  return { owner, guest, ownerInbox: ownerReg.inbox, guestInbox: guestReg.inbox };
}
