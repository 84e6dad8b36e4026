/** The matrix's judgement of one run: what counts as caught, and what counts as a false failure. */
import { describe, expect, test } from 'vitest';
import { areaScope, judge, needsSignIn, planMatrix, scopeCheckName, selectFaults, type MatrixEntry, type MatrixOutcome, type RequirementResult } from './matrix.js';
import { MAX_COLLATERAL, cascades } from './matrix-session.js';
import { FAULTS, FAULT_NAMES } from '../../mock/faults.js';
import { requirement } from '../../harness/catalog/index.js';

const fault = (name: string, requirement: string): MatrixEntry => ({ name, kind: 'fault', description: '', mockOptions: { faults: [name] }, requirement });
const clean: MatrixEntry = { name: 'conforming', kind: 'conforming', description: '', mockOptions: {} };
const req = (id: string, level: string, status: RequirementResult['status']): RequirementResult => ({ id, level, status });

describe('judge', () => {
  test('a MUST fault is caught only when its own requirement failed', () => {
    const entry = fault('refresh-reusable', 'REFRESH-SINGLE-USE');
    expect(judge(entry, { verdict: 'not-conformant', requirements: [req('REFRESH-SINGLE-USE', 'MUST', 'failed')] }).ok).toBe(true);
    const wrongReason = judge(entry, { verdict: 'not-conformant', requirements: [req('REFRESH-NEW-PAIR', 'MUST', 'failed'), req('REFRESH-SINGLE-USE', 'MUST', 'passed')] });
    expect(wrongReason.ok).toBe(false);
    expect(wrongReason.why).toMatch(/REFRESH-SINGLE-USE was not failed/);
  });

  test('a SHOULD fault is caught when its requirement is warned', () => {
    const entry = fault('filter-ignored', 'WEBHOOK-NOTIFICATION-FILTER');
    expect(judge(entry, { verdict: 'conformant', requirements: [req('WEBHOOK-NOTIFICATION-FILTER', 'SHOULD', 'warned')] }).ok).toBe(true);
    expect(judge(entry, { verdict: 'conformant', requirements: [req('WEBHOOK-NOTIFICATION-FILTER', 'SHOULD', 'passed')] }).ok).toBe(false);
  });

  test('a conforming implementation with any failure or warning is a false failure', () => {
    expect(judge(clean, { verdict: 'conformant', requirements: [req('OAUTH-STATE-ECHO', 'MUST', 'passed')] }).ok).toBe(true);
    expect(judge(clean, { verdict: 'conformant', requirements: [req('HEADERS-MISSING-TOKEN-401', 'SHOULD', 'warned')] }).ok).toBe(false);
    expect(judge(clean, { verdict: 'incomplete', requirements: [] }).ok).toBe(false);
  });

  test('a scoped or weakened conforming run is clean when "partial", and wrong when it claims "conformant"', () => {
    const scoped: MatrixEntry = { ...clean, only: ['OAUTH-STATE-ECHO'] };
    const passed = [req('OAUTH-STATE-ECHO', 'MUST', 'passed')];
    expect(judge(scoped, { verdict: 'partial', requirements: passed }).ok).toBe(true);
    expect(judge(scoped, { verdict: 'conformant', requirements: passed }).why).toMatch(/expected partial/);
    const weakened = { selection: { weakenedBy: [{ setting: 'LOCKCONF_DELIVERY_WAIT_MS' }] } };
    expect(judge(clean, { verdict: 'partial', requirements: passed, ...weakened }).ok).toBe(true);
    expect(judge(clean, { verdict: 'conformant', requirements: passed, ...weakened }).ok).toBe(false);
    expect(judge(clean, { verdict: 'partial', requirements: passed }).why).toMatch(/expected conformant/);
  });

  test('a run without a verdict file is never ok', () => {
    expect(judge(clean, null).ok).toBe(false);
    expect(judge(fault('code-reusable', 'OAUTH-CODE-SINGLE-USE'), null).ok).toBe(false);
  });
});

describe('planMatrix', () => {
  test('plans the plain mock, the variants and every fault, each fault scoped to its area', () => {
    const plan = planMatrix({ scope: 'area' });
    expect(plan.filter((e) => e.kind === 'fault')).toHaveLength(FAULT_NAMES.length);
    expect(plan.filter((e) => e.kind === 'variant').length).toBeGreaterThanOrEqual(2);
    for (const entry of plan.filter((e) => e.kind === 'fault')) {
      expect(entry.only).toContain(entry.requirement);
    }
    const checks = plan.filter((e) => e.kind === 'scope-check');
    expect(new Set(checks.map((e) => requirement(e.requirement!).area)).size, 'one full run per spec area that has faults').toBe(checks.length);
    expect(checks.length).toBeGreaterThanOrEqual(8);
    for (const entry of checks) expect(entry.only, 'a scope check runs every suite').toBeUndefined();
    expect(areaScope('DELIVERY-NO-RETRY')).toContain('DELIVERY-NO-REDIRECT');
    expect(areaScope('DELIVERY-NO-RETRY')).not.toContain('OAUTH-STATE-ECHO');
  });
});

