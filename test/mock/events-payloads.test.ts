/**
 * Every event kind of the control protocol, as delivered: exactly the fields and
 * values of the spec's Events tables (lock and user webhooks), the group filter,
 * request errors, the payload faults and the extraFields / lowerCaseLockIds variants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlError, type EventRequest } from '../../mock/context.js';
import type { MockUser } from '../../mock/world.js';
import { registrationBody, startApiApp, type ApiApp } from '../support/api-app.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9A-F]{32}$/;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** An app with the owner registered on both locks (all lock groups) and user webhooks for the first three users. */
async function startWorld(opts: { faults?: string[]; extraFields?: boolean; lowerCaseLockIds?: boolean; freeSystemValues?: boolean } = {}): Promise<ApiApp> {
  const app = await startApiApp({ faults: opts.faults ?? [], options: { extraFields: opts.extraFields ?? false, lowerCaseLockIds: opts.lowerCaseLockIds ?? false, freeSystemValues: opts.freeSystemValues ?? false } });
  const owner = await app.tokenFor(0);
  // The owner's two locks: the further fixture sets belong to other users.
  for (const [i, lock] of app.ctx.world.locks.slice(0, 2).entries()) {
    const res = await app.call('POST', `/webhook/${lock.lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/lock${i}`) });
    expect(res.status).toBe(200);
  }
  for (const i of [0, 1, 2]) {
    const res = await app.call('POST', '/webhook/user', { token: await app.tokenFor(i), body: registrationBody(app, `${receiver.url}/user${i}`, { notificationTypes: ['lockmembership', 'lifecycle'] }) });
    expect(res.status).toBe(200);
  }
  return app;
}

/** Emits and answers every delivery by receiver path. */
async function emit(app: ApiApp, request: EventRequest): Promise<{ emitted: number; eventId: string | null; byPath: Record<string, any[]> }> {
  receiver.reset();
  const result = await app.services.events.emit(request);
  await app.services.events.idle();
  const byPath: Record<string, any[]> = {};
  for (const r of receiver.received) (byPath[r.path] ??= []).push(r.json);
  return { ...result, byPath };
}

function fullUser(app: ApiApp, user: MockUser) {
  return { UserID: user.userId, FirstName: user.firstName, LastName: user.lastName, PhoneNo: user.phoneNo, Email: user.email, imageInfo: expect.anything() };
}

