/**
 * One whole conformance run against the embedded mock, as a user starts it
 * (`node bin/lockconf.js conformance --out <tmp> --no-allure`, what `npm run conformance` runs),
 * timed from spawn to exit, against the same command selecting one cheap test
 * (the floor of the runner: CLI, vitest, global setup, mock, reports), and against a bare
 * `vitest run` of one trivial test (bench/floor: the floor issue 36's goal is stated against),
 * side by side in one run, with the sign-in screens' share of the tests phase.
 * --quick runs the token-endpoint requirements only.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Benchmark } from '../benchmark.js';
import { runChild } from '../child.js';
import { atMost, compared, metric } from '../result.js';
import { BenchError, mask } from '../safe-error.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 110_000;

/** The phases conformance.json's `timings` holds (harness/report/timings.ts), by name, in ms. */
type Phases = Array<{ name: string; ms: number }>;
/** The sign-in screens' file: their tests' share of the tests phase. */
const SIGN_IN_FILE = 'suites/oauth/sign-in-screens.test.ts';

async function verdictOf(dir: string): Promise<{ verdict: string; counts: Record<string, number>; phases: Phases; signInMs: number } | null> {
  try {
    const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8')) as { verdict?: string; counts?: Record<string, number>; timings?: { phases?: Phases }; tests?: Array<{ file?: string; durationMs?: number }> };
    const signInMs = (json.tests ?? []).filter((t) => t.file === SIGN_IN_FILE).reduce((sum, t) => sum + (t.durationMs ?? 0), 0);
    return typeof json.verdict === 'string' ? { verdict: json.verdict, counts: json.counts ?? {}, phases: json.timings?.phases ?? [], signInMs } : null;
  } catch {
    return null;
  }
}

/** A bare `vitest run` of one trivial test (bench/floor), spawn to exit, in seconds. */
async function bareVitest(): Promise<number> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOCKCONF_') && !k.startsWith('VITEST')));
  const t0 = performance.now();
  const outcome = await runChild(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'bench/floor/vitest.config.ts'], { cwd: ROOT, timeoutMs: TIMEOUT_MS, env });
  const seconds = (performance.now() - t0) / 1000;
  if (outcome.timedOut || outcome.code !== 0) throw new BenchError(`the bare vitest run exited ${outcome.code ?? outcome.signal}: ${mask(outcome.tail).trim().split('\n').slice(-3).join(' | ')}`);
  return seconds;
}

/** The same, on one line for the JSON. */
function phasesNote(full: Phases, floor: Phases): string {
  const names = [...new Set([...full.map((p) => p.name), ...floor.map((p) => p.name)])];
  const s = (phases: Phases, name: string) => {
    const ms = phases.find((p) => p.name === name)?.ms;
    return ms === undefined ? '—' : (ms / 1000).toFixed(2);
  };
  return names.map((n) => `${n} ${s(full, n)}/${s(floor, n)}`).join(', ');
}

/** The phases of the fastest full run beside those of the fastest floor run, a line each (seconds). */
export function phasesSideBySide(full: Phases, floor: Phases): string[] {
  const names = [...new Set([...full.map((p) => p.name), ...floor.map((p) => p.name)])];
  const at = (phases: Phases, name: string) => phases.find((p) => p.name === name)?.ms;
  const s = (ms: number | undefined) => (ms === undefined ? '—' : (ms / 1000).toFixed(2)).padStart(7);
  const width = Math.max(5, ...names.map((n) => n.length));
  return [`${'phase'.padEnd(width)}  ${'full'.padStart(7)}  ${'floor'.padStart(7)}`, ...names.map((n) => `${n.padEnd(width)}  ${s(at(full, n))}  ${s(at(floor, n))}`)];
}

/** The floor of the runner itself: the same command selecting one cheap test. */
const FLOOR_ONLY = 'TOKEN-RESPONSE-JSON';

