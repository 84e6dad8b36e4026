/**
 * The terminal's progress lines ("3 of 40  ✓ passed  ID  title"): after Ctrl-C the count
 * stops with what ran. vitest then marks every test it never started skipped, with the
 * note "The test run was aborted by the user.", those --only left out of a file too:
 * counted, they ran the counter past the total.
 */
import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import LockconfReporter from '../../../harness/report/reporter.js';

const ABORTED = 'The test run was aborted by the user.';

/** A test case as the reporter reads it: id, name, result, meta, module and its tests. */
function fakeModule(tests: Array<{ name: string; state: 'passed' | 'skipped'; note?: string }>): TestCase[] {
  const cases: TestCase[] = [];
  const module = { moduleId: '/suites/fake.test.ts', children: { allTests: () => cases.values() } } as unknown as TestModule;
  tests.forEach((t, i) => {
    cases.push({
      id: `t${i}`, name: t.name, module,
      result: () => ({ state: t.state, ...(t.note ? { note: t.note } : {}), errors: [] }),
      meta: () => ({}),
      diagnostic: () => undefined,
    } as unknown as TestCase);
  });
  return cases;
}

describe('progress lines', () => {
  it('after Ctrl-C, the tests never started are not counted: the count stops at what ran, never past the total', () => {
    const lines: string[] = [];
    const reporter = new LockconfReporter({ print: (line) => lines.push(line), expectedTests: 2, allure: false });
    const cases = fakeModule([
      { name: 'OAUTH-STATE-ECHO: echoes state', state: 'passed' },
      { name: 'TOKEN-RESPONSE-SHAPE: the shape', state: 'skipped', note: ABORTED },
      { name: 'HEADERS-API-KEY: left out by --only', state: 'skipped', note: ABORTED },
      { name: 'HEADERS-CLIENT-ID: left out by --only', state: 'skipped', note: ABORTED },
    ]);
    for (const c of cases) reporter.onTestCaseResult(c);
    reporter.onTestModuleEnd(cases[0]!.module);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^1 of 2 {2}✓ passed +OAUTH-STATE-ECHO/);
  });

  it('a test the static count did not see is shown without "of N", never as "3 of 2"', () => {
    const lines: string[] = [];
    const reporter = new LockconfReporter({ print: (line) => lines.push(line), expectedTests: 1, allure: false });
    const cases = fakeModule([{ name: 'OAUTH-STATE-ECHO: a', state: 'passed' }, { name: 'OAUTH-STATE-ECHO: b', state: 'passed' }]);
    for (const c of cases) reporter.onTestCaseResult(c);
    expect(lines.map((l) => l.slice(0, 8))).toEqual(['1 of 1  ', '2       ']);
  });
});
