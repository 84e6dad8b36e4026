/**
 * The webhook part of the model, on its own: which registration must, may or must not
 * receive an event, and what a delivery or a count breaks, each by the rule it names.
 */
import { describe, expect, test } from 'vitest';
import {
  LOCK_GROUPS, expectations, judgeCount, judgeDelivery, register, remove, retired, type Hook, type ModelEvent,
} from '../../../harness/model/index.js';

const statusCheck: ModelEvent = { what: 'the status check', lock: 0, lockMust: ['operation'], fanout: true };
const nameChanged: ModelEvent = { what: 'lock_name_changed', lock: 0, lockMust: ['configuration'] };
const clockRow: ModelEvent = { what: 'lock_log_timestamp_drifted', lock: 0, lockMust: null };

function hooks(): Hook[] {
  return [];
}

const whole = (id: number, user = 0, lock = 0) => ({ id, kind: 'lock' as const, lock, user, header: true, groups: [...LOCK_GROUPS] });
const book = (names: Record<number, string>) => ({ of: (id: number) => (names[id] ? { name: names[id]!, token: `t${id}` } : undefined) });
const view = (headers: Record<string, string>, extra: Partial<{ aboutLock: boolean; signature: 'ok' | 'missing' | 'mismatch' }> = {}) => ({
  aboutLock: extra.aboutLock ?? true, signature: extra.signature ?? 'ok', header: (n: string) => headers[n],
});

describe('Registration slots: one per lock per user; calling again overwrites it', () => {
  test('an overwrite retires the earlier registration: it must receive nothing, the new one must (WEBHOOK-LOCK-OVERWRITE)', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    register(h, whole(2), true, true);
    const xs = expectations(h, nameChanged);
    expect(xs.map((x) => [x.hook.id, x.expect, x.rule.id])).toEqual([[1, 'must-not', 'WEBHOOK-LOCK-OVERWRITE'], [2, 'must', 'WEBHOOK-LOCK-OVERWRITE']]);
  });

  test('a status check must reach every listener of the lock (DELIVERY-STATUS-CHECK-FANOUT), the guest\'s too', () => {
    const h = hooks();
    register(h, whole(1, 0), true, true);
    register(h, whole(2, 1), true, true);
    expect(expectations(h, statusCheck).map((x) => [x.expect, x.rule.id])).toEqual([['must', 'DELIVERY-STATUS-CHECK-FANOUT'], ['must', 'DELIVERY-STATUS-CHECK-FANOUT']]);
  });

  test('a status check of a group an overwrite named anew, over any registration it replaced, tries the overwrite (WEBHOOK-LOCK-OVERWRITE)', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    register(h, { ...whole(2), groups: ['battery'] }, true, true);
    register(h, whole(3), true, true);
    register(h, whole(4), true, true);
    // The fourth names operation as the third did, but the second (which the third replaced) did not.
    expect(expectations(h, statusCheck).map((x) => [x.hook.id, x.expect, x.rule.id]).at(-1)).toEqual([4, 'must', 'WEBHOOK-LOCK-OVERWRITE']);
    // A slot whose every registration named the group: the status check's own rule.
    const plain = hooks();
    register(plain, whole(1), true, true);
    register(plain, whole(2), true, true);
    expect(expectations(plain, statusCheck).map((x) => x.rule.id).at(-1)).toBe('DELIVERY-STATUS-CHECK-FANOUT');
  });

  test('a deleted registration must receive nothing (WEBHOOK-LOCK-DELETE); at the end of a sequence it is among the retired', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    remove(h, 'lock', 0, 0, true);
    expect(expectations(h, nameChanged).map((x) => [x.expect, x.rule.id])).toEqual([['must-not', 'WEBHOOK-LOCK-DELETE']]);
    expect(retired(h).map((x) => x.rule.id)).toEqual(['WEBHOOK-LOCK-DELETE']);
  });

  test('a refused registration or deletion the spec does not fix leaves the slot in doubt: no verdict either way', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    register(h, { ...whole(2), header: false, groups: null }, false, true);
    expect(expectations(h, nameChanged).every((x) => x.expect === 'may')).toBe(true);
  });

  test('the freedoms: no notificationTypes, a group not named, a row whose group is not fixed: may', () => {
    const h = hooks();
    register(h, { ...whole(1), groups: null }, true, true);
    register(h, { ...whole(2, 1), groups: ['battery'] }, true, true);
    expect(expectations(h, nameChanged).map((x) => x.expect)).toEqual(['may', 'may']);
    expect(expectations(h, clockRow).map((x) => x.expect)).toEqual(['may', 'may']);
  });

  test('a registration naming a group alone must receive its events, by the group\'s rule', () => {
    const h = hooks();
    register(h, { ...whole(1), groups: ['configuration'] }, true, true);
    expect(expectations(h, nameChanged).map((x) => [x.expect, x.rule.id])).toEqual([['must', 'WEBHOOK-GROUP-CONFIGURATION']]);
  });
});