describe('event payloads (lock webhooks)', () => {
  let app: ApiApp;
  let lock0: string;
  let owner: MockUser;
  let guest: MockUser;
  beforeAll(async () => {
    app = await startWorld();
    lock0 = app.ctx.world.locks[0]!.lockId;
    [owner, guest] = app.ctx.world.users as [MockUser, MockUser];
  });
  afterAll(async () => {
    await app.close();
  });

  it('lock IDs are 32 upper-case hex, user IDs lower-case UUIDs', () => {
    for (const lock of app.ctx.world.locks) expect(lock.lockId).toMatch(HEX32);
    for (const user of app.ctx.world.users) expect(user.userId).toMatch(UUID);
  });

  it('operation.app: Device lock, full User, and it sets the lock state', async () => {
    const now = app.ctx.clock.now();
    const { emitted, eventId, byPath } = await emit(app, { kind: 'operation.app', lockId: lock0, userId: guest.userId, value: 'unlatch' });
    expect(emitted).toBe(1);
    expect(eventId).toBeNull();
    const p = byPath['/lock0']![0];
    expect(p).toEqual({ LockID: lock0, EventType: 'operation', Event: 'unlatch', Device: 'lock', User: fullUser(app, guest), Timestamp: expect.any(Number), timeStamp: expect.any(Number) });
    expect(p.Timestamp).toBeGreaterThanOrEqual(now);
    expect(app.ctx.world.locks[0]!.state).toBe('unlatch');
    expect(byPath['/lock1']).toBeUndefined();
  });

  it('imageInfo is an object with original and thumbnail, or "n/a"', async () => {
    const withImage = (await emit(app, { kind: 'operation.app', lockId: lock0, userId: owner.userId, value: 'lock' })).byPath['/lock0']![0].User.imageInfo;
    for (const v of [withImage.original, withImage.thumbnail]) {
      expect(v).toEqual({ width: expect.any(Number), height: expect.any(Number), format: 'jpg', url: expect.stringMatching(/^http:/), secure_url: expect.stringMatching(/^https:/) });
    }
    expect((await emit(app, { kind: 'operation.app', lockId: lock0, userId: guest.userId, value: 'lock' })).byPath['/lock0']![0].User.imageInfo).toBe('n/a');
  });

  it('operation.app defaults the acting user to the lock owner', async () => {
    const p = (await emit(app, { kind: 'operation.app', lockId: lock0, value: 'lock' })).byPath['/lock0']![0];
    expect(p.User.UserID).toBe(owner.userId);
  });

  it('operation.keypad: Device keypad', async () => {
    const p = (await emit(app, { kind: 'operation.keypad', lockId: lock0, value: 'unlock' })).byPath['/lock0']![0];
    expect(p).toMatchObject({ LockID: lock0, EventType: 'operation', Event: 'unlock', Device: 'keypad', User: fullUser(app, owner) });
  });

  it('operation.manual: manualunlock for unlock and unlatch, manuallock for lock, with timeStamp, Timestamp, EventID', async () => {
    for (const [value, marker] of [['unlock', 'manualunlock'], ['unlatch', 'manualunlock'], ['lock', 'manuallock']] as const) {
      const { eventId, byPath } = await emit(app, { kind: 'operation.manual', lockId: lock0, value });
      const p = byPath['/lock0']![0];
      expect(p).toEqual({ LockID: lock0, EventType: 'operation', Event: value, Device: 'lock', User: { UserID: marker }, timeStamp: expect.any(Number), Timestamp: expect.any(Number), EventID: eventId });
      expect(eventId).toMatch(UUID);
    }
  });

  it('door: User.UserID DoorStateChanged', async () => {
    for (const value of ['closed', 'open', 'ajar']) {
      const p = (await emit(app, { kind: 'door', lockId: lock0, value })).byPath['/lock0']![0];
      expect(p).toMatchObject({ LockID: lock0, EventType: 'operation', Event: value, Device: 'lock', User: { UserID: 'DoorStateChanged' } });
      expect(Object.keys(p.User)).toEqual(['UserID']);
    }
  });

  it('lock_name_changed renames the lock and carries the new Lock.Name', async () => {
    const p = (await emit(app, { kind: 'lock_name_changed', lockId: lock0, value: 'Garden Gate' })).byPath['/lock0']![0];
    expect(p).toEqual({ LockID: lock0, EventType: 'configuration', Event: 'lock_name_changed', Lock: { Name: 'Garden Gate' }, User: fullUser(app, owner) });
    expect(app.ctx.world.locks[0]!.name).toBe('Garden Gate');
  });

  it('lock_battery_alert: EventType system, warningLevel, userID the lower-case name', async () => {
    const p = (await emit(app, { kind: 'lock_battery_alert', lockId: lock0, value: 'lock_state_battery_warning_2day' })).byPath['/lock0']![0];
    expect(p).toEqual({ LockID: lock0, EventType: 'system', Event: 'lock_battery_alert', warningLevel: 'lock_state_battery_warning_2day', userID: 'ada' });
  });

  it('lock_log_timestamp_drifted: Timestamp now, TimestampDrifted now + drift', async () => {
    const p = (await emit(app, { kind: 'lock_log_timestamp_drifted', lockId: lock0, value: 'lock_state_battery_warning_none', params: { drift: -86_400_000 } })).byPath['/lock0']![0];
    expect(p).toEqual({ LockID: lock0, EventType: 'systemstatus', Event: 'lock_log_timestamp_drifted', warningLevel: 'lock_state_battery_warning_none', Timestamp: expect.any(Number), TimestampDrifted: expect.any(Number) });
    expect(p.TimestampDrifted - p.Timestamp).toBe(-86_400_000);
  });

  it('keypad_pin_managed: Lock.Name, Pin {state, action: intent}, PinUser, User', async () => {
    for (const value of ['load', 'disable', 'enable', 'delete']) {
      const p = (await emit(app, { kind: 'keypad_pin_managed', lockId: lock0, value, params: { pinUserId: guest.userId } })).byPath['/lock0']![0];
      expect(p).toEqual({
        LockID: lock0, EventType: 'configuration', Event: 'keypad_pin_managed', Lock: { Name: app.ctx.world.locks[0]!.name },
        Pin: { state: value, action: 'intent' }, PinUser: fullUser(app, guest), User: fullUser(app, owner),
      });
    }
  });

  it('master_pin_changed: Pin {}, masterpin markers, timeStamp, Timestamp, EventID', async () => {
    const lock1 = app.ctx.world.locks[1]!;
    const { eventId, byPath } = await emit(app, { kind: 'master_pin_changed', lockId: lock1.lockId });
    const marker = { UserID: 'masterpin', FirstName: 'Master', LastName: 'PIN', PhoneNo: 'n/a', Email: 'n/a', imageInfo: 'n/a' };
    expect(byPath['/lock1']![0]).toEqual({
      LockID: lock1.lockId, EventType: 'configuration', Event: 'keypad_pin_managed', Lock: { Name: lock1.name },
      Pin: {}, PinUser: marker, User: marker, timeStamp: expect.any(Number), Timestamp: expect.any(Number), EventID: eventId,
    });
  });

  it('keypad_battery: DeviceType keypad, DeviceSerialNumber', async () => {
    for (const value of ['keypad_battery_none', 'keypad_battery_warning', 'keypad_battery_critical']) {
      const p = (await emit(app, { kind: 'keypad_battery', lockId: lock0, value })).byPath['/lock0']![0];
      expect(p).toEqual({ LockID: lock0, EventType: 'battery', Event: value, DeviceType: 'keypad', DeviceSerialNumber: app.ctx.world.locks[0]!.keypadSerialNumber });
    }
  });

  it('bridge: LockID an array of the lock concerned (the variant bridgeListsAllLocks lists every lock on the bridge)', async () => {
    const { emitted, byPath } = await emit(app, { kind: 'bridge', lockId: lock0, value: 'offline' });
    expect(emitted).toBe(1);
    expect(byPath['/lock0']![0]).toEqual({ LockID: [lock0], EventType: 'systemstatus', Event: 'offline' });
  });

  it('membership events go to lock registrations and to the affected user\'s user registration, with one EventID', async () => {
    const cases = [
      ['lock_user_add', undefined, {}],
      ['lock_user_remove', undefined, {}],
      ['lock_usertype_changed', 'superuser', { UserType: 'superuser' }],
      ['lock_accesstype_changed', 'rule_access_recurring', { AccessType: 'rule_access_recurring' }],
    ] as const;
    for (const [kind, value, extra] of cases) {
      const { emitted, eventId, byPath } = await emit(app, { kind, lockId: lock0, userId: guest.userId, ...(value ? { value } : {}) });
      expect(emitted).toBe(2);
      expect(eventId).toMatch(UUID);
      const stamped = kind === 'lock_usertype_changed' || kind === 'lock_accesstype_changed'
        ? { timeStamp: expect.any(Number), EventID: eventId, Timestamp: expect.any(Number) } : {};
      expect(byPath['/lock0']![0]).toEqual({
        LockID: lock0, EventType: 'authorization', Event: kind, Lock: { Name: app.ctx.world.locks[0]!.name },
        User: { ...fullUser(app, guest), ...extra }, ...stamped,
      });
      expect(byPath['/user1']![0]).toEqual({
        EventType: 'authorization', Event: kind, UserID: guest.userId, LockID: lock0, EventID: eventId,
        timeStamp: expect.any(Number), Timestamp: expect.any(Number), ...extra,
      });
      expect(byPath['/user0']).toBeUndefined();
    }
  });

  it('lifecycle.deleted goes to the user\'s lifecycle registration only', async () => {
    const { emitted, eventId, byPath } = await emit(app, { kind: 'lifecycle.deleted', userId: guest.userId });
    expect(emitted).toBe(1);
    expect(byPath['/user1']![0]).toEqual({ EventType: 'lifecycle', Event: 'user_deleted', UserID: guest.userId, EventID: eventId, timeStamp: expect.any(Number), Timestamp: expect.any(Number) });
  });

  it('Timestamps follow the mock clock', async () => {
    app.ctx.clock.advance(3_600_000);
    try {
      const p = (await emit(app, { kind: 'operation.manual', lockId: lock0, value: 'lock' })).byPath['/lock0']![0];
      expect(p.Timestamp).toBeGreaterThan(Date.now() + 3_500_000);
    } finally {
      app.ctx.clock.reset();
    }
  });
});

