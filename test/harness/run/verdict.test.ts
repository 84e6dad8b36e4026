import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../../harness/catalog/index.js';
import type { RequirementOutcome, TestMeta } from '../../../harness/run/outcome.js';
import { computeVerdict, idFromTestName, NO_TEST, NOT_SELECTED, runVerdict, type TestRecord } from '../../../harness/run/verdict.js';
import { parseExpectations } from '../../../harness/run/expectations.js';

const CAT: Requirement[] = [
  { id: 'OAUTH-STATE-ECHO', level: 'MUST', area: 'OAuth authorization', section: 'S1', source: 'spec', rule: 'r1' },
  { id: 'OAUTH-CODE-LIFETIME', level: 'SHOULD', area: 'OAuth authorization', section: 'S2', source: 'spec', rule: 'r2' },
  { id: 'TOKEN-JWT-EXP', level: 'INFO', area: 'Token endpoint', section: 'S3', source: 'spec', rule: 'r3' },
  { id: 'EVENT-BRIDGE-OFFLINE-DELAY', level: 'INFO', area: 'Event payloads', section: 'S4', source: 'spec', rule: 'r4', untestable: 'cannot cut a bridge off' },
  { id: 'REFRESH-SINGLE-USE', level: 'MUST', area: 'Refresh tokens', section: 'S5', source: 'spec', rule: 'r5' },
];

function meta(requirement: string, outcomes: RequirementOutcome[], extra: Partial<TestMeta> = {}): TestMeta {
  return { requirement, outcomes, observations: [], exchanges: [], deliveries: [], ...extra };
}
function test(name: string, state: TestRecord['state'], m?: TestMeta, more: Partial<TestRecord> = {}): TestRecord {
  return { name, state, ...(m ? { meta: m } : {}), ...more };
}
const status = (r: ReturnType<typeof computeVerdict>, id: string) => r.requirements.find((x) => x.id === id)!;

