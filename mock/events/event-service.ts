/**
 * The EventService: turns a control-protocol event request (or a status check) into
 * payloads, picks the registrations that should receive them (notificationTypes) and
 * hands them to the deliverer. Bad requests are ControlErrors (404 unknown lock or
 * user, 422 unknown kind or value), never a 5xx.
 */
import { ControlError, type EventRequest, type EventService, type MockContext } from '../context.js';
import { lockSlot, type MockLock, type MockUser } from '../world.js';
import type { Group } from '../webhooks/groups.js';
import type { Registration, WebhookRegistry } from '../webhooks/registry.js';
import type { WebhookDeliverer } from '../webhooks/delivery.js';
import { isEventKind, KINDS, EVENT_KINDS, type EventKind } from './kinds.js';
import type { FaultName } from '../faults.js';
import { LOCK_GROUPS, USER_GROUPS } from '../webhooks/groups.js';
import * as build from './payloads.js';
import { breakPayload } from './payload-breaks.js';
import { eventRow } from './rows.js';
import type { SliceBreakId } from '../slice-faults.js';

type Payload = Record<string, unknown>;

/** What one event sends: a payload for lock registrations and/or one for the user's registration. */
interface BuiltEvent {
  lock?: { lockIds: string[]; group: Group; payload: Payload; alsoGroups?: readonly Group[]; skip?: (r: Registration, listeners: readonly Registration[]) => boolean };
  user?: { userId: string; group: Group; payload: Payload };
  eventId: string | null;
}

const DEFAULT_DRIFT_MS = 60 * 60 * 1000;

/** The fault that makes a registration naming this group, but not every group of its kind, miss the group's events. */
/** Group → the requirement that states it (catalog IDs, shared by convention): the slice faults' break point. */
const GROUP_REQUIREMENT: Record<Group, SliceBreakId> = {
  operation: 'WEBHOOK-GROUP-OPERATION',
  'operation.type': 'WEBHOOK-GROUP-OPERATION-TYPE',
  configuration: 'WEBHOOK-GROUP-CONFIGURATION',
  battery: 'WEBHOOK-GROUP-BATTERY',
  systemstatus: 'WEBHOOK-GROUP-SYSTEMSTATUS',
  accessmgmt: 'WEBHOOK-GROUP-ACCESSMGMT',
  lockmembership: 'WEBHOOK-GROUP-LOCKMEMBERSHIP',
  lifecycle: 'WEBHOOK-GROUP-LIFECYCLE',
};

const ALONE_IGNORED: Record<Group, FaultName> = {
  operation: 'operation-group-alone-ignored',
  'operation.type': 'operation-type-group-alone-ignored',
  configuration: 'configuration-group-alone-ignored',
  battery: 'battery-group-alone-ignored',
  systemstatus: 'systemstatus-group-alone-ignored',
  accessmgmt: 'accessmgmt-group-alone-ignored',
  lockmembership: 'lockmembership-group-alone-ignored',
  lifecycle: 'lifecycle-group-alone-ignored',
};
const MAX_NAME_LENGTH = 100;

