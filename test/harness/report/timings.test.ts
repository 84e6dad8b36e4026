import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clearMarks, markPhase, runTimings, timingsLine, timingsTable } from '../../../harness/report/timings.js';

// The marks live on the process's timeline: a file before this one in the same worker may have set some.
beforeAll(() => clearMarks());
afterEach(() => clearMarks());

describe("where a run's time goes", () => {
  it('no mark set: no timings (a reporter used without the CLI)', () => {
    expect(runTimings()).toBeNull();
  });

  it('phases run from one mark to the next, in order, and add up to the wall time', () => {
    markPhase('cli', 500);
    markPhase('vitest', 520);
    markPhase('setup', 1_500);
    markPhase('setup-target', 1_700);
    markPhase('setup-done', 1_750);
    markPhase('first-test', 2_400);
    markPhase('last-test', 11_400);
    markPhase('reports', 11_450);
    markPhase('result-files', 11_600);
    markPhase('reports-done', 11_610);
    const t = runTimings({ testsDurationMs: 8_800, collectMs: 400 })!;
    expect(t.phases.map((p) => [p.name, p.ms])).toEqual([
      ['start', 500],
      ['cli', 20],
      ['vitest-start', 980],
      ['setup-target', 200],
      ['setup-rest', 50],
      ['worker-start', 650],
      ['tests', 9_000],
      ['after-tests', 50],
      ['result-files', 150],
      ['reports-rest', 10],
    ]);
    expect(t.wallMs).toBe(11_610);
    expect(t.phases.reduce((sum, p) => sum + p.ms, 0)).toBe(t.wallMs);
    expect(t).toMatchObject({ testsDurationMs: 8_800, collectMs: 400 });
  });

  it('marks without the CLI\'s: no timings either', () => {
    markPhase('setup', 1_000);
    markPhase('reports', 2_000);
    expect(runTimings()).toBeNull();
  });

  it('work done in parallel counts only where it outlasts the phase before it', () => {
    markPhase('cli', 500);
    markPhase('reports', 1_000);
    markPhase('allure-results', 1_100);
    markPhase('result-files', 1_300);
    markPhase('allure-report', 3_000);
    const phases = runTimings()!.phases.map((p) => [p.name, p.ms]);
    expect(phases).toEqual([
      ['start', 500],
      ['after-tests', 500],
      ['result-files', 300],
      ['allure-results', 0],
      ['allure-report', 1_700],
    ]);
  });

  it('prints one line, or a phase a line with --timings', () => {
    markPhase('cli', 400);
    markPhase('last-test', 10_400);
    markPhase('closed', 10_500);
    const t = runTimings({ testsDurationMs: 9_000 })!;
    expect(timingsLine(t)).toBe("timings: 10.5 s: start 0.40, tests 10.0, teardown 0.10 (the tests' own durations add up to 9.0 s)");
    const table = timingsTable(t);
    expect(table).toMatch(/^ {2}start +0\.40 s +4 % {2}node's start/m);
    expect(table).toMatch(/^ {2}total +10\.50 s$/m);
  });
});