describe('verdict', () => {
  it('reads the requirement ID from a test name', () => {
    expect(idFromTestName('REFRESH-SINGLE-USE: a used refresh token is refused')).toBe('REFRESH-SINGLE-USE');
    expect(idFromTestName('something else')).toBeNull();
  });

  it('aggregates per ID: any failed wins over passed, across tests and t.check', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [
        test('OAUTH-STATE-ECHO: a', 'passed', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'passed' }])),
        test('REFRESH-SINGLE-USE: b', 'failed', meta('REFRESH-SINGLE-USE', [
          { id: 'REFRESH-SINGLE-USE', status: 'passed' },
          { id: 'OAUTH-STATE-ECHO', status: 'failed', reason: 'state was truncated' },
        ])),
      ],
    });
    expect(status(r, 'OAUTH-STATE-ECHO')).toMatchObject({ status: 'failed', reason: 'state was truncated' });
    expect(status(r, 'OAUTH-STATE-ECHO').tests).toEqual(['OAUTH-STATE-ECHO: a', 'REFRESH-SINGLE-USE: b']);
    expect(status(r, 'REFRESH-SINGLE-USE').status).toBe('passed');
    expect(r.verdict).toBe('not-conformant');
  });

  it('a failed SHOULD is warned and does not make the target not conformant', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [
        test('OAUTH-STATE-ECHO: a', 'passed', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'passed' }])),
        test('REFRESH-SINGLE-USE: a', 'passed', meta('REFRESH-SINGLE-USE', [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }])),
        test('OAUTH-CODE-LIFETIME: a', 'passed', meta('OAUTH-CODE-LIFETIME', [{ id: 'OAUTH-CODE-LIFETIME', status: 'failed', reason: 'code lives 1 h' }])),
      ],
    });
    expect(status(r, 'OAUTH-CODE-LIFETIME')).toMatchObject({ status: 'warned', reason: 'code lives 1 h' });
    expect(r.verdict).toBe('conformant');
    expect(r.counts).toMatchObject({ passed: 2, warned: 1, failed: 0 });
  });

  it('INFO is informational once run, whatever its checks say; never run → not tested with the untestable reason', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [test('TOKEN-JWT-EXP: a', 'passed', meta('TOKEN-JWT-EXP', [{ id: 'TOKEN-JWT-EXP', status: 'failed' }]))],
    });
    expect(status(r, 'TOKEN-JWT-EXP').status).toBe('informational');
    expect(status(r, 'EVENT-BRIDGE-OFFLINE-DELAY')).toMatchObject({ status: 'not-tested', reason: 'cannot cut a bridge off' });
  });

  it('never run → not tested with the capability reason, "not selected (--only)" or "no test"', () => {
    const r = computeVerdict({
      catalog: CAT,
      selected: new Set(['OAUTH-STATE-ECHO', 'OAUTH-CODE-LIFETIME']),
      tests: [
        test('OAUTH-STATE-ECHO: a', 'skipped', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'not-tested', reason: 'needs control: the profile has no controlUrl' }])),
        test('REFRESH-SINGLE-USE: a', 'skipped'),
      ],
    });
    expect(status(r, 'OAUTH-STATE-ECHO')).toMatchObject({ status: 'not-tested', reason: 'needs control: the profile has no controlUrl' });
    expect(status(r, 'REFRESH-SINGLE-USE')).toMatchObject({ status: 'not-tested', reason: NOT_SELECTED });
    expect(status(r, 'OAUTH-CODE-LIFETIME')).toMatchObject({ status: 'not-tested', reason: NO_TEST });
    expect(r.verdict).toBe('incomplete');
    expect(r.partial).toBe(true);
  });

  it('a test that died outside its checks fails its own requirement with the error', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [
        test('REFRESH-SINGLE-USE: a', 'failed', meta('REFRESH-SINGLE-USE', [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }]), { errors: ['Test timed out in 30000ms'] }),
        test('OAUTH-STATE-ECHO: a', 'failed', undefined, { errors: ['boom'] }),
      ],
    });
    expect(status(r, 'REFRESH-SINGLE-USE')).toMatchObject({ status: 'failed', reason: 'Test timed out in 30000ms' });
    expect(status(r, 'OAUTH-STATE-ECHO')).toMatchObject({ status: 'failed', reason: 'boom' });
  });

  it('a reason repeated across tests (numbers aside) is given once, with its count', () => {
    const failing = (n: number) => test(`OAUTH-STATE-ECHO: t${n}`, 'failed', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'failed', reason: `delivery #${n}: mismatch` }]));
    const r = computeVerdict({ catalog: CAT, tests: [failing(1), failing(2), failing(3)] });
    expect(status(r, 'OAUTH-STATE-ECHO').reason).toBe('delivery #1: mismatch\n(the same reason 3 times)');
  });

  it('with --only, requirements outside the selection do not make the run incomplete, but it is partial, never conformant', () => {
    const ok = (id: string) => test(`${id}: t`, 'passed', meta(id, [{ id, status: 'passed' }]));
    const r = computeVerdict({ catalog: CAT, selected: new Set(['OAUTH-STATE-ECHO']), tests: [ok('OAUTH-STATE-ECHO')] });
    expect(r.verdict).toBe('partial');
    expect(r.partial).toBe(true);
    expect(r.scope).toEqual({ inScope: 1, total: CAT.length });
  });

  it('outside --only, a requirement whose tests were skipped by the filter says "not selected", whatever their count', () => {
    const skipped = (n: number) => test(`REFRESH-SINGLE-USE: t${n}`, 'skipped');
    const r = computeVerdict({ catalog: CAT, selected: new Set(['OAUTH-STATE-ECHO']), tests: [skipped(1), skipped(2)] });
    expect(status(r, 'REFRESH-SINGLE-USE')).toMatchObject({ status: 'not-tested', reason: NOT_SELECTED });
  });

  it('outside --only, a check a test in scope made on the way is not counted passed: the scope is what was asked for', () => {
    const r = computeVerdict({
      catalog: CAT,
      selected: new Set(['REFRESH-SINGLE-USE']),
      tests: [test('REFRESH-SINGLE-USE: b', 'passed', meta('REFRESH-SINGLE-USE', [
        { id: 'REFRESH-SINGLE-USE', status: 'passed' },
        { id: 'OAUTH-STATE-ECHO', status: 'passed' },
        { id: 'TOKEN-JWT-EXP', status: 'passed' },
      ]))],
    });
    expect(status(r, 'OAUTH-STATE-ECHO')).toMatchObject({ status: 'not-tested', reason: NOT_SELECTED });
    expect(status(r, 'TOKEN-JWT-EXP')).toMatchObject({ status: 'not-tested', reason: NOT_SELECTED });
    expect(r.counts).toMatchObject({ passed: 1, notTested: 4, informational: 0 });
    expect(r.scope).toEqual({ inScope: 1, total: 5 });
    // a failure outside the scope stays one
    const failed = computeVerdict({
      catalog: CAT,
      selected: new Set(['REFRESH-SINGLE-USE']),
      tests: [test('REFRESH-SINGLE-USE: b', 'failed', meta('REFRESH-SINGLE-USE', [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }, { id: 'OAUTH-STATE-ECHO', status: 'failed', reason: 'x' }]))],
    });
    expect(status(failed, 'OAUTH-STATE-ECHO').status).toBe('failed');
  });

  it('untestable MUSTs do not make a run incomplete; everything passing is conformant', () => {
    const cat: Requirement[] = [...CAT, { id: 'EVENT-BRIDGE', level: 'MUST', area: 'Event payloads', section: 'x', source: 's', rule: 'r', untestable: 'no way' }];
    const ok = (id: string) => test(`${id}: t`, 'passed', meta(id, [{ id, status: 'passed' }]));
    const r = computeVerdict({ catalog: cat, tests: [ok('OAUTH-STATE-ECHO'), ok('REFRESH-SINGLE-USE')] });
    expect(r.verdict).toBe('conformant');
  });

  it('--expect: listed failures are "failed (expected)" and do not fail the run; listed passes are stale', () => {
    const expected = parseExpectations('# known deviations\nOAUTH-STATE-ECHO   # vendor bug 12\nREFRESH-SINGLE-USE\n');
    const r = computeVerdict({
      catalog: CAT,
      expected,
      tests: [
        test('OAUTH-STATE-ECHO: a', 'failed', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'failed', reason: 'x' }])),
        test('REFRESH-SINGLE-USE: a', 'passed', meta('REFRESH-SINGLE-USE', [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }])),
      ],
    });
    expect(status(r, 'OAUTH-STATE-ECHO')).toMatchObject({ status: 'failed', expected: true, expectComment: 'vendor bug 12' });
    expect(r.stale).toEqual(['REFRESH-SINGLE-USE']);
    // An excused MUST failure is a known deviation, not conformance: the run passed its scope, no more.
    expect(r.verdict).toBe('partial');
    expect(r.weakenedBy).toEqual([expect.objectContaining({ setting: '--expect', value: 'OAUTH-STATE-ECHO' })]);
    expect(r.counts.expectedFailures).toBe(1);
  });

  it('observations are kept with the test that made them', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [test('TOKEN-JWT-EXP: a', 'passed', meta('TOKEN-JWT-EXP', [{ id: 'TOKEN-JWT-EXP', status: 'informational' }], {
        observations: [{ id: 'TOKEN-JWT-EXP', label: 'exp claim', value: 1234 }],
      }))],
    });
    expect(status(r, 'TOKEN-JWT-EXP').observations).toEqual([{ label: 'exp claim', value: 1234, test: 'TOKEN-JWT-EXP: a' }]);
  });
});