export class LockEventService implements EventService {
  constructor(
    private readonly ctx: MockContext,
    private readonly registry: WebhookRegistry,
    private readonly deliverer: WebhookDeliverer,
  ) {
    ctx.onReset.push(() => this.#lastStatus.clear());
  }

  async emit(request: EventRequest): Promise<{ emitted: number; eventId: string | null }> {
    const built = this.#build(request);
    // WEBHOOK-KEYPAD-VIA-LOCK@keypad=<kind>: the keypad events of a lock with that kind of keypad reach no lock registration.
    const keypadLock = KINDS[request.kind as EventKind].keypad ? this.ctx.world.locks.find((l) => l.lockId === built.lock?.lockIds[0]) : undefined;
    const dropped = keypadLock !== undefined && this.ctx.faults.breaks('WEBHOOK-KEYPAD-VIA-LOCK', { keypad: build.keypadKind(keypadLock) });
    return { emitted: this.#dispatch(built, KINDS[request.kind as EventKind].keypad, dropped), eventId: built.eventId };
  }

  /** Per lock, the state the last status event reported (status-check-only-on-change). */
  readonly #lastStatus = new Map<string, string>();

  /** The status webhook of PUT /remoteoperate/:lockId/status: the lock's state now, to every listener. */
  emitStatus(lock: MockLock, caller: MockUser): { emitted: number } {
    const unchanged = this.#lastStatus.get(lock.lockId) === lock.state;
    this.#lastStatus.set(lock.lockId, lock.state);
    if (unchanged && this.ctx.faults.has('status-check-only-on-change')) return { emitted: 0 };
    // Slice fault: on that lock of its fixture set (first or second), a check that changes nothing sends nothing.
    if (unchanged && this.ctx.faults.breaks('DELIVERY-STATUS-EVERY-CHECK', { lock: lockSlot(this.ctx.world, lock.lockId) })) return { emitted: 0 };
    const role = caller.userId === lock.ownerUserId ? 'owner' : 'guest';
    const { faults } = this.ctx;
    // Slice fault: a check made by that role names another member of the lock as its User (the owner for a guest's check).
    const named = faults.breaks('EVENT-STATUS-CHECK', { role }) ? this.#otherMember(lock, caller) : caller;
    const payload = build.statusCheck(this.#env(), lock, named);
    const skip = (r: Registration, listeners: readonly Registration[]): boolean => {
      if (r.userId === caller.userId) return false;
      if (faults.has('status-check-caller-only')) return true;
      if (!faults.anySlice()) return false;
      const urlKind = urlKindOf(r, listeners);
      // Slice faults: a check by that role, or to registrations of that kind of url, reaches only the caller's
      // registration (an own url), or one registration per url (a shared url: the caller's, else the first registered);
      // a check that finds the state unchanged (DELIVERY-STATUS-EVERY-CHECK@receiver-url=shared) likewise, once per url.
      const broken = faults.breaks('DELIVERY-STATUS-CHECK-FANOUT', { role, 'receiver-url': urlKind })
        || (unchanged && urlKind === 'shared' && faults.breaks('DELIVERY-STATUS-EVERY-CHECK', { 'receiver-url': urlKind }));
      if (!broken) return false;
      if (urlKind === 'own') return true;
      const sharing = listeners.filter((o) => o.url === r.url);
      return (sharing.find((o) => o.userId === caller.userId) ?? sharing[0]) !== r;
    };
    const built: BuiltEvent = { lock: { lockIds: [lock.lockId], group: 'operation', payload, skip }, eventId: null };
    return { emitted: this.#dispatch(built, false) };
  }

  /** A member of the lock other than `user` (the first in the world's order of users), or `user` when it is the only one. */
  #otherMember(lock: MockLock, user: MockUser): MockUser {
    const ids = [lock.ownerUserId, ...lock.members.keys()].filter((id) => id !== user.userId);
    return this.ctx.world.users.find((u) => ids.includes(u.userId)) ?? user;
  }

  /** Resolves when every delivery started so far has finished (tests; no real-time waiting). */
  idle(): Promise<void> {
    return this.deliverer.idle();
  }

  #env(): build.PayloadEnv {
    return { world: this.ctx.world, faults: this.ctx.faults, freedoms: this.ctx.freedoms, now: this.ctx.clock.now(), ...(this.ctx.options.freeSystemValues ? { freeSystemValues: true } : {}) };
  }

  #build(request: EventRequest): BuiltEvent {
    if (typeof request !== 'object' || request === null) throw new ControlError(422, 'invalid_event', 'the event request must be a JSON object');
    const { kind } = request;
    if (typeof kind !== 'string' || !isEventKind(kind)) {
      throw new ControlError(422, 'unknown_kind', `kind must be one of: ${EVENT_KINDS.join(', ')}`);
    }
    const def = KINDS[kind];
    const env = this.#env();
    const subject = this.#user(request.userId, def.subjectRequired);
    const value = this.#value(kind, request.value);

    if (kind === 'lifecycle.deleted') {
      const eventId = build.newEventId();
      return { user: { userId: subject!.userId, group: 'lifecycle', payload: build.lifecycleDeleted(env, subject!, eventId) }, eventId };
    }

    const lock = this.#lock(request.lockId);
    if (def.keypad && !(lock.keypad || lock.builtInKeypad)) {
      throw new ControlError(422, 'no_keypad', `lock ${lock.lockId} has no keypad, so it cannot emit ${kind}`);
    }
    // The acting user: the one named, else the lock's owner.
    const actor = subject ?? this.#owner(lock);
    const alsoGroups: readonly Group[] = ('alsoLockGroups' in def ? def.alsoLockGroups : undefined) ?? [];
    const forLock = (payload: Payload, eventId: string | null = null): BuiltEvent => ({
      lock: { lockIds: [lock.lockId], group: def.lockGroup!, payload, alsoGroups }, eventId,
    });

    switch (kind) {
      case 'operation.app':
        lock.state = value as MockLock['state'];
        return forLock(build.operationApp(env, lock, value!, actor));
      case 'operation.keypad':
        lock.state = value as MockLock['state'];
        return forLock(build.operationKeypad(env, lock, value!, actor));
      case 'operation.manual': {
        lock.state = value as MockLock['state'];
        const eventId = build.newEventId();
        return forLock(build.operationManual(env, lock, value!, eventId), eventId);
      }
      case 'door':
        return forLock(build.door(env, lock, value!, actor));
      case 'lock_name_changed': {
        const oldName = lock.name;
        // Freedom LOCK-NAME-BLANKS=trimmed: the name stored (and reported from now on) without its outer blanks.
        lock.name = this.ctx.freedoms.chooses('LOCK-NAME-BLANKS', 'trimmed') ? value!.trim() : value!;
        return forLock(build.lockNameChanged(env, lock, oldName, actor));
      }
      case 'lock_battery_alert':
        return forLock(build.lockBatteryAlert(env, lock, value!, actor));
      case 'lock_log_timestamp_drifted':
        return forLock(build.lockClockDrifted(env, lock, value!, this.#drift(request.params)));
      case 'keypad_pin_managed': {
        // userId is the owner who added the PIN; params.pinUserId its assignee (default: the same user).
        const pinUser = this.#user(paramOf(request.params, 'pinUserId'), false) ?? actor;
        return forLock(build.keypadPinManaged(env, lock, value!, pinUser, actor));
      }
      case 'master_pin_changed': {
        const eventId = build.newEventId();
        return forLock(build.masterPinChanged(env, lock, eventId), eventId);
      }
      case 'keypad_battery':
        return forLock(build.keypadBattery(env, lock, value!));
      case 'bridge': {
        // The lock concerned (an array of one), or (variant) every lock on the bridge; their listeners hear of it.
        const onBridge = this.ctx.world.locks.filter((l) => l.bridgeId === lock.bridgeId).map((l) => l.lockId);
        const lockIds = this.ctx.options.bridgeListsAllLocks ? onBridge : [lock.lockId];
        return { lock: { lockIds, group: 'systemstatus', payload: build.bridge(env, lockIds, value!) }, eventId: null };
      }
      case 'lock_user_add':
      case 'lock_user_remove':
      case 'lock_usertype_changed':
      case 'lock_accesstype_changed': {
        // Membership is not changed: the control protocol only makes the lock report the event.
        const eventId = build.newEventId();
        return {
          lock: { lockIds: [lock.lockId], group: 'accessmgmt', payload: build.membershipForLock(env, kind, lock, subject!, value, eventId) },
          user: { userId: subject!.userId, group: 'lockmembership', payload: build.membershipForUser(env, kind, lock, subject!, value, eventId) },
          eventId,
        };
      }
    }
  }

  /** Sends the built event to every matching registration; the number of deliveries attempted. */
  #dispatch(event: BuiltEvent, fromKeypad: boolean, keypadDropped = false): number {
    const { faults, options } = this.ctx;
    const wants = (r: Registration, group: Group, also: readonly Group[] = [], row: () => string = () => '') => {
      if (faults.has('filter-ignored')) return true;
      const every = r.lockId === null ? USER_GROUPS : LOCK_GROUPS;
      const narrowed = !every.every((x) => r.notificationTypes.includes(x));
      // Slice faults WEBHOOK-GROUP-*@row=<row>: a registration naming the group without every other one misses that row.
      const rowBroken = (g: Group) => narrowed && faults.anySlice() && faults.breaks(GROUP_REQUIREMENT[g], { row: row() });
      return [group, ...also].some((g) => r.notificationTypes.includes(g) && !(faults.has(ALONE_IGNORED[g]) && narrowed) && !rowBroken(g));
    };
    const finish = (payload: Payload) => (options.extraFields ? build.withExtraField(payload) : payload);
    let emitted = 0;
    if (event.lock && !(fromKeypad && (faults.has('keypad-events-dropped') || keypadDropped))) {
      const { lockIds, group, skip, alsoGroups } = event.lock;
      const payload = breakPayload(faults, false, event.lock.payload);
      const listeners = this.registry.forLocks(lockIds);
      for (const registration of listeners) {
        if (!wants(registration, group, alsoGroups, () => eventRow(false, payload))) continue;
        if (skip?.(registration, listeners)) continue;
        // Slice fault DELIVERY-ONE-POST@receiver-url=<kind>: to a registration with that kind of url, the delivery is
        // sent twice (a fan-out over the url's registrations nested in the fan-out over registrations).
        const twice = faults.anySlice() && faults.breaks('DELIVERY-ONE-POST', { 'receiver-url': urlKindOf(registration, listeners) });
        this.deliverer.deliver(registration, finish(payload));
        if (twice) this.deliverer.deliver(registration, finish(payload));
        emitted++;
      }
    }
    if (event.user) {
      const { userId, group } = event.user;
      const payload = breakPayload(faults, true, event.user.payload);
      for (const registration of this.registry.forUser(userId)) {
        if (!wants(registration, group, [], () => eventRow(true, payload))) continue;
        this.deliverer.deliver(registration, finish(payload));
        emitted++;
      }
    }
    return emitted;
  }

  #lock(lockId: unknown): MockLock {
    if (typeof lockId !== 'string' || lockId === '') throw new ControlError(422, 'invalid_event', 'lockId is required for this kind');
    const lock = findLock(this.ctx.world.locks, lockId);
    if (!lock) throw new ControlError(404, 'unknown_lock', 'no lock with this lockId');
    return lock;
  }

  #user(userId: unknown, required: boolean): MockUser | null {
    if (userId === undefined || userId === null || userId === '') {
      if (required) throw new ControlError(422, 'invalid_event', 'userId (the affected user) is required for this kind');
      return null;
    }
    if (typeof userId !== 'string') throw new ControlError(422, 'invalid_event', 'userId must be a string');
    const user = this.ctx.world.users.find((u) => u.userId === userId.toLowerCase());
    if (!user) throw new ControlError(404, 'unknown_user', 'no user with this userId');
    return user;
  }

