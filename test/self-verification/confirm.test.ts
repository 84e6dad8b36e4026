/**
 * No verdict of the matrix rests on the machine's speed (issue 19): a judgement that rests on
 * the lanes' shortened delivery wait or on a test timeout is confirmed at the harness's own
 * strictness before it counts. The runs here are simulated (runMatrix's `carry`): a target
 * whose deliveries take longer than the lanes' wait, as on a loaded machine. No real time passes.
 */
import { describe, expect, test } from 'vitest';
import { tmpdir } from 'node:os';
import { CONFIRM_QUIET_WINDOW_MS, MATRIX_DELIVERY_WAIT_MS, describeConfirmation, restsOnTime, unsafeJudgement } from './confirm.js';
import { runMatrix, type MatrixEntry, type RequirementResult, type RunCarrier, type RunResult } from './matrix.js';
import { DEFAULT_DELIVERY_WAIT_MS } from '../../harness/run/weakening.js';
import { formatTable, summarise } from './matrix-report.js';

const late = (waitMs: number) => `lock_user_add for the registered user: expected 1 matching delivery within ${waitMs} ms; received: none`;
const TIMED_OUT = 'Test timed out in 30000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".';
const req = (id: string, level: string, status: RequirementResult['status'], reason?: string): RequirementResult => ({ id, level, status, ...(reason ? { reason } : {}) });
const variant = (name: string): MatrixEntry => ({ name, kind: 'variant', description: '', mockOptions: {}, only: ['WEBHOOK-USER-REGISTER', 'EVENT-TIMESTAMP-UNITS'] });
const fault = (name: string, requirement: string): MatrixEntry => ({ name, kind: 'fault', description: '', mockOptions: { faults: [name] }, requirement, only: [requirement, 'WEBHOOK-LOCK-OVERWRITE'] });

/**
 * A simulated target: each requirement's delivery takes `deliveryMs[id]` (Infinity: it never
 * comes), each test `testMs[id]` of its 30 s timeout (scaled 4 times at full strictness); a run
 * fails what does not arrive within its wait, as the suites would. Records each run's strictness.
 */
function simulated(deliveryMs: Record<string, number>, testMs: Record<string, number> = {}, other: RequirementResult[] = []): RunCarrier & { calls: boolean[] } {
  const calls: boolean[] = [];
  const carry = async (run: { only?: string[] }, _outDir: string, _seed: number, fullWait: boolean): Promise<RunResult> => {
    calls.push(fullWait);
    const wait = fullWait ? DEFAULT_DELIVERY_WAIT_MS : MATRIX_DELIVERY_WAIT_MS;
    const timeout = fullWait ? 120_000 : 30_000;
    const requirements = (run.only ?? []).map((id) => {
      const given = other.find((r) => r.id === id);
      if (given) return given;
      if ((testMs[id] ?? 0) > timeout) return req(id, 'MUST', 'failed', TIMED_OUT);
      return (deliveryMs[id] ?? 0) > wait ? req(id, 'MUST', 'failed', late(wait)) : req(id, 'MUST', 'passed');
    });
    const failed = requirements.some((r) => r.status === 'failed');
    return { report: { verdict: failed ? 'not-conformant' : 'partial', requirements }, durationMs: 1, cpuMs: 1, exitCode: failed ? 1 : 0 };
  };
  return Object.assign(carry, { calls });
}

const matrix = (entries: MatrixEntry[], carry: RunCarrier, known?: Map<string, Set<string>>) =>
  runMatrix(entries, { outDir: tmpdir(), seed: 1, concurrency: 1, carry, ...(known ? { knownCollateral: known } : {}) });