describe('event requests that are refused', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await startApiApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const cases: Array<[string, (app: ApiApp) => EventRequest, number]> = [
    ['an unknown kind', (a) => ({ kind: 'explode', lockId: a.ctx.world.locks[0]!.lockId }), 422],
    ['an unknown lock', () => ({ kind: 'operation.app', lockId: 'F'.repeat(32), value: 'lock' }), 404],
    ['no lock', () => ({ kind: 'operation.app', value: 'lock' }), 422],
    ['an unknown user', (a) => ({ kind: 'operation.app', lockId: a.ctx.world.locks[0]!.lockId, userId: '00000000-0000-4000-8000-000000000000', value: 'lock' }), 404],
    ['a bad value', (a) => ({ kind: 'operation.app', lockId: a.ctx.world.locks[0]!.lockId, value: 'open' }), 422],
    ['a missing value', (a) => ({ kind: 'door', lockId: a.ctx.world.locks[0]!.lockId }), 422],
    ['a membership event without userId', (a) => ({ kind: 'lock_user_add', lockId: a.ctx.world.locks[0]!.lockId }), 422],
    ['a keypad event on a lock without keypad', (a) => ({ kind: 'keypad_battery', lockId: a.ctx.world.locks[1]!.lockId, value: 'keypad_battery_none' }), 422],
    ['a bad drift', (a) => ({ kind: 'lock_log_timestamp_drifted', lockId: a.ctx.world.locks[0]!.lockId, value: 'x', params: { drift: 'soon' } }), 422],
    ['an unknown pin user', (a) => ({ kind: 'keypad_pin_managed', lockId: a.ctx.world.locks[0]!.lockId, value: 'load', params: { pinUserId: 'nobody' } }), 404],
    ['a lock name with a newline', (a) => ({ kind: 'lock_name_changed', lockId: a.ctx.world.locks[0]!.lockId, value: 'a\nb' }), 422],
  ];
  for (const [title, request, status] of cases) {
    it(`${title}: ControlError ${status}`, async () => {
      app.ctx.world.locks[1]!.keypad = false;
      app.ctx.world.locks[1]!.builtInKeypad = false;
      const error = await app.services.events.emit(request(app)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ControlError);
      expect((error as ControlError).statusCode).toBe(status);
    });
  }
});