describe('Each delivery, judged on its own', () => {
  test('it carries the registration\'s own header and token (DELIVERY-CUSTOM-HEADER)', () => {
    const h = hooks();
    const first = register(h, whole(1), true, true);
    expect(judgeDelivery(h, first, view({ a: 't1' }), book({ 1: 'a' }))).toBeNull();
    expect(judgeDelivery(h, first, view({}), book({ 1: 'a' }))?.rule.id).toBe('DELIVERY-CUSTOM-HEADER');
  });

  test('after an overwrite, the earlier header is not sent, and the new one is (WEBHOOK-LOCK-OVERWRITE)', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    const bare = register(h, { ...whole(2), header: false }, true, true);
    expect(judgeDelivery(h, bare, view({ a: 't1' }), book({ 1: 'a' }))?.rule.id).toBe('WEBHOOK-LOCK-OVERWRITE');
    const third = register(h, whole(3), true, true);
    expect(judgeDelivery(h, third, view({ a: 't1' }), book({ 1: 'a', 3: 'c' }))?.rule.id).toBe('WEBHOOK-LOCK-OVERWRITE');
    expect(judgeDelivery(h, third, view({ c: 't3' }), book({ 1: 'a', 3: 'c' }))).toBeNull();
  });

  test('after a deletion, a new registration does not carry the deleted one\'s header (WEBHOOK-LOCK-DELETE)', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    remove(h, 'lock', 0, 0, true);
    const again = register(h, whole(2), true, true);
    expect(judgeDelivery(h, again, view({ a: 't1' }), book({ 1: 'a', 2: 'b' }))?.rule.id).toBe('WEBHOOK-LOCK-DELETE');
  });

  test('a signature present and valid (DELIVERY-SIGNATURE-PRESENT, SIGNATURE-VALID), about its lock (WEBHOOK-LOCK-PER-LOCK)', () => {
    const h = hooks();
    const one = register(h, { ...whole(1), header: false }, true, true);
    expect(judgeDelivery(h, one, view({}, { signature: 'missing' }), book({}))?.rule.id).toBe('DELIVERY-SIGNATURE-PRESENT');
    expect(judgeDelivery(h, one, view({}, { signature: 'mismatch' }), book({}))?.rule.id).toBe('SIGNATURE-VALID');
    expect(judgeDelivery(h, one, view({}, { aboutLock: false }), book({}))?.rule.id).toBe('WEBHOOK-LOCK-PER-LOCK');
  });
});

describe('Counts: only what arrived is evidence', () => {
  test('a delivery that must come and did not breaks the rule; two copies break DELIVERY-ONE-POST', () => {
    const h = hooks();
    register(h, whole(1), true, true);
    const [x] = expectations(h, nameChanged);
    expect(judgeCount(x!, 0)?.rule.id).toBe('WEBHOOK-LOCK-REGISTER');
    expect(judgeCount(x!, 2)?.rule.id).toBe('DELIVERY-ONE-POST');
    expect(judgeCount(x!, 1)).toBeNull();
  });

  test('an allowed delivery that comes late is not taken for a delivery after the registration was replaced', () => {
    const h = hooks();
    register(h, { ...whole(1), groups: null }, true, true);
    const [may] = expectations(h, nameChanged);
    expect(judgeCount(may!, 0)).toBeNull();
    register(h, whole(2), true, true);
    const [late] = retired(h);
    expect(judgeCount(late!, 1)).toBeNull();
    expect(judgeCount(late!, 1)?.rule.id).toBe('WEBHOOK-LOCK-OVERWRITE');
  });
});