describe('what rests on time', () => {
  test('a delivery not arriving within a wait shorter than the harness\'s default, and a test timeout', () => {
    expect(restsOnTime(late(MATRIX_DELIVERY_WAIT_MS))).toBe(true);
    expect(restsOnTime(`a prerequisite step failed in this test …\n${late(3000)}`)).toBe(true);
    expect(restsOnTime(TIMED_OUT)).toBe(true);
    expect(restsOnTime(late(DEFAULT_DELIVERY_WAIT_MS))).toBe(false);
    expect(restsOnTime('X-Signature: expected v1=…, got nothing')).toBe(false);
    expect(restsOnTime(undefined)).toBe(false);
  });

  test('a wrong judgement or new collateral resting on time is unsafe; a catch, known collateral and other failures are final', () => {
    const report = { requirements: [req('WEBHOOK-USER-REGISTER', 'MUST', 'failed', late(3000)), req('EVENT-TIMESTAMP-UNITS', 'SHOULD', 'blocked', late(3000)), req('SIGNATURE-VALID', 'MUST', 'failed', 'bad signature')] };
    const legal = variant('jitter');
    expect(unsafeJudgement(legal, { ok: false, failed: ['WEBHOOK-USER-REGISTER', 'SIGNATURE-VALID'], warned: [], collateral: [] }, report)).toEqual(['WEBHOOK-USER-REGISTER']);
    expect(unsafeJudgement(legal, { ok: false, failed: ['SIGNATURE-VALID'], warned: [], collateral: [] }, report)).toEqual([]);
    const f = fault('lock-register-per-lock', 'WEBHOOK-LOCK-PER-USER');
    expect(unsafeJudgement(f, { ok: false, failed: [], warned: [], collateral: [] }, report)).toEqual(['WEBHOOK-USER-REGISTER', 'EVENT-TIMESTAMP-UNITS']);
    expect(unsafeJudgement(f, { ok: false, failed: [], warned: [], collateral: [] }, { requirements: [req('WEBHOOK-LOCK-PER-USER', 'MUST', 'passed')] })).toEqual(['WEBHOOK-LOCK-PER-USER']);
    expect(unsafeJudgement(f, { ok: true, failed: ['WEBHOOK-USER-REGISTER'], warned: [], collateral: [] }, report)).toEqual([]);
    expect(unsafeJudgement(f, { ok: true, failed: [], warned: [], collateral: ['WEBHOOK-USER-REGISTER'] }, report)).toEqual(['WEBHOOK-USER-REGISTER']);
    expect(unsafeJudgement(f, { ok: true, failed: [], warned: [], collateral: ['WEBHOOK-USER-REGISTER'] }, report, new Set(['WEBHOOK-USER-REGISTER']))).toEqual([]);
  });
});

