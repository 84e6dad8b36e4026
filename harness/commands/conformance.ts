/**
 * `conformance`: a run of the suites against a target (the embedded mock by
 * default), its reporters, and the exit code its verdict earns. Everything that
 * can be wrong with the invocation is found before vitest starts.
 */
import { randomInt } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ExpectFileError, loadExpectFile } from '../run/expectations.js';
import { loadProfile } from '../service/profile.js';
import { SERVICE_CATALOG } from '../catalog/index.js';
import LockconfReporter, { defaultRunDir } from '../report/reporter.js';
import { LockconfError, isLockconfError } from '../run/errors.js';
import { chooseTarget, explainProfileError } from '../service/target-choice.js';
import { preflight } from '../service/preflight.js';
import { failRun, vitestStderr } from './run-failure.js';
import { setupErrorFromOutput } from '../report/run-error.js';
import { SelectionError, expandSelection, formatList, scanSuites } from '../run/selection.js';
import { readVerdict, runVitestProject } from './vitest-project.js';
import { startSharedBrowser, stopSharedBrowser } from '../sandbox/shared-browser.js';
import { EXIT, ROOT, WORK_ROOT, clearRunDir, exitCodeFor } from './common.js';
import { clearMarks, markPhase, runTimings, timingsLine, timingsTable } from '../report/timings.js';
import { describeWeakenings, weakeningSettings } from '../run/weakening.js';
import { leaseWaitMs } from '../service/target-lease.js';
import { claimRunDir } from './run-dir.js';
import { InterruptOnSignal } from '../run/interrupt.js';
import type { TestRecord } from '../run/verdict.js';
import { PROJECT_TEST_TIMEOUT_MS, testTimeoutScale, confirmationDir, confirmationScope, confirmationSettings, confirmedRecords, unfinishedTests, withEnv } from './confirm-timeouts.js';

export { exitCodeFor };
import { receiverCommand } from './receiver.js';
import LockconfAllureReporter from '../report/allure-vitest-reporter.js';
import { namedPath, runDirOf, userPath } from './user-paths.js';

export interface ConformanceOptions {
  target?: string;
  only?: string[];
  seed?: number;
  /** --explore N or DURATION: the exploration's budget (LOCKCONF_EXPLORE, read by suites/explore). */
  explore?: string;
  out?: string;
  expect?: string;
  list?: boolean;
  allure: boolean;
  /** Accepted for compatibility; incomplete fails the run unless allowIncomplete. */
  strict?: boolean;
  /** --receiver URL: test an application's webhook receiver instead (harness/commands/receiver.ts). */
  receiver?: string;
  /** A partial run is acceptable: an incomplete verdict exits 0. */
  allowIncomplete?: boolean;
  /** --timings: where the run's time went, a phase a line (otherwise one line). */
  timings?: boolean;
  /** --no-sign-in (false): the sign-in screens are left out, as LOCKCONF_SIGN_IN=off does. */
  signIn?: boolean;
}


async function listCommand(opts: ConformanceOptions): Promise<number> {
  const selected = opts.only?.length ? new Set(expandSelection(opts.only, SERVICE_CATALOG)) : null;
  const tests = await scanSuites(ROOT);
  process.stdout.write(`${formatList({ catalog: SERVICE_CATALOG, tests: tests.filter((t) => SERVICE_CATALOG.some((r) => r.id === t.id)), selected })}\n`);
  return EXIT.OK;
}


export async function conformanceCommand(opts: ConformanceOptions): Promise<number> {
  if (opts.receiver !== undefined) return receiverCommand(opts);
  if (opts.list) return listCommand(opts);
  clearMarks(); // a second run in the same process starts afresh
  markPhase('cli');

  // Everything that can be wrong with the invocation is found before vitest starts.
  let only: string[] | null = null;
  let selectionError: string | null = null;
  try {
    only = opts.only?.length ? expandSelection(opts.only, SERVICE_CATALOG) : null;
  } catch (err) {
    if (!(err instanceof SelectionError)) throw err;
    selectionError = err.message; // reported as exit 2 with the report files, once the run folder is ours
  }
  const runDir = runDirOf(opts.out, () => defaultRunDir(WORK_ROOT));
  // This run alone writes into runDir (run-dir.ts); another live run there is refused (exit 2).
  const release = await claimRunDir(runDir);
  try {
    return await carryOut(opts, only, runDir, selectionError);
  } finally {
    await release();
  }
}

