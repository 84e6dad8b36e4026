/**
 * One delivery of every event row (spec: Events → Lock events, User events), lock and
 * user webhooks alike, for the rules that hold "on each delivery" (Content-Type,
 * X-Signature, the application's header).
 */
import type { ControlEvent, Delivery, FixtureLock, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { control, newInbox } from './context.js';
import { expectDelivery, isAbout, isEvent } from './deliveries.js';
import { fixtures, user } from './fixtures.js';
import { triggerStatusCheck } from './status-check.js';
import { expectAccepted, registerLock, registerUser, type Registration } from './webhooks.js';
import { lockRoles, registerListeners, statusEventOfEach, type ListenerDelivery } from './lock-roles.js';

export interface RowDelivery {
  row: string;
  /** The slice of the `row` dimension (harness/catalog/slices/webhooks-events.ts): `user.` for the user webhook's copy. */
  id: string;
  delivery: Delivery;
  registration: Registration;
}

interface Row {
  row: string;
  /** The row's slice value (lock webhook); its user webhook copy is `user.<event>`. */
  id: string;
  lock: FixtureLock;
  fire: ControlEvent | 'status-check';
  /** The Event of the delivery; null: any delivery not seen before (lifecycle: its payload is not shown). */
  event: string | null;
  /** The requirement of the row (its own test shows the event is delivered). */
  requirement: string;
  /** The row also reaches users[1]'s user webhook, under this requirement. */
  user?: string;
  /** Only the user webhook receives it (lifecycle). */
  userOnly?: boolean;
  /** A keypad's event: it reaches a lock webhook through WEBHOOK-KEYPAD-VIA-LOCK. */
  keypad?: boolean;
}

function rows(t: SuiteContext): Row[] {
  const locks = fixtures(t).locks;
  const first = locks[0]!;
  const pick = (what: 'keypad' | 'doorSensor' | 'builtInKeypad' | 'bridgeId') => locks.find((l) => Boolean(l[what]));
  const owner = user(t, 0).userId;
  const guest = user(t, 1).userId;
  const out: Row[] = [
    { row: 'Lock operated by app or API', id: 'operation_app', lock: first, fire: { kind: 'operation.app', lockId: first.lockId, userId: owner, value: 'unlock' }, event: 'unlock', requirement: 'EVENT-OPERATION-APP' },
    { row: 'Lock turned manually', id: 'operation_manual', lock: first, fire: { kind: 'operation.manual', lockId: first.lockId, value: 'lock' }, event: 'lock', requirement: 'EVENT-OPERATION-MANUAL' },
    { row: 'Status check result', id: 'status_check', lock: first, fire: 'status-check', event: 'lock', requirement: 'EVENT-STATUS-CHECK' },
    { row: 'Lock name changed', id: 'lock_name_changed', lock: first, fire: { kind: 'lock_name_changed', lockId: first.lockId, userId: owner, value: `Every row ${Date.now().toString(36)}` }, event: 'lock_name_changed', requirement: 'EVENT-LOCK-NAME-CHANGED' },
    { row: 'Lock battery warning', id: 'lock_battery_alert', lock: first, fire: { kind: 'lock_battery_alert', lockId: first.lockId, value: 'lock_state_battery_warning_2week' }, event: 'lock_battery_alert', requirement: 'EVENT-LOCK-BATTERY' },
    { row: 'Lock clock wrong', id: 'lock_log_timestamp_drifted', lock: first, fire: { kind: 'lock_log_timestamp_drifted', lockId: first.lockId, value: 'lock_state_battery_warning_none', params: { drift: 3_600_000 } }, event: 'lock_log_timestamp_drifted', requirement: 'EVENT-LOCK-CLOCK-DRIFT' },
    { row: 'User added to lock', id: 'lock_user_add', lock: first, fire: { kind: 'lock_user_add', lockId: first.lockId, userId: guest }, event: 'lock_user_add', requirement: 'EVENT-LOCK-USER-ADD', user: 'EVENT-USER-LOCK-USER-ADD' },
    { row: 'User removed from lock', id: 'lock_user_remove', lock: first, fire: { kind: 'lock_user_remove', lockId: first.lockId, userId: guest }, event: 'lock_user_remove', requirement: 'EVENT-LOCK-USER-REMOVE', user: 'EVENT-USER-LOCK-USER-REMOVE' },
    { row: 'Access level changed', id: 'lock_usertype_changed', lock: first, fire: { kind: 'lock_usertype_changed', lockId: first.lockId, userId: guest, value: 'user' }, event: 'lock_usertype_changed', requirement: 'EVENT-LOCK-USERTYPE-CHANGED', user: 'EVENT-USER-USERTYPE-CHANGED' },
    { row: 'Access schedule changed', id: 'lock_accesstype_changed', lock: first, fire: { kind: 'lock_accesstype_changed', lockId: first.lockId, userId: guest, value: 'rule_access_always' }, event: 'lock_accesstype_changed', requirement: 'EVENT-LOCK-ACCESSTYPE-CHANGED', user: 'EVENT-USER-ACCESSTYPE-CHANGED' },
  ];
  const door = pick('doorSensor');
  if (door) out.push({ row: 'Door state', id: 'door_state', lock: door, fire: { kind: 'door', lockId: door.lockId, value: 'open' }, event: 'open', requirement: 'EVENT-DOOR-STATE' });
  const keypad = pick('keypad');
  if (keypad) {
    out.push({ row: 'Lock operated by keypad', id: 'operation_keypad', lock: keypad, fire: { kind: 'operation.keypad', lockId: keypad.lockId, userId: owner, value: 'unlatch' }, event: 'unlatch', requirement: 'EVENT-OPERATION-KEYPAD', keypad: true });
    out.push({ row: 'Keypad PIN managed', id: 'keypad_pin_managed', lock: keypad, fire: { kind: 'keypad_pin_managed', lockId: keypad.lockId, userId: owner, value: 'enable', params: { pinUserId: owner } }, event: 'keypad_pin_managed', requirement: 'EVENT-KEYPAD-PIN-MANAGED', keypad: true });
    out.push({ row: 'Keypad battery', id: 'keypad_battery', lock: keypad, fire: { kind: 'keypad_battery', lockId: keypad.lockId, value: 'keypad_battery_warning' }, event: 'keypad_battery_warning', requirement: 'EVENT-KEYPAD-BATTERY', keypad: true });
  }
  const builtIn = pick('builtInKeypad');
  if (builtIn) out.push({ row: 'Master PIN changed', id: 'master_pin_changed', lock: builtIn, fire: { kind: 'master_pin_changed', lockId: builtIn.lockId }, event: 'keypad_pin_managed', requirement: 'EVENT-MASTER-PIN' });
  const bridged = pick('bridgeId');
  if (bridged) out.push({ row: 'Bridge went online/offline', id: 'bridge', lock: bridged, fire: { kind: 'bridge', lockId: bridged.lockId, value: 'offline' }, event: 'offline', requirement: 'EVENT-BRIDGE' });
  // The user deleted their account (lifecycle, user webhook only; the control protocol only reports it): last.
  out.push({ row: 'The user deleted their account', id: 'lifecycle', lock: first, fire: { kind: 'lifecycle.deleted', userId: guest }, event: null, requirement: 'EVENT-LIFECYCLE', user: 'EVENT-LIFECYCLE', userOnly: true });
  return out;
}

/** The deliveries of every row, and the status event of every listener (lock × role) the fixtures hold. */
export interface EveryRowAndListener {
  rows: RowDelivery[];
  /** One per (lock, role) pair (suites/support/lock-roles.ts): the status event of a check on its lock. */
  listeners: ListenerDelivery[];
}

/** users[0] listens to every fixture lock (every group), users[1] to its user webhook; one event of every row is made to happen. */
export async function deliveryOfEveryRow(t: SuiteContext): Promise<RowDelivery[]> {
  return (await everyRowAndListener(t)).rows;
}

/**
 * deliveryOfEveryRow, with the guest listening to the lock(s) they are a guest on too: first one status check per
 * fixture lock, whose status event every (lock, role) listener receives (awaited together; the first lock's is also the
 * status check row's), then one event of every other row.
 */
export async function everyRowAndListener(t: SuiteContext): Promise<EveryRowAndListener> {
  const owner = await t.flows.userSession(0);
  const guest = await t.flows.userSession(1);
  const listening = await registerListeners(t, lockRoles(t), 'every row');
  const byLock = new Map<string, Registration>(listening.filter((l) => l.role === 'owner').map((l) => [l.fixture.lockId, l.registration]));
  for (const lock of fixtures(t).locks) {
    if (byLock.has(lock.lockId)) continue;
    const inbox = await newInbox(t, { label: `every row: ${lock.name ?? lock.lockId}` });
    const reg = await registerLock(t, { lockId: lock.lockId, inbox, accessToken: owner.accessToken });
    expectAccepted(t, reg);
    byLock.set(lock.lockId, reg);
  }
  const userInbox = await newInbox(t, { label: 'every row: user webhook' });
  const userReg = await registerUser(t, { inbox: userInbox, accessToken: guest.accessToken });
  expectAccepted(t, userReg, 'user webhook registration');
  const got: RowDelivery[] = [];
  const severalLocks = byLock.size > 1;
  const catchIn = async (reg: Registration, row: Row, seen: Set<number>, where: string) => {
    // The delivery of each row is the way to this test's check, not the check: when it does not
    // arrive, what its arrival rests on is judged by those requirements' own tests.
    const restsOn = where === 'user webhook'
      ? [row.user!, 'WEBHOOK-USER-REGISTER', 'DELIVERY-ONE-POST']
      : [row.requirement, 'WEBHOOK-LOCK-REGISTER', 'DELIVERY-ONE-POST', ...(row.keypad ? ['WEBHOOK-KEYPAD-VIA-LOCK'] : []), ...(severalLocks ? ['WEBHOOK-LOCK-PER-LOCK'] : [])];
    const ofRow = (x: Delivery) => (row.event === null || isEvent(row.event)(x)) && (where === 'user webhook' || isAbout(row.lock.lockId)(x));
    const d = await expectDelivery(t, reg.inbox, `${row.row} (${where})`, { predicate: (x) => !seen.has(x.seq) && ofRow(x), restsOn });
    got.push({ row: `${row.row} (${where})`, id: where === 'user webhook' ? `user.${row.id}` : row.id, delivery: d, registration: reg });
  };
  const seqs = async (inbox: Inbox) => new Set((await inbox.deliveries()).map((d) => d.seq));
  // One status check per listened lock: the status check row's event on its lock, and every listener's.
  const listeners = await statusEventOfEach(t, listening);
  for (const row of rows(t)) {
    const reg = byLock.get(row.lock.lockId)!;
    const checked = row.fire === 'status-check' ? listeners.find((l) => l.role === 'owner' && l.fixture.lockId === row.lock.lockId) : undefined;
    if (checked) {
      got.push({ row: `${row.row} (lock webhook)`, id: row.id, delivery: checked.delivery, registration: checked.registration });
      continue;
    }
    const seenLock = await seqs(reg.inbox);
    const seenUser = await seqs(userInbox);
    if (row.fire === 'status-check') await triggerStatusCheck(t, row.lock.lockId, owner.accessToken);
    else await control(t).emit(row.fire);
    if (!row.userOnly) await catchIn(reg, row, seenLock, 'lock webhook');
    if (row.user) await catchIn(userReg, row, seenUser, 'user webhook');
  }
  return { rows: got, listeners };
}