describe('group filter', () => {
  it('a registration receives only the groups it asked for', async () => {
    const app = await startApiApp();
    try {
      const token = await app.tokenFor(0);
      const lockId = app.ctx.world.locks[0]!.lockId;
      await app.call('POST', `/webhook/${lockId}`, { token, body: registrationBody(app, `${receiver.url}/battery`, { notificationTypes: ['battery'] }) });
      const expectations: Array<[EventRequest, number]> = [
        [{ kind: 'operation.app', lockId, value: 'lock' }, 0],
        [{ kind: 'lock_name_changed', lockId, value: 'X' }, 0],
        [{ kind: 'bridge', lockId, value: 'online' }, 0],
        [{ kind: 'lock_user_add', lockId, userId: app.ctx.world.users[1]!.userId }, 0],
        [{ kind: 'lock_battery_alert', lockId, value: 'lock_state_battery_warning_1week' }, 1],
        [{ kind: 'keypad_battery', lockId, value: 'keypad_battery_warning' }, 1],
      ];
      for (const [request, expected] of expectations) {
        expect((await emit(app, request)).emitted, request.kind).toBe(expected);
      }
      receiver.reset();
      expect((await app.call('PUT', `/remoteoperate/${lockId}/status`, { token })).status).toBe(200);
      await app.services.events.idle();
      expect(receiver.at('/battery')).toHaveLength(0);
    } finally {
      await app.close();
    }
  });

  it('lifecycle-only user registrations do not get membership events', async () => {
    const app = await startApiApp();
    try {
      const token = await app.tokenFor(1);
      await app.call('POST', '/webhook/user', { token, body: registrationBody(app, `${receiver.url}/life`, { notificationTypes: ['lifecycle'] }) });
      const userId = app.ctx.world.users[1]!.userId;
      expect((await emit(app, { kind: 'lock_user_add', lockId: app.ctx.world.locks[0]!.lockId, userId })).emitted).toBe(0);
      expect((await emit(app, { kind: 'lifecycle.deleted', userId })).emitted).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('payload faults and variants', () => {
  async function one(faults: string[], request: (app: ApiApp) => EventRequest, path = '/lock0', variant: { extraFields?: boolean; lowerCaseLockIds?: boolean; freeSystemValues?: boolean } = {}) {
    const app = await startWorld({ faults, ...variant });
    try {
      const { emitted, byPath } = await emit(app, request(app));
      return { app, emitted, payload: byPath[path]?.[0] };
    } finally {
      await app.close();
    }
  }
  const lock = (app: ApiApp, i = 0) => app.ctx.world.locks[i]!.lockId;
  const guestId = (app: ApiApp) => app.ctx.world.users[1]!.userId;

  it('keypad-op-device-lock', async () => {
    expect((await one(['keypad-op-device-lock'], (a) => ({ kind: 'operation.keypad', lockId: lock(a), value: 'lock' }))).payload.Device).toBe('lock');
  });
  it('manual-marker-wrong', async () => {
    expect((await one(['manual-marker-wrong'], (a) => ({ kind: 'operation.manual', lockId: lock(a), value: 'unlock' }))).payload.User.UserID).toBe('manuallock');
  });
  it('door-marker-missing', async () => {
    const { app, payload } = await one(['door-marker-missing'], (a) => ({ kind: 'door', lockId: lock(a), value: 'open' }));
    expect(payload.User.UserID).toBe(app.ctx.world.users[0]!.userId);
  });
  it('status-as-operation', async () => {
    const app = await startWorld({ faults: ['status-as-operation'] });
    try {
      receiver.reset();
      await app.call('PUT', `/remoteoperate/${lock(app)}/status`, { token: await app.tokenFor(0) });
      await app.services.events.idle();
      expect(receiver.at('/lock0')[0]!.json.EventType).toBe('operation');
    } finally {
      await app.close();
    }
  });
  it('status-state-stale: the status check reports lock after an unlatch the control protocol set', async () => {
    const app = await startWorld({ faults: ['status-state-stale'] });
    try {
      await emit(app, { kind: 'operation.app', lockId: lock(app), value: 'unlatch' });
      receiver.reset();
      await app.call('PUT', `/remoteoperate/${lock(app)}/status`, { token: await app.tokenFor(0) });
      await app.services.events.idle();
      expect(receiver.at('/lock0')[0]!.json).toMatchObject({ EventType: 'status', Event: 'lock' });
    } finally {
      await app.close();
    }
  });
  it('lock-name-stale', async () => {
    expect((await one(['lock-name-stale'], (a) => ({ kind: 'lock_name_changed', lockId: lock(a), value: 'New' }))).payload.Lock.Name).toBe('Front Door');
  });
  it('battery-field-renamed', async () => {
    const { payload } = await one(['battery-field-renamed'], (a) => ({ kind: 'lock_battery_alert', lockId: lock(a), value: 'lock_state_battery_warning_4week' }));
    expect(payload.warninglevel).toBe('lock_state_battery_warning_4week');
    expect(payload.warningLevel).toBeUndefined();
  });
  it('battery-userid-field-renamed', async () => {
    const { payload } = await one(['battery-userid-field-renamed'], (a) => ({ kind: 'lock_battery_alert', lockId: lock(a), value: 'lock_state_battery_warning_4week' }));
    expect(payload.UserID).toBe('ada');
    expect(payload.userID).toBeUndefined();
  });
  it('masterpin-pin-filled', async () => {
    const { payload } = await one(['masterpin-pin-filled'], (a) => ({ kind: 'master_pin_changed', lockId: lock(a, 1) }), '/lock1');
    expect(payload.Pin).toEqual({ state: 'load', action: 'intent' });
  });
  it('bridge-lockid-string', async () => {
    expect(typeof (await one(['bridge-lockid-string'], (a) => ({ kind: 'bridge', lockId: lock(a), value: 'online' }))).payload.LockID).toBe('string');
  });
  it('usertype-missing', async () => {
    const { payload } = await one(['usertype-missing'], (a) => ({ kind: 'lock_usertype_changed', lockId: lock(a), userId: guestId(a), value: 'user' }));
    expect(payload.User.UserType).toBeUndefined();
    expect(payload.Event).toBe('lock_usertype_changed');
  });
  it('user-event-no-eventid', async () => {
    const { payload } = await one(['user-event-no-eventid'], (a) => ({ kind: 'lock_user_add', lockId: lock(a), userId: guestId(a) }), '/user1');
    expect(payload.EventID).toBeUndefined();
    expect(payload.Event).toBe('lock_user_add');
  });
  it('EVENT-USER-LOCK-USER-ADD@subject=non-member: LockID left out of that row\'s user event about a non-member only', async () => {
    const lockIdOf = async (user: number, i: number, kind = 'lock_user_add', path = `/user${user}`) => (await one(['EVENT-USER-LOCK-USER-ADD@subject=non-member'], (a) => ({ kind, lockId: lock(a, i), userId: a.ctx.world.users[user]!.userId }), path)).payload.LockID;
    expect(await lockIdOf(1, 1)).toBeUndefined();
    for (const [user, i, kind, path] of [[1, 1, 'lock_user_add', '/lock1'], [1, 1, 'lock_user_remove'], [1, 0], [0, 0]] as const) expect(await lockIdOf(user, i, kind, path)).toMatch(HEX32);
  });
  it('keypad-events-dropped: keypad events reach no lock registration, others still do', async () => {
    for (const kind of ['operation.keypad', 'keypad_pin_managed', 'keypad_battery']) {
      const value = { 'operation.keypad': 'lock', keypad_pin_managed: 'load', keypad_battery: 'keypad_battery_none' }[kind];
      expect((await one(['keypad-events-dropped'], (a) => ({ kind, lockId: lock(a), value }))).emitted).toBe(0);
    }
    expect((await one(['keypad-events-dropped'], (a) => ({ kind: 'operation.app', lockId: lock(a), value: 'lock' }))).emitted).toBe(1);
  });
  it('filter-ignored: a battery-only registration gets an operation event', async () => {
    const app = await startApiApp({ faults: ['filter-ignored'] });
    try {
      const lockId = app.ctx.world.locks[0]!.lockId;
      await app.call('POST', `/webhook/${lockId}`, { token: await app.tokenFor(0), body: registrationBody(app, `${receiver.url}/b`, { notificationTypes: ['battery'] }) });
      expect((await emit(app, { kind: 'operation.app', lockId, value: 'lock' })).emitted).toBe(1);
    } finally {
      await app.close();
    }
  });
  it('extraFields variant: an unknown extra field on every payload', async () => {
    expect((await one([], (a) => ({ kind: 'door', lockId: lock(a), value: 'ajar' }), '/lock0', { extraFields: true })).payload.ExtraInfo).toBeDefined();
    expect((await one([], (a) => ({ kind: 'lock_user_add', lockId: lock(a), userId: guestId(a) }), '/user1', { extraFields: true })).payload.ExtraInfo).toBeDefined();
  });
  it('freeSystemValues variant: userID keeps its capitals, the clock row\'s warningLevel is not the one asked for', async () => {
    const battery = await one([], (a) => ({ kind: 'lock_battery_alert', lockId: lock(a), value: 'lock_state_battery_warning_1week' }), '/lock0', { freeSystemValues: true });
    expect(battery.payload).toMatchObject({ warningLevel: 'lock_state_battery_warning_1week', userID: 'Ada' });
    const clock = await one([], (a) => ({ kind: 'lock_log_timestamp_drifted', lockId: lock(a), value: 'lock_state_battery_warning_none', params: { drift: 60_000 } }), '/lock0', { freeSystemValues: true });
    expect(clock.payload.warningLevel).toBe('clock_warning');
    expect(clock.payload.TimestampDrifted - clock.payload.Timestamp).toBe(60_000);
  });
  it('lowerCaseLockIds variant: LockID in lower case', async () => {
    const { payload } = await one([], (a) => ({ kind: 'operation.app', lockId: lock(a).toUpperCase(), value: 'lock' }), '/lock0', { lowerCaseLockIds: true });
    expect(payload.LockID).toMatch(/^[0-9a-f]{32}$/);
  });
});