describe('the run-level verdict', () => {
  const passed = [
    test('OAUTH-STATE-ECHO: a', 'passed', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'passed' }])),
    test('REFRESH-SINGLE-USE: a', 'passed', meta('REFRESH-SINGLE-USE', [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }])),
  ];
  const failing = [...passed, test('OAUTH-STATE-ECHO: b', 'failed', meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: 'failed', reason: 'x' }]))];
  const weak = [{ setting: 'LOCKCONF_DELIVERY_WAIT_MS', value: '3000', effect: 'shorter' }];

  it('everything passed, whole catalog, nothing weakened: conformant', () => {
    expect(computeVerdict({ catalog: CAT, tests: passed })).toMatchObject({ verdict: 'conformant', partial: false, weakenedBy: [] });
  });

  it('a weakening setting makes a passing run partial, and is carried to the result', () => {
    const r = computeVerdict({ catalog: CAT, tests: passed, weakenedBy: weak });
    expect(r).toMatchObject({ verdict: 'partial', partial: true, weakenedBy: weak, scope: { inScope: CAT.length, total: CAT.length } });
  });

  it('a failure still makes a narrowed or weakened run not conformant', () => {
    expect(computeVerdict({ catalog: CAT, tests: failing, weakenedBy: weak }).verdict).toBe('not-conformant');
    expect(computeVerdict({ catalog: CAT, tests: failing, selected: new Set(['OAUTH-STATE-ECHO']) }).verdict).toBe('not-conformant');
  });

  it('interrupted wins over everything: a stopped run certifies nothing and fails nothing more', () => {
    expect(computeVerdict({ catalog: CAT, tests: passed, interrupted: true }).verdict).toBe('interrupted');
    expect(computeVerdict({ catalog: CAT, tests: failing, interrupted: true, interference: 'reset by another run' }).verdict).toBe('interrupted');
  });

  it('interfered wins over failures: what another run did to the target is not the target\'s fault', () => {
    const r = computeVerdict({ catalog: CAT, tests: failing, interference: 'the target was reset 3 time(s) by someone else' });
    expect(r).toMatchObject({ verdict: 'interfered', interference: 'the target was reset 3 time(s) by someone else' });
    expect(computeVerdict({ catalog: CAT, tests: passed, interference: null }).verdict).toBe('conformant');
  });

  it('the order of the rules, fact by fact', () => {
    const none = { interrupted: false, interfered: false, mustFailed: false, mustNotTested: false, partial: false };
    expect(runVerdict(none)).toBe('conformant');
    expect(runVerdict({ ...none, partial: true })).toBe('partial');
    expect(runVerdict({ ...none, partial: true, mustNotTested: true })).toBe('incomplete');
    expect(runVerdict({ ...none, mustNotTested: true, mustFailed: true })).toBe('not-conformant');
    expect(runVerdict({ ...none, mustFailed: true, interfered: true })).toBe('interfered');
    expect(runVerdict({ ...none, interfered: true, interrupted: true })).toBe('interrupted');
  });
});

