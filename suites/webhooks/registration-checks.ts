/**
 * The checks the webhook registration suites share (registration.suite.ts, registration-domains.suite.ts):
 * what a delivery was sent for and to, the urls of the capture server's doors, the (lock, role) pairs.
 */
import { describeLeased as describe } from '../../harness/service/conformance.js';
import type { Delivery, Inbox } from '../../harness/contracts.js';
import { conformance } from '../../harness/service/conformance.js';
import type { SuiteContext } from '../support/context.js';
import { control, newInbox } from '../support/context.js';
import { ARRIVAL_TIMEOUT_MS, LOOPING_TEST_TIMEOUT_MS, QUIET_WINDOW_MS, arrives, deliveriesAfter, describeDeliveries, expectDeliveries, expectDelivery, expectQuiet, isAbout, isEvent } from '../support/deliveries.js';
import { firstLock, fixtures, lockWith, user } from '../support/fixtures.js';
import { triggerStatusCheck } from '../support/status-check.js';
import { FIELDS_LEFT_OUT, deleteRegistration, expectAccepted, ownerAndGuestListening, registerLock, registerUser, type Registration } from '../support/webhooks.js';
import { bystandersUntouched } from '../support/bystanders.js';
import { tlsProbe } from '../support/tls-probe.js';

/** The header and token of a delivery must be those of the registration it was sent for. */
export function expectSentFor(t: SuiteContext, reg: Registration, headers: Record<string, string>, what: string): void {
  t.expect(headers[reg.header], `${what}: expected header ${reg.header} with this registration's token`).toBe(reg.token);
}

/** users[1] is told a lock_user_add happened on locks[0]: the event every user registration below waits for. */
export async function userEvent(t: SuiteContext, userIndex: number) {
  return control(t).emit({ kind: 'lock_user_add', lockId: firstLock(t).lockId, userId: user(t, userIndex).userId });
}

/** The url parts that are another door of the capture server (another loopback host or port), not a component added. */
export const DOOR_PARTS = new Set(['other-loopback', 'ipv6-literal', 'port-4-digits']);

/**
 * The url a slice `url-part` registers: the inbox's url with one component added (a deeper path,
 * a query, upper-case letters in the path), or the inbox at another door of the capture server
 * (127.0.0.2, [::1], a 4-digit port). A door the capture server could not open: not tested.
 */
export function urlWith(t: SuiteContext, inbox: Inbox, part: string): string {
  const base = inbox.url;
  switch (part) {
    case 'path': return `${base}/hooks/lock-events/v1`;
    case 'query': return `${base}?source=lockconf&next=%2Fa%2Fb&empty=`;
    case 'case': return `${base}/Hooks/LockEvents`;
  }
  if (!DOOR_PARTS.has(part)) throw new Error(`suite error: no url for the component ${part}`);
  const door = inbox.doorUrl?.(part as 'other-loopback') ?? { missing: 'the capture client offers no other door' };
  if ('missing' in door) t.notTested(`no url of the class ${part}: ${door.missing}`);
  return door.url;
}

/**
 * url-part https: the registration names https://127.0.0.1:<port>/… on a loopback port of the harness,
 * which holds no certificate a target would trust and so cannot answer: the target must begin a TLS
 * handshake there (one POST per event "to the registered URL"), neither skip the url nor send it plain HTTP.
 * A target that reaches this machine only through a public capture server: not tested.
 */
export async function expectHttpsBegun(t: SuiteContext, inbox: Inbox, register: (url: string) => Promise<Registration>, trigger: () => Promise<unknown>, what: string): Promise<void> {
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(inbox.url).hostname)) {
    t.notTested('the target reaches this machine through the capture server only, so no loopback port can stand for an https url');
  }
  const probe = await tlsProbe();
  try {
    expectAccepted(t, await register(probe.url), `registration to an https url (${probe.url})`);
    await trigger();
    const first = await probe.firstConnection(ARRIVAL_TIMEOUT_MS);
    t.expect(first !== null, `${what}, registered to ${probe.url}: the target must connect to the registered host and port within ${ARRIVAL_TIMEOUT_MS} ms (no connection came)`).toBe(true);
    t.expect(first?.tls, `${what}, registered to ${probe.url}: the url's scheme is https, so the connection must begin a TLS handshake; it began with ${first?.began}`).toBe(true);
  } finally {
    await probe.close();
  }
}

/** Path and query of a url, as the capture server records a delivery's. */
export function pathAndQuery(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** The delivery went to the registered url exactly: its path and query, and for a door its host and port too. */
export function expectSentTo(t: SuiteContext, got: Delivery, url: string, part: string): void {
  t.expect(got.url, `a url with a ${part} (${url}): the delivery must go to the registered url exactly`).toBe(pathAndQuery(url));
  if (!DOOR_PARTS.has(part)) return;
  const u = new URL(url);
  t.expect(got.receivedOn, `a url of the class ${part} (${url}): the delivery must reach ${u.host}`).toBe(u.host);
}

/** A registration left without optional fields that the target refused: its freedom (the required status of each field is not shown). */
export function refusedLeavingOut(t: SuiteContext, reg: Registration, value: string): void {
  if (reg.response.status >= 200 && reg.response.status < 300) return;
  t.notTested(`the target refuses a registration without ${FIELDS_LEFT_OUT[value]!.join(' and ')} (HTTP ${reg.response.status}): the required status of each registration field is not shown, so that is its choice`);
}

/** The (lock, role) pairs a fixture set holds: both locks are the owner's, the guest is on the first only (pairwise over lock × role). */
export const LOCK_ROLE_PAIRS = [{ lock: 'first', role: 'owner' }, { lock: 'second', role: 'owner' }, { lock: 'first', role: 'guest' }] as const;


/**
 * The lock × role tests' setting: the owner's and the guest's sessions, the fixture lock of each
 * slot, and one status check on both locks by the owner (each pair's event). Not tested with a
 * single fixture lock.
 */
export async function lockRoleSetting(t: SuiteContext) {
  const locks = fixtures(t).locks;
  if (locks.length < 2) t.notTested('the fixtures have a single lock');
  const sessions = { owner: await t.flows.userSession(0), guest: await t.flows.userSession(1) };
  const lockOf = (slot: string) => (slot === 'first' ? locks[0]! : locks[1]!);
  const checkBothLocks = async () => {
    for (const lock of [lockOf('first'), lockOf('second')]) await triggerStatusCheck(t, lock.lockId, sessions.owner.accessToken);
  };
  return { sessions, lockOf, checkBothLocks };
}