async function carryOut(opts: ConformanceOptions, only: string[] | null, runDir: string, selectionError: string | null): Promise<number> {
  const targetFile = opts.target ? userPath(opts.target) : null;
  const startedAt = new Date().toISOString();
  // --no-allure, or LOCKCONF_NO_ALLURE=1 in the environment (CI without the drill-down).
  const allure = opts.allure && process.env.LOCKCONF_NO_ALLURE !== '1';
  const seed = opts.seed ?? randomInt(0, 2 ** 31);
  const choice = chooseTarget(targetFile, process.env);
  if (opts.signIn === false) process.env.LOCKCONF_SIGN_IN = 'off'; // read by the suites' workers and the reporter
  // Read now, before global setup sets its own defaults: the settings that make this run no certificate.
  const weakenedBy = weakeningSettings(process.env, { embeddedMock: choice.kind === 'mock', selected: only });
  const fail = (err: unknown, target: { authUrl: string | null; baseUrl: string | null; mock: boolean } | null = null) =>
    failRun(err, { runDir, root: ROOT, reportsRoot: WORK_ROOT, allure, updateLatest: !opts.out, startedAt, seed, only, target, clear: clearRunDir, weakenedBy, catalog: SERVICE_CATALOG });
  // A bad option ends like every run that cannot be carried out: exit 2 with the report files.
  const badOption = (message: string) => fail(new LockconfError('ERR_USAGE', message));
  if (selectionError !== null) return badOption(selectionError);

  try {
    leaseWaitMs(process.env); // a malformed LOCKCONF_LEASE_WAIT_MS stops the run before any test
  } catch (err) {
    if (isLockconfError(err)) return fail(err);
    throw err;
  }
  if (targetFile) {
    try {
      await stat(targetFile);
    } catch {
      return badOption(`--target ${namedPath(opts.target!, targetFile)}: no such file`);
    }
  }
  process.stdout.write(`lockconf: ${choice.description}\n`);
  let profile;
  try {
    profile = await loadProfile({ file: targetFile, env: process.env }); // throws ERR_PROFILE_INVALID naming the field
  } catch (err) {
    if (isLockconfError(err)) return fail(explainProfileError(err, choice));
    throw err;
  }
  if (profile) {
    try {
      await preflight(profile, { choice, env: process.env, log: (line) => process.stdout.write(`lockconf: ${line}\n`) });
    } catch (err) {
      if (isLockconfError(err)) return fail(err, { authUrl: profile.authUrl, baseUrl: profile.baseUrl, mock: false });
      throw err;
    }
  }
  if (process.env.LOCKCONF_MOCK_OPTIONS) {
    try {
      JSON.parse(process.env.LOCKCONF_MOCK_OPTIONS);
    } catch {
      return badOption('LOCKCONF_MOCK_OPTIONS is not valid JSON');
    }
  }
  const expectFile = opts.expect ? userPath(opts.expect) : null;
  if (expectFile) {
    try {
      await loadExpectFile(expectFile);
    } catch (err) {
      if (err instanceof ExpectFileError) return badOption(err.message);
      throw err;
    }
  }

  await mkdir(runDir, { recursive: true });
  await clearRunDir(runDir);

  process.env.LOCKCONF_RUN_DIR = runDir;
  process.env.LOCKCONF_SEED = String(seed);
  if (opts.explore) process.env.LOCKCONF_EXPLORE = opts.explore;
  if (targetFile) process.env.LOCKCONF_TARGET_FILE = targetFile;
  if (only) process.env.LOCKCONF_SELECTION = JSON.stringify(only);
  else delete process.env.LOCKCONF_SELECTION;
  if (expectFile) process.env.LOCKCONF_EXPECT_FILE = expectFile;
  if (!allure) process.env.LOCKCONF_NO_ALLURE = '1';

  // Ctrl-C: the tests in progress end, the reports of what ran are written (interrupt.ts).
  const interrupt = new InterruptOnSignal();
  const confirmInterrupt = new InterruptOnSignal(); // the confirming run's (confirm-timeouts.ts)
  const reporter = new LockconfReporter({
    runDir,
    root: ROOT,
    reportsRoot: WORK_ROOT,
    only,
    seed,
    expectFile,
    allure,
    updateLatest: !opts.out,
    catalog: SERVICE_CATALOG,
    expectedTests: await expectedTestCount(only),
    weakenedBy,
    interrupted: () => interrupt.interrupted || confirmInterrupt.interrupted,
    hold: true, // the tests that did not finish run again before the judgement (confirm-timeouts.ts)
  });
  // junit.xml is written by the lockconf reporter, from the same result as the other reports.
  const reporters: unknown[] = [interrupt];
  if (allure) reporters.push(new LockconfAllureReporter({ resultsDir: join(runDir, 'allure-results') }));
  reporters.push(reporter); // last: the others have written their files when it runs

  process.stdout.write(`lockconf: conformance run → ${runDir} (seed ${seed}${only ? `, ${only.length} of ${SERVICE_CATALOG.length} requirements in scope` : ''})\n`);
  if (weakenedBy.length) process.stdout.write(`lockconf: weakened by ${describeWeakenings(weakenedBy)}: the verdict can be partial at best\n`);
  // With --only, vitest loads just the suite files that declare a selected requirement:
  // the test-name filter alone would still import and set up every file.
  const files = only ? await suiteFilesFor(only) : [];
  const stderr = vitestStderr();
  markPhase('vitest');
  // The sign-in screens' Chromium starts beside vitest's own start (global setup waits for it).
  startSharedBrowser(process.env);
  try {
    const scale = testTimeoutScale(process.env); // the tests' own timeouts are scaled in harness/service/conformance.ts
    await runVitestProject({ project: 'conformance', files, reporters, only, stderr: stderr.stream, ...(scale !== 1 ? { options: { testTimeout: Math.max(1, Math.round(PROJECT_TEST_TIMEOUT_MS * scale)) } } : {}) });
  } finally {
    interrupt.dispose();
    await stopSharedBrowser();
  }
  // The tests that did not finish run again, alone and at full strictness, before anything is judged.
  const unfinished = interrupt.interrupted ? [] : unfinishedTests(reporter.heldTests() ?? []);
  const replacements = unfinished.length ? await confirmUnfinished(unfinished, { runDir, seed, interrupt: confirmInterrupt, stderr: stderr.stream }) : [];
  await reporter.release(replacements);
  markPhase('closed');

  const verdict = await readVerdict(reporter, runDir);
  const error = reporter.result?.error;
  if (verdict === 'error' && error?.code === 'ERR_SETUP_FAILED' && /reported no error/.test(error.message)) {
    // Global setup threw: vitest printed the error instead of reporting it. Its message, once, in every report.
    const printed = setupErrorFromOutput(stderr.text());
    if (printed) return fail(Object.assign(new Error(printed.message), { code: printed.code }));
  }
  if (verdict === null || verdict === 'error') {
    // One message, no stack trace: vitest's own account of the failure is left out.
    process.stderr.write(`lockconf: ${error ? `${error.code}: ${error.message}` : `the run could not be carried out; vitest said:\n${stderr.text()}`}\n`);
    if (error) process.stderr.write(`lockconf: report: ${join(runDir, 'index.html')}\n`);
  } else {
    stderr.flush(process.stderr);
    const note = VERDICT_EXIT_NOTE[verdict];
    if (note) process.stdout.write(`lockconf: ${note}\n`);
    if (verdict === 'incomplete') {
      process.stdout.write(
        opts.allowIncomplete
          ? 'lockconf: incomplete: nothing failed, but some MUST requirements were not tested (exit 0: --allow-incomplete).\n'
          : 'lockconf: incomplete: nothing failed, but some MUST requirements were not tested: exit 1 (--allow-incomplete accepts a partial run).\n',
      );
    }
  }
  const timings = runTimings({ testsDurationMs: reporter.testsDurationMs, collectMs: reporter.collectMs });
  if (timings && verdict !== null && verdict !== 'error') process.stdout.write(`${opts.timings ? `timings:\n${timingsTable(timings)}` : timingsLine(timings)}\n`);
  return exitCodeFor(verdict, opts.allowIncomplete);
}