describe('expect file', () => {
  it('accepts JSON lists and objects, and rejects unknown IDs', () => {
    expect([...parseExpectations('["OAUTH-STATE-ECHO"]').keys()]).toEqual(['OAUTH-STATE-ECHO']);
    expect(parseExpectations('{"OAUTH-STATE-ECHO": "bug 1"}').get('OAUTH-STATE-ECHO')).toBe('bug 1');
    expect(parseExpectations('{"expected": [{"id": "OAUTH-STATE-ECHO", "comment": "c"}]}').get('OAUTH-STATE-ECHO')).toBe('c');
    expect(() => parseExpectations('OAUTH-STATE-ECHOO # typo', 'x.txt')).toThrow(/x.txt line 1: "OAUTH-STATE-ECHOO" is not a requirement ID/);
    expect(() => parseExpectations('[1', 'x.json')).toThrow(/not valid JSON/);
  });
});

describe('blocked', () => {
  const blocked = (id: string, by: string): RequirementOutcome => ({ id, status: 'blocked', reason: `blocked by ${by}: no token`, blockedBy: [by] });
  const root = (state: 'passed' | 'failed', selected = true) => selected
    ? [test('OAUTH-STATE-ECHO: root', state, meta('OAUTH-STATE-ECHO', [{ id: 'OAUTH-STATE-ECHO', status: state, ...(state === 'failed' ? { reason: 'state cut' } : {}) }]))]
    : [];

  it('stays blocked under a root cause that failed: counted apart, the root names what it blocked', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [...root('failed'), test('REFRESH-SINGLE-USE: b', 'skipped', meta('REFRESH-SINGLE-USE', [blocked('REFRESH-SINGLE-USE', 'OAUTH-STATE-ECHO')]))],
    });
    expect(status(r, 'REFRESH-SINGLE-USE')).toMatchObject({ status: 'blocked', blockedBy: ['OAUTH-STATE-ECHO'] });
    expect(status(r, 'OAUTH-STATE-ECHO')).toMatchObject({ status: 'failed', blocks: ['REFRESH-SINGLE-USE'] });
    expect(r.counts).toMatchObject({ failed: 1, blocked: 1 });
    expect(r.verdict).toBe('not-conformant');
  });

  it('is failed, never passed, when its root cause did not fail in the run (passed elsewhere, or not run)', () => {
    for (const tests of [root('passed'), root('passed', false)]) {
      const r = computeVerdict({
        catalog: CAT,
        tests: [...tests, test('REFRESH-SINGLE-USE: b', 'skipped', meta('REFRESH-SINGLE-USE', [blocked('REFRESH-SINGLE-USE', 'OAUTH-STATE-ECHO')]))],
      });
      expect(status(r, 'REFRESH-SINGLE-USE').status).toBe('failed');
      expect(status(r, 'REFRESH-SINGLE-USE').reason).toContain('OAUTH-STATE-ECHO');
      expect(status(r, 'REFRESH-SINGLE-USE').blockedBy).toBeUndefined();
      expect(r.verdict).toBe('not-conformant');
    }
  });

  it('follows a chain of blocked requirements to the root', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [
        ...root('failed'),
        test('OAUTH-CODE-LIFETIME: c', 'skipped', meta('OAUTH-CODE-LIFETIME', [blocked('OAUTH-CODE-LIFETIME', 'OAUTH-STATE-ECHO')])),
        test('REFRESH-SINGLE-USE: b', 'skipped', meta('REFRESH-SINGLE-USE', [blocked('REFRESH-SINGLE-USE', 'OAUTH-CODE-LIFETIME')])),
      ],
    });
    expect(status(r, 'REFRESH-SINGLE-USE')).toMatchObject({ status: 'blocked', blockedBy: ['OAUTH-STATE-ECHO'] });
    expect(status(r, 'OAUTH-STATE-ECHO').blocks).toEqual(['OAUTH-CODE-LIFETIME', 'REFRESH-SINGLE-USE']);
  });

  it('ranks above passed: a check another test passed does not make a blocked requirement pass', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [
        ...root('failed'),
        test('REFRESH-SINGLE-USE: b', 'skipped', meta('REFRESH-SINGLE-USE', [blocked('REFRESH-SINGLE-USE', 'OAUTH-STATE-ECHO')])),
        test('TOKEN-JWT-EXP: c', 'passed', meta('TOKEN-JWT-EXP', [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }])),
      ],
    });
    expect(status(r, 'REFRESH-SINGLE-USE').status).toBe('blocked');
  });

  it('keeps a run from being conformant even when its root cause is a known deviation', () => {
    const r = computeVerdict({
      catalog: CAT,
      tests: [...root('failed'), test('REFRESH-SINGLE-USE: b', 'skipped', meta('REFRESH-SINGLE-USE', [blocked('REFRESH-SINGLE-USE', 'OAUTH-STATE-ECHO')]))],
      expected: parseExpectations('OAUTH-STATE-ECHO  # known\n'),
    });
    expect(status(r, 'OAUTH-STATE-ECHO').expected).toBe(true);
    expect(r.verdict).toBe('incomplete');
  });
});