  #owner(lock: MockLock): MockUser {
    const owner = this.ctx.world.users.find((u) => u.userId === lock.ownerUserId);
    const fallback = owner ?? this.ctx.world.users[0];
    if (!fallback) throw new ControlError(422, 'invalid_event', 'the world has no users');
    return fallback;
  }

  #value(kind: EventKind, value: unknown): string | undefined {
    const rule = KINDS[kind].value;
    if (rule === 'none') return undefined;
    if (typeof value !== 'string' || value === '') throw new ControlError(422, 'invalid_value', `value is required for ${kind}`);
    if (rule === 'lock-name') {
      if (value.length > MAX_NAME_LENGTH || /[\x00-\x1f\x7f]/.test(value)) {
        throw new ControlError(422, 'invalid_value', `a lock name is 1 to ${MAX_NAME_LENGTH} printable characters`);
      }
      return value;
    }
    if (rule === 'identifier') {
      if (!/^[A-Za-z0-9_.-]{1,100}$/.test(value)) throw new ControlError(422, 'invalid_value', 'value must be a warningLevel identifier');
      return value;
    }
    if (!rule.includes(value)) throw new ControlError(422, 'invalid_value', `value for ${kind} must be one of: ${rule.join(', ')}`);
    return value;
  }

  #drift(params: Record<string, unknown> | undefined): number {
    const drift = params?.drift;
    if (drift === undefined) return DEFAULT_DRIFT_MS;
    if (typeof drift !== 'number' || !Number.isFinite(drift) || !Number.isInteger(drift) || Math.abs(drift) > 1e13) {
      throw new ControlError(422, 'invalid_value', 'params.drift must be an integer number of milliseconds');
    }
    return drift;
  }
}

/** A listener's url: its own, or shared with another registration of the lock (the slice dimension `receiver-url`). */
function urlKindOf(r: Registration, listeners: readonly Registration[]): 'own' | 'shared' {
  return listeners.some((o) => o !== r && o.url === r.url) ? 'shared' : 'own';
}

function paramOf(params: Record<string, unknown> | undefined, name: string): unknown {
  return typeof params === 'object' && params !== null ? params[name] : undefined;
}

/** Lock IDs are hex: matched without regard to case, answered in the world's own case. */
export function findLock(locks: readonly MockLock[], lockId: string): MockLock | undefined {
  const wanted = lockId.toUpperCase();
  return locks.find((l) => l.lockId.toUpperCase() === wanted);
}