/**
 * Runs the tests that did not finish again, alone and at full strictness (confirm-timeouts.ts),
 * and returns the records that stand in for theirs. Its own reporter judges nothing.
 */
async function confirmUnfinished(
  unfinished: TestRecord[],
  run: { runDir: string; seed: number; interrupt: InterruptOnSignal; stderr: NodeJS.WritableStream },
): Promise<TestRecord[]> {
  const scope = confirmationScope(unfinished);
  const settings = confirmationSettings(process.env);
  process.stdout.write(
    `lockconf: ${unfinished.length} test${unfinished.length === 1 ? '' : 's'} did not finish within ${unfinished.length === 1 ? 'its' : 'their'} timeout (${scope.join(', ')}): ` +
      `running ${unfinished.length === 1 ? 'it' : 'them'} again alone, timeouts × ${settings.timeoutScale}, deliveries waited for ${settings.deliveryWaitMs} ms, before judging\n`,
  );
  const dir = confirmationDir(run.runDir);
  await mkdir(dir, { recursive: true });
  const restore = withEnv(process.env, { ...settings.env, LOCKCONF_RUN_DIR: dir, LOCKCONF_SELECTION: JSON.stringify(scope), LOCKCONF_NO_ALLURE: '1' });
  const rerun = new LockconfReporter({ runDir: dir, root: ROOT, reportsRoot: WORK_ROOT, only: scope, seed: run.seed, allure: false, updateLatest: false, catalog: SERVICE_CATALOG, expectedTests: unfinished.length, weakenedBy: [], hold: true, interrupted: () => run.interrupt.interrupted });
  startSharedBrowser(process.env);
  try {
    await runVitestProject({ project: 'conformance', files: await suiteFilesFor(scope), reporters: [run.interrupt, rerun], only: scope, stderr: run.stderr as never, options: { testTimeout: settings.testTimeoutMs } });
  } finally {
    run.interrupt.dispose();
    restore();
    await stopSharedBrowser();
  }
  if (run.interrupt.interrupted) return [];
  return confirmedRecords(unfinished, rerun.heldTests() ?? [], settings);
}

/** What the exit code of a verdict means, where it is not plain. */
const VERDICT_EXIT_NOTE: Partial<Record<string, string>> = {
  partial: 'partial: everything in scope passed (exit 0); the run was narrowed or weakened, so it certifies nothing beyond its scope.',
  interrupted: 'interrupted: the reports hold what ran before the stop (exit 1).',
  interfered: 'interfered: someone else reset the target during the run; run again when nothing else uses it (exit 1).',
};

/** How many tests the selection holds (static scan), for the progress count. */
async function expectedTestCount(only: readonly string[] | null): Promise<number> {
  const wanted = new Set(only ?? SERVICE_CATALOG.map((r) => r.id));
  return (await scanSuites(ROOT)).filter((t) => wanted.has(t.id)).length;
}

/** The suite files (relative paths) that run a test for one of the IDs; [] (every file) when none does. */
async function suiteFilesFor(ids: readonly string[]): Promise<string[]> {
  const wanted = new Set(ids);
  return [...new Set((await scanSuites(ROOT)).filter((t) => wanted.has(t.id)).map((t) => t.runFile))];
}