describe('the legal variants in npm test', () => {
  test('each runs on the areas its option reaches; the plain mock, jitter and --all on every suite', () => {
    const touched = planMatrix({ scope: 'area', variants: 'touched' });
    const full = planMatrix({ scope: 'area', variants: 'full' });
    const base64 = touched.find((e) => e.name === 'base64-signatures')!;
    expect(base64.only).toContain('SIGNATURE-VALID');
    expect(base64.only, 'the signature encoding never reaches the token endpoint').not.toContain('TOKEN-RESPONSE-SHAPE');
    expect(touched.find((e) => e.name === 'two-day-access-tokens')!.only).toContain('HEADERS-TOKEN-LIFETIME-24H');
    expect(touched.find((e) => e.name === 'jitter')!.only).toBeUndefined();
    expect(touched.find((e) => e.kind === 'conforming')!.only).toBeUndefined();
    for (const v of full.filter((e) => e.kind === 'variant' && e.name !== 'free-system-values')) expect(v.only, `${v.name} with --all`).toBeUndefined();
    expect(planMatrix({ scope: 'area' }).find((e) => e.name === 'base64-signatures')!.only, 'the default: every suite').toBeUndefined();
  });
});

describe('the sign-in screens (Chromium) in the matrix', () => {
  test('the runs of their faults, and the plain mock and the variants on every suite under npm run matrix, drive them; npm test\'s legal runs and every other fault leave them out', () => {
    const touched = planMatrix({ scope: 'area', variants: 'touched' });
    const full = planMatrix({ scope: 'area', variants: 'full' });
    expect(needsSignIn(touched.find((e) => e.kind === 'conforming')!), 'npm test: full-run.test.ts judges the plain mock on them').toBe(false);
    expect(needsSignIn(full.find((e) => e.kind === 'conforming')!)).toBe(true);
    expect(touched.filter((e) => e.kind === 'variant').filter(needsSignIn)).toEqual([]);
    const scoped = full.filter((e) => e.kind === 'variant' && e.only);
    expect(full.filter((e) => e.kind === 'variant').filter(needsSignIn).length).toBe(full.filter((e) => e.kind === 'variant').length - scoped.length);
    expect(needsSignIn(full.find((e) => e.name === 'sign-in-any-password')!)).toBe(true);
    expect(needsSignIn(full.find((e) => e.name === 'code-reusable')!)).toBe(false);
  });
});

describe('collateral', () => {
  test('a fault that fails more than MAX_COLLATERAL other requirements is named with them', () => {
    const outcome = (name: string, collateral: string[]) => ({ entry: fault(name, 'OAUTH-CODE-SINGLE-USE'), collateral }) as unknown as MatrixOutcome;
    const many = Array.from({ length: MAX_COLLATERAL + 1 }, (_, i) => `X-${i}`);
    expect(cascades([outcome('a', many.slice(0, MAX_COLLATERAL)), outcome('b', many)])).toEqual([`b: ${many.join(', ')}`]);
  });
});

describe('LOCKCONF_MATRIX_FAULTS', () => {
  test('selects faults by name and by spec area; nothing selected runs them all', () => {
    expect(selectFaults(undefined)).toBeUndefined();
    expect(selectFaults(' ')).toBeUndefined();
    expect(selectFaults('code-reusable')).toEqual(['code-reusable']);
    const signature = FAULT_NAMES.filter((n) => requirement(FAULTS[n].requirement).area === 'Webhook signature');
    expect(signature.length).toBeGreaterThan(0);
    expect(selectFaults('webhook-signature')).toEqual(signature);
    expect(selectFaults('Webhook signature, code-reusable')).toEqual(FAULT_NAMES.filter((n) => n === 'code-reusable' || signature.includes(n)));
  });

  test('a name that is neither a fault nor an area is refused, naming it', () => {
    expect(() => selectFaults('code-reusable,no-such-fault')).toThrow(/no-such-fault is neither a fault/);
  });

  test('a selection plans its faults, one scope check per area, and the conforming runs on those areas', () => {
    const plan = planMatrix({ scope: 'area', faults: ['code-reusable', 'refresh-reusable'] });
    expect(plan.filter((e) => e.kind === 'fault').map((e) => e.name)).toEqual(['code-reusable', 'refresh-reusable']);
    expect(plan.filter((e) => e.kind === 'scope-check')).toHaveLength(2);
    const conforming = plan.filter((e) => e.kind === 'conforming' || e.kind === 'variant');
    expect(conforming.length).toBeGreaterThanOrEqual(3);
    for (const entry of conforming) {
      expect(new Set(entry.only)).toEqual(new Set([...areaScope('OAUTH-CODE-SINGLE-USE'), ...areaScope('REFRESH-SINGLE-USE')]));
    }
    expect(planMatrix({ scope: 'area' }).find((e) => e.kind === 'conforming')!.only, 'the whole matrix judges the plain mock on every suite').toBeUndefined();
  });
});

describe('the full-run scope checks', () => {
  test('one per area: its first fault, or its first one an earlier matrix did not have to run alone', () => {
    const refresh = FAULT_NAMES.filter((n) => requirement(FAULTS[n].requirement).area === 'Refresh tokens');
    expect(refresh.length).toBeGreaterThanOrEqual(3);
    const check = (alone: string[]) => planMatrix({ scope: 'area', alone: new Set(alone) })
      .filter((e) => e.kind === 'scope-check' && requirement(e.requirement!).area === 'Refresh tokens')
      .map((e) => e.name);
    expect(check([])).toEqual([scopeCheckName(refresh[0]!)]);
    expect(check([scopeCheckName(refresh[0]!)])).toEqual([scopeCheckName(refresh[1]!)]);
    expect(check([scopeCheckName(refresh[0]!), refresh[1]!])).toEqual([scopeCheckName(refresh[2]!)]);
    expect(check(refresh), 'every fault of the area alone: its first').toEqual([scopeCheckName(refresh[0]!)]);
  });
});
