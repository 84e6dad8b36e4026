/**
 * The reference mock and the conformance suites read the same Events tables: every
 * payload the mock delivers (default and extraFields variant) parses with the suites'
 * schema of its row, and each payload fault makes its row's schema refuse it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { EventRequest } from '../../mock/context.js';
import * as schemas from '../../suites/schemas/events.js';
import { registrationBody, startApiApp, type ApiApp } from '../support/api-app.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

type Row = [title: string, request: (app: ApiApp) => EventRequest, schema: z.ZodType, path: string];

const lock = (app: ApiApp, i = 0) => app.ctx.world.locks[i]!.lockId;
const guest = (app: ApiApp) => app.ctx.world.users[1]!.userId;

const ROWS: Row[] = [
  ['operation.app', (a) => ({ kind: 'operation.app', lockId: lock(a), value: 'unlock' }), schemas.operationApp, '/lock0'],
  ['operation.keypad', (a) => ({ kind: 'operation.keypad', lockId: lock(a), value: 'lock' }), schemas.operationKeypad, '/lock0'],
  ['operation.manual', (a) => ({ kind: 'operation.manual', lockId: lock(a), value: 'unlatch' }), schemas.operationManual, '/lock0'],
  ['door', (a) => ({ kind: 'door', lockId: lock(a), value: 'ajar' }), schemas.doorState, '/lock0'],
  ['lock_name_changed', (a) => ({ kind: 'lock_name_changed', lockId: lock(a), value: 'Shed' }), schemas.lockNameChanged, '/lock0'],
  ['lock_battery_alert', (a) => ({ kind: 'lock_battery_alert', lockId: lock(a), value: 'lock_state_battery_warning_1week' }), schemas.lockBatteryAlert, '/lock0'],
  ['lock_log_timestamp_drifted', (a) => ({ kind: 'lock_log_timestamp_drifted', lockId: lock(a), value: 'lock_state_battery_warning_none', params: { drift: 7_200_000 } }), schemas.lockClockDrift, '/lock0'],
  ['keypad_pin_managed', (a) => ({ kind: 'keypad_pin_managed', lockId: lock(a), value: 'enable', params: { pinUserId: guest(a) } }), schemas.keypadPinManaged, '/lock0'],
  ['master_pin_changed', (a) => ({ kind: 'master_pin_changed', lockId: lock(a, 1) }), schemas.masterPinChanged, '/lock1'],
  ['keypad_battery', (a) => ({ kind: 'keypad_battery', lockId: lock(a), value: 'keypad_battery_critical' }), schemas.keypadBattery, '/lock0'],
  ['bridge', (a) => ({ kind: 'bridge', lockId: lock(a), value: 'online' }), schemas.bridge, '/lock0'],
  ['lock_user_add (lock)', (a) => ({ kind: 'lock_user_add', lockId: lock(a), userId: guest(a) }), schemas.lockUserAdd, '/lock0'],
  ['lock_user_remove (lock)', (a) => ({ kind: 'lock_user_remove', lockId: lock(a), userId: guest(a) }), schemas.lockUserRemove, '/lock0'],
  ['lock_usertype_changed (lock)', (a) => ({ kind: 'lock_usertype_changed', lockId: lock(a), userId: guest(a), value: 'user' }), schemas.lockUsertypeChanged, '/lock0'],
  ['lock_accesstype_changed (lock)', (a) => ({ kind: 'lock_accesstype_changed', lockId: lock(a), userId: guest(a), value: 'rule_access_temporary' }), schemas.lockAccesstypeChanged, '/lock0'],
  ['lock_user_add (user)', (a) => ({ kind: 'lock_user_add', lockId: lock(a), userId: guest(a) }), schemas.userLockUserAdd, '/user1'],
  ['lock_user_remove (user)', (a) => ({ kind: 'lock_user_remove', lockId: lock(a), userId: guest(a) }), schemas.userLockUserRemove, '/user1'],
  ['lock_usertype_changed (user)', (a) => ({ kind: 'lock_usertype_changed', lockId: lock(a), userId: guest(a), value: 'superuser' }), schemas.userUsertypeChanged, '/user1'],
  ['lock_accesstype_changed (user)', (a) => ({ kind: 'lock_accesstype_changed', lockId: lock(a), userId: guest(a), value: 'rule_access_always' }), schemas.userAccesstypeChanged, '/user1'],
];

/** Fault → the row whose schema it must break (faults that swap one allowed value for another are caught by the suites' value checks, not here). */
const FAULT_ROWS: Record<string, string> = {
  'keypad-op-device-lock': 'operation.keypad',
  'battery-field-renamed': 'lock_battery_alert',
  'masterpin-pin-filled': 'master_pin_changed',
  'bridge-lockid-string': 'bridge',
  'usertype-missing': 'lock_usertype_changed (lock)',
  'user-event-no-eventid': 'lock_user_add (user)',
};