/** One conformance run as a child; its wall time in seconds and its counts. */
async function timedRun(only: string[]): Promise<{ seconds: number; verdict: string; counts: Record<string, number>; phases: Phases; signInMs: number }> {
  const out = await mkdtemp(join(tmpdir(), 'lockconf-bench-'));
  try {
    const args = ['bin/lockconf.js', 'conformance', '--out', out, '--no-allure', ...only.flatMap((id) => ['--only', id])];
    // The run must not pick up a target profile from the bench's environment.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOCKCONF_')));
    const t0 = performance.now();
    const outcome = await runChild(process.execPath, args, { cwd: ROOT, timeoutMs: TIMEOUT_MS, env });
    const seconds = (performance.now() - t0) / 1000;
    if (outcome.timedOut) throw new BenchError(`the conformance run did not finish within ${TIMEOUT_MS / 1000} s`);
    const result = await verdictOf(out);
    if (outcome.code !== 0 || result === null) {
      const lastLines = mask(outcome.tail).trim().split('\n').slice(-5).join(' | ');
      throw new BenchError(`the conformance run exited ${outcome.code ?? outcome.signal} (${result?.verdict ?? 'no verdict'}): ${lastLines}`);
    }
    return { seconds, ...result };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export const fullRun: Benchmark = {
  name: 'full-run',
  title: 'npm run conformance against the embedded mock (no Allure), against a one-test run of the same command',
  async run(ctx) {
    // Alternating: bare vitest, floor, full, …; the fastest of each (the machine's other work only slows).
    const only = ctx.quick ? ['TOKEN-*'] : [];
    let bare = Infinity;
    let floor = Infinity;
    let full = Infinity;
    let last: Awaited<ReturnType<typeof timedRun>> | null = null;
    let fastestFull: Phases = [];
    let fastestFloor: Phases = [];
    let signInMs = 0;
    for (let round = 0; round < ctx.size(2, 1); round++) {
      bare = Math.min(bare, await bareVitest());
      const one = await timedRun([FLOOR_ONLY]);
      if (one.seconds < floor) [floor, fastestFloor] = [one.seconds, one.phases];
      last = await timedRun(only);
      if (last.seconds < full) [full, fastestFull, signInMs] = [last.seconds, last.phases, last.signInMs];
    }
    const c = last!.counts;
    const testsMs = fastestFull.find((p) => p.name === 'tests')?.ms ?? 0;
    ctx.log(`full run: ${last!.verdict}; ${c.passed ?? 0} passed, ${c.failed ?? 0} failed, ${c.notTested ?? 0} not tested; ${full.toFixed(1)} s against ${floor.toFixed(1)} s for one test and ${bare.toFixed(2)} s for a bare vitest run (${(full / bare).toFixed(1)}x)`);
    ctx.log(`  sign-in screens: their tests add up to ${(signInMs / 1000).toFixed(1)} s, beside a tests phase of ${(testsMs / 1000).toFixed(1)} s`);
    // Where the time went in each (conformance.json's timings, up to the reports; the wall time adds teardown and exit).
    for (const line of phasesSideBySide(fastestFull, fastestFloor)) ctx.log(`  ${line}`);
    return [
      compared(ctx.quick ? 'full-run.token-suite-wall' : 'full-run.wall', { value: full, unit: 's' }, { value: floor, unit: 's', what: `one-test run (--only ${FLOOR_ONLY})` },
        atMost(4), `verdict ${last!.verdict}; phases, full/floor (s): ${phasesNote(fastestFull, fastestFloor)}`),
      compared(ctx.quick ? 'full-run.token-suite-vs-bare-vitest' : 'full-run.vs-bare-vitest', { value: full, unit: 's' }, { value: bare, unit: 's', what: 'a bare vitest run of one trivial test (bench/floor)' }, atMost(4)),
      metric('full-run.sign-in-share', testsMs > 0 ? Math.round((signInMs / testsMs) * 100) : 0, '% of tests phase', null, `the sign-in screens' tests add up to ${(signInMs / 1000).toFixed(1)} s; the tests phase ${(testsMs / 1000).toFixed(1)} s`),
      metric('full-run.requirements-passed', c.passed ?? 0, 'reqs', null),
    ];
  },
};