describe('the matrix under load', () => {
  test('a legal variant whose delivery takes longer than the lanes\' wait is judged clean, by a run at the full wait', async () => {
    const carry = simulated({ 'WEBHOOK-USER-REGISTER': 5_000 });
    const [o] = await matrix([variant('jitter')], carry);
    expect(carry.calls).toEqual([false, true]);
    expect(o).toMatchObject({ ok: true, failed: [], confirmed: { restedOn: ['WEBHOOK-USER-REGISTER'], waitMs: DEFAULT_DELIVERY_WAIT_MS, overturned: true } });
    expect(o!.confirmed!.firstWhy).toBe('verdict not-conformant, expected partial');
    expect(describeConfirmation(o!.confirmed)).toContain(`overturned by a run at the full ${DEFAULT_DELIVERY_WAIT_MS} ms wait`);
    const summary = summarise([o!], { seed: 1, scope: 'area', wallTimeMs: 1 });
    expect(summary).toMatchObject({ falseFailures: 0, confirmations: { confirmed: 1, overturned: 1 } });
    expect(summary.rows[0]!.confirmed).toEqual(o!.confirmed);
    expect(formatTable(summary)).toContain('1 judgement(s) resting on time confirmed at full strictness (1 overturned)');
  });

  test('a test that runs out of its time under load is given the longer timeouts of full strictness', async () => {
    const carry = simulated({}, { 'EVENT-TIMESTAMP-UNITS': 45_000 });
    const [o] = await matrix([variant('bridge-lists-all-locks')], carry);
    expect(carry.calls).toEqual([false, true]);
    expect(o).toMatchObject({ ok: true, confirmed: { restedOn: ['EVENT-TIMESTAMP-UNITS'], overturned: true } });
  });

  test('a delivery that never comes stays a false failure, confirmed at the full wait', async () => {
    const carry = simulated({ 'WEBHOOK-USER-REGISTER': Number.POSITIVE_INFINITY });
    const [o] = await matrix([variant('jitter')], carry);
    expect(carry.calls).toEqual([false, true]);
    expect(o).toMatchObject({ ok: false, failed: ['WEBHOOK-USER-REGISTER'], confirmed: { overturned: false } });
  });

  test('a false failure that does not rest on time is final: no second run', async () => {
    const carry = simulated({}, {}, [req('WEBHOOK-USER-REGISTER', 'MUST', 'failed', 'registration answered 500')]);
    const [o] = await matrix([variant('jitter')], carry);
    expect(carry.calls).toEqual([false]);
    expect(o).toMatchObject({ ok: false });
    expect(o!.confirmed).toBeUndefined();
  });

  test('a fault caught by a delivery that does not come is caught without a second run (the shortened wait is what it saves)', async () => {
    const carry = simulated({ 'WEBHOOK-LOCK-PER-USER': Number.POSITIVE_INFINITY });
    const [o] = await matrix([fault('lock-register-per-lock', 'WEBHOOK-LOCK-PER-USER')], carry);
    expect(carry.calls).toEqual([false]);
    expect(o).toMatchObject({ ok: true, collateral: [] });
  });

  test('a fault whose extra delivery comes after the quiet window under load is caught by the confirming run\'s longer window', async () => {
    // The fault sends a second copy 600 ms late (load): after the lanes' 250 ms quiet window, within the confirming run's.
    const calls: boolean[] = [];
    const carry: RunCarrier = async (_run, _outDir, _seed, fullWait) => {
      calls.push(fullWait);
      const caught = 600 <= (fullWait ? CONFIRM_QUIET_WINDOW_MS : 250);
      const requirements = [req('DELIVERY-ONE-POST', 'MUST', caught ? 'failed' : 'passed', caught ? 'expected 1 delivery after listening 1000 ms; received: #1, #2' : undefined)];
      return { report: { verdict: caught ? 'not-conformant' : 'partial', requirements }, durationMs: 1, cpuMs: 1, exitCode: caught ? 1 : 0 };
    };
    const [o] = await matrix([{ ...fault('duplicate-delivery', 'DELIVERY-ONE-POST'), only: ['DELIVERY-ONE-POST'] }], carry);
    expect(calls).toEqual([false, true]);
    expect(o).toMatchObject({ ok: true, confirmed: { restedOn: ['DELIVERY-ONE-POST'], overturned: true } });
  });

  test('collateral resting on time is confirmed unless an earlier matrix judged it; a slow one is dropped', async () => {
    const slow = simulated({ 'WEBHOOK-LOCK-PER-USER': Number.POSITIVE_INFINITY, 'WEBHOOK-LOCK-OVERWRITE': 5_000 });
    const [o] = await matrix([fault('lock-register-per-lock', 'WEBHOOK-LOCK-PER-USER')], slow);
    expect(slow.calls).toEqual([false, true]);
    expect(o).toMatchObject({ ok: true, collateral: [], confirmed: { restedOn: ['WEBHOOK-LOCK-OVERWRITE'], overturned: true } });

    const lost = simulated({ 'WEBHOOK-LOCK-PER-USER': Number.POSITIVE_INFINITY, 'WEBHOOK-LOCK-OVERWRITE': Number.POSITIVE_INFINITY });
    const known = new Map([['lock-register-per-lock', new Set(['WEBHOOK-LOCK-OVERWRITE'])]]);
    const [k] = await matrix([fault('lock-register-per-lock', 'WEBHOOK-LOCK-PER-USER')], lost, known);
    expect(lost.calls).toEqual([false]);
    expect(k).toMatchObject({ ok: true, collateral: ['WEBHOOK-LOCK-OVERWRITE'] });
  });
});