async function startWorld(opts: { faults?: string[]; freedoms?: string[]; extraFields?: boolean } = {}): Promise<ApiApp> {
  const app = await startApiApp({ faults: opts.faults ?? [], freedoms: opts.freedoms ?? [], options: { extraFields: opts.extraFields ?? false } });
  const owner = await app.tokenFor(0);
  for (const [i, l] of app.ctx.world.locks.entries()) {
    await app.call('POST', `/webhook/${l.lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/lock${i}`) });
  }
  await app.call('POST', '/webhook/user', { token: await app.tokenFor(1), body: registrationBody(app, `${receiver.url}/user1`, { notificationTypes: ['lockmembership'] }) });
  return app;
}

async function deliveredFor(app: ApiApp, row: Row): Promise<unknown> {
  receiver.reset();
  await app.services.events.emit(row[1](app));
  await app.services.events.idle();
  const delivery = receiver.at(row[3])[0];
  expect(delivery, `${row[0]} was delivered to ${row[3]}`).toBeDefined();
  return delivery!.json;
}

describe('mock payloads against the suites\' event schemas', () => {
  for (const extraFields of [false, true]) {
    it(`every row parses${extraFields ? ' (extraFields variant)' : ''}`, async () => {
      const app = await startWorld({ extraFields });
      try {
        for (const row of ROWS) {
          const result = row[2].safeParse(await deliveredFor(app, row));
          expect(result.success, `${row[0]}: ${result.success ? '' : result.error.message}`).toBe(true);
        }
      } finally {
        await app.close();
      }
    });
  }

  it('every row parses with the payload freedoms on (User objects with UserID alone, the master PIN row without Lock, another lifecycle payload)', async () => {
    const app = await startWorld({ freedoms: ['USER-OBJECT-FIELDS=user-id-only', 'MASTER-PIN-LOCK=absent', 'LIFECYCLE-PAYLOAD=authorization-shape'] });
    try {
      for (const row of ROWS) {
        const body = await deliveredFor(app, row) as Record<string, any>;
        const result = row[2].safeParse(body);
        expect(result.success, `${row[0]}: ${result.success ? '' : result.error.message}`).toBe(true);
        if (row[0] === 'master_pin_changed') expect(body.Lock).toBeUndefined();
        if (row[0] === 'keypad_pin_managed') expect(Object.keys(body.PinUser)).toEqual(['UserID']);
        if (row[0] === 'operation.app') expect(Object.keys(body.User).sort(), '"User object with full fields": the app row keeps every field').toEqual(['Email', 'FirstName', 'LastName', 'PhoneNo', 'UserID', 'imageInfo']);
        if (row[0] === 'lock_usertype_changed (lock)') expect(Object.keys(body.User).sort()).toEqual(['UserID', 'UserType']);
      }
    } finally {
      await app.close();
    }
  });

  for (const [fault, title] of Object.entries(FAULT_ROWS)) {
    it(`${fault} breaks the schema of ${title}`, async () => {
      const app = await startWorld({ faults: [fault] });
      try {
        const row = ROWS.find((r) => r[0] === title)!;
        expect(row[2].safeParse(await deliveredFor(app, row)).success).toBe(false);
      } finally {
        await app.close();
      }
    });
  }
});
