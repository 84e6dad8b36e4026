/**
 * Where a run's time goes: marks on the process's performance timeline (shared by
 * the CLI, vitest's global setup and the reporters, which all run in the main
 * process, whatever module instance marks them), read back as consecutive phases.
 *
 * Times are milliseconds since the process started (performance.timeOrigin), so
 * the first phase is node's own start and the loading of the CLI's modules. A mark
 * that was never set (a run without the CLI, a phase that did not happen) leaves
 * its phase out; nothing here ever fails a run.
 */
import { performance } from 'node:perf_hooks';

const PREFIX = 'lockconf:';

/** The marks of a run, in the order they are set. */
export const MARKS = [
  'cli', // the CLI's command begins (its modules are loaded)
  'vitest', // the CLI hands over to vitest
  'setup', // global setup begins
  'setup-target', // the target is ready (the embedded mock started, or the remote one reached)
  'setup-capture', // control probed and the capture server listening
  'setup-done', // capabilities worked out, run-context.json written
  'first-test', // the first test starts in the worker
  'last-test', // the last test has finished
  'reports', // the lockconf reporter starts writing
  'result-files', // index.html and junit.xml written (conformance.json comes last, with the timings)
  'allure-results', // allure-results completed
  'allure-report', // allure-report/ generated
  'reports-done', // every report written
  'closed', // vitest closed: the worker ended, global setup torn down (mock and capture server stopped)
] as const;
export type Mark = (typeof MARKS)[number];

/** Set a mark now, or at a time taken earlier (ms since the process started). */
export function markPhase(name: Mark, at?: number): void {
  performance.mark(`${PREFIX}${name}`, at === undefined ? undefined : { startTime: at });
}

/** When a mark was last set, in ms since the process started; null when it was not. */
export function markTime(name: Mark): number | null {
  const entries = performance.getEntriesByName(`${PREFIX}${name}`, 'mark');
  return entries.length ? entries[entries.length - 1]!.startTime : null;
}

/** Forget every mark (a second run in the same process starts afresh). */
export function clearMarks(): void {
  for (const name of MARKS) performance.clearMarks(`${PREFIX}${name}`);
}

export interface Phase {
  /** Stable name of the phase (conformance.json `timings.phases[].name`). */
  name: string;
  /** What the phase holds, for a person. */
  title: string;
  ms: number;
}

export interface RunTimings {
  /** Milliseconds from the process's start to the last mark set. */
  wallMs: number;
  /** The phases, in order; they add up to wallMs (a phase whose marks are missing is folded into the next one). */
  phases: Phase[];
  /** The sum of the tests' own durations (as vitest measured them), against the `tests` phase's wall time. */
  testsDurationMs: number | null;
  /** The time vitest spent importing the suite modules (its collect phase, summed over files), part of `worker-start`. */
  collectMs: number | null;
}

/** Each phase ends at its mark; it begins where the previous phase that happened ended. */
const PHASES: ReadonlyArray<{ name: string; end: Mark; title: string }> = [
  { name: 'start', end: 'cli', title: "node's start, the CLI's modules (prebuilt, or through tsx)" },
  { name: 'cli', end: 'vitest', title: 'the CLI: options, profile, preflight, suite scan' },
  { name: 'vitest-start', end: 'setup', title: "vitest's start: config, vite, reporters" },
  { name: 'setup-target', end: 'setup-target', title: 'global setup: the target (the embedded mock starts)' },
  { name: 'setup-capture', end: 'setup-capture', title: 'global setup: control probe, capture server' },
  { name: 'setup-rest', end: 'setup-done', title: 'global setup: capabilities, reachability, run-context.json' },
  { name: 'worker-start', end: 'first-test', title: "the worker's start and the suite modules' loading" },
  { name: 'tests', end: 'last-test', title: 'the tests, first start to last end' },
  { name: 'after-tests', end: 'reports', title: 'after the tests: hooks, the worker reporting back' },
  { name: 'result-files', end: 'result-files', title: 'index.html, junit.xml (conformance.json is written after every phase it holds)' },
  { name: 'allure-results', end: 'allure-results', title: 'allure-results completed' },
  { name: 'allure-report', end: 'allure-report', title: 'allure-report/ generated' },
  { name: 'reports-rest', end: 'reports-done', title: 'reports/latest (and index.html again when Allure failed)' },
  { name: 'teardown', end: 'closed', title: 'vitest closes: the worker ends, the mock and the capture server stop' },
];

/** The phases of a run the CLI started (null without its `cli` mark: a reporter used on its own). */
export function runTimings(extra: { testsDurationMs?: number | null; collectMs?: number | null } = {}): RunTimings | null {
  if (markTime('cli') === null) return null;
  const phases: Phase[] = [];
  let from = 0;
  for (const phase of PHASES) {
    const at = markTime(phase.end);
    if (at === null) continue;
    phases.push({ name: phase.name, title: phase.title, ms: Math.max(0, Math.round(at - from)) });
    from = Math.max(from, at);
  }
  if (phases.length === 0) return null;
  return {
    wallMs: Math.round(from),
    phases,
    testsDurationMs: extra.testsDurationMs ?? null,
    collectMs: extra.collectMs ?? null,
  };
}

/** One line for the terminal: each phase and its seconds. */
export function timingsLine(t: RunTimings): string {
  const s = (ms: number) => (ms / 1000).toFixed(ms < 1000 ? 2 : 1);
  const parts = t.phases.filter((p) => p.ms >= 5).map((p) => `${p.name} ${s(p.ms)}`);
  const tests = t.testsDurationMs !== null ? ` (the tests' own durations add up to ${s(t.testsDurationMs)} s)` : '';
  return `timings: ${s(t.wallMs)} s: ${parts.join(', ')}${tests}`;
}

/** A table for --timings: one phase a line, its seconds, its share of the wall time, what it holds. */
export function timingsTable(t: RunTimings): string {
  const width = Math.max(...t.phases.map((p) => p.name.length));
  const lines = t.phases.map((p) => `  ${p.name.padEnd(width)}  ${(p.ms / 1000).toFixed(2).padStart(6)} s  ${String(Math.round((100 * p.ms) / Math.max(1, t.wallMs))).padStart(3)} %  ${p.title}`);
  lines.push(`  ${'total'.padEnd(width)}  ${(t.wallMs / 1000).toFixed(2).padStart(6)} s`);
  if (t.testsDurationMs !== null) lines.push(`  the tests' own durations add up to ${(t.testsDurationMs / 1000).toFixed(2)} s`);
  if (t.collectMs !== null) lines.push(`  vitest's import of the suite modules (in worker-start): ${(t.collectMs / 1000).toFixed(2)} s`);
  return lines.join('\n');
}
