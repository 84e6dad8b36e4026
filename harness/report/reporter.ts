/**
 * The lockconf vitest reporter. It reads task.meta.lockconf (harness/run/outcome.ts)
 * from every test case, prints a line per test as it finishes, and at the end:
 *   {runDir}/conformance.json   the verdict file (interfaces.md §3)
 *   {runDir}/index.html         the page a person reads first
 *   {runDir}/allure-report/     unless LOCKCONF_NO_ALLURE=1
 *   reports/latest → the run    for runs under reports/runs/ (not for --out)
 * then a summary table per spec area and the path of index.html.
 *
 * Options come from the constructor (the CLI) or from the environment the CLI
 * sets: LOCKCONF_RUN_DIR, LOCKCONF_SELECTION (JSON list of IDs), LOCKCONF_SEED,
 * LOCKCONF_EXPECT_FILE, LOCKCONF_NO_ALLURE.
 *
 * junit.xml is written here too, from the same result (report/junit.ts): one
 * test case per requirement, so every report counts the same things.
 *
 * No run-context.json means global setup never finished (bad or unreachable
 * target): the reports are written with the verdict `error` (error-report.ts),
 * and the CLI exits 2 instead of judging a target nobody tested.
 */
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { CATALOG, type Requirement } from '../catalog/index.js';
import type { RequirementStatus } from '../run/outcome.js';
import { computeVerdict, idFromTestName, type TestRecord, type VerdictResult } from '../run/verdict.js';
import { rootCauseLines, summaryTable } from './terminal-summary.js';
export { rootCauseLines, summaryTable };
import { ABORTED_NOTE, SYMBOL, declaredIds, defaultRunDir, envList, headline, pointLatest } from './reporter-helpers.js';
export { defaultRunDir, headline, pointLatest };
import { loadExpectFile, type ExpectedDeviations } from '../run/expectations.js';
import { buildResult, readRunContext, toolVersion, type ConformanceResult } from './result-file.js';
import { renderIndexHtml } from './index-html.js';
import { allureCli, generateAllureReport, writeAllureEnvironment } from './allure.js';
import { startAllureGenerator, type AllureGenerator } from './allure-generator.js';
import { consolidateResults } from './allure-consolidate.js';
import { makeScrubber, secretsFromEnv } from './scrub.js';
import { renderJunit } from './junit.js';
import { writeErrorReport } from './error-report.js';
import { notTestedLines, summariseNotTested } from './not-tested-summary.js';
import { runErrorFrom } from './run-error.js';
import { markPhase, runTimings } from './timings.js';
import { DeclarationOrder } from './declaration-order.js';
import { scanSuites } from '../run/selection.js';
import { weakeningSettings, type Weakening } from '../run/weakening.js';
import { VERDICT_LINE, notTestedOutsideScope, scopeText, weakenedText } from './verdict-text.js';
import { currentRunGuard } from '../run/run-guard.js';
import { completeProvenance, runProvenance } from '../provenance/collect.js';

export interface LockconfReporterOptions {
  runDir?: string;
  /** Project root (package.json, reports/, node_modules/.bin/allure). */
  root?: string;
  /** Where reports/latest lives, when not under root (an installed package runs from the user's directory). */
  reportsRoot?: string;
  /** Selected requirement IDs (--only, expanded); null for all. */
  only?: string[] | null;
  seed?: number | null;
  expectFile?: string | null;
  allure?: boolean;
  /** Point reports/latest at the run (default: when the run dir is under reports/runs). */
  updateLatest?: boolean;
  catalog?: readonly Requirement[];
  /** Where lines go (default stdout). */
  print?: (line: string) => void;
  /** How many tests the run is expected to hold (the static scan), for the "n of N" progress. */
  expectedTests?: number | null;
  /** Settings that weakened the run (run/weakening.ts); default: read from the environment when the run starts. */
  weakenedBy?: Weakening[];
  /** True once the run was asked to stop (Ctrl-C, SIGTERM: run/interrupt.ts). */
  interrupted?: () => boolean;
  /** Judge and write nothing when the run ends, until release() (the CLI re-runs the tests that did not finish first). */
  hold?: boolean;
}

/** What the run left for the judgement (held by `hold` until release()). */
interface HeldRun {
  tests: TestRecord[];
  errors: string[];
  reason: TestRunEndReason;
  finishedAt: string;
  context: NonNullable<Awaited<ReturnType<typeof readRunContext>>>;
  allure: boolean;
  updateLatest: boolean;
  interference: string | null;
  guards: ReturnType<NonNullable<NonNullable<ReturnType<typeof currentRunGuard>>['guards']>> | null;
}

export default class LockconfReporter implements Reporter {
  readonly #opts: LockconfReporterOptions;
  #root = process.cwd();
  #runDir = '';
  #startedAt = new Date().toISOString();
  #print: (line: string) => void;
  #scrub: (text: string) => string = makeScrubber(secretsFromEnv());
  #done = 0;
  /** Reasons already printed (digits folded), and how often each came back. */
  #seen = new Map<string, number>();
  /** Set once onTestRunEnd has written the result (for the CLI). */
  result: ConformanceResult | null = null;
  /** The Allure generator started with the run (allure-generator.ts), when Allure is wanted. */
  #allureGenerator: AllureGenerator | null = null;
  /** When the first test started and the last one ended (ms since the process started), for the timings. */
  #firstTestAt: number | null = null;
  #lastTestAt: number | null = null;
  /** The sum of the tests' own durations, and of vitest's import of the suite modules (ms). */
  testsDurationMs: number | null = null;
  collectMs: number | null = null;
  /** Lines of tests that ran side by side, shown in declaration order. */
  #order = new DeclarationOrder();
  /**
   * The suite module that declares each test of a test file that only imports modules
   * (suites/leased.test.ts): `${test file}\0${requirement ID}` → module. The result files
   * name the module, as `--list` and the docs do.
   */
  #declaredIn: Promise<Map<string, string>> = Promise.resolve(new Map());
  #declaredInReady = new Map<string, string>();
  #weakenedBy: Weakening[] = [];
  #held: HeldRun | null = null;

  constructor(opts: LockconfReporterOptions = {}) {
    this.#opts = opts;
    this.#print = opts.print ?? ((line) => process.stdout.write(`${line}\n`));
  }

  onInit(vitest: Vitest): void {
    this.#root = resolve(this.#opts.root ?? vitest.config.root ?? process.cwd());
    this.#startedAt = new Date().toISOString();
    const fromEnv = process.env.LOCKCONF_RUN_DIR;
    this.#runDir = resolve(this.#root, this.#opts.runDir ?? fromEnv ?? defaultRunDir(this.#root));
    // Global setup runs after onInit in this process and reads the same variable.
    process.env.LOCKCONF_RUN_DIR = this.#runDir;
    // Read before global setup sets its own defaults (the CLI reads them before and passes them on).
    this.#weakenedBy = this.#opts.weakenedBy ?? weakeningSettings(process.env, { embeddedMock: !process.env.LOCKCONF_TARGET_FILE && !process.env.LOCKCONF_BASE_URL, selected: this.#opts.only ?? envList(process.env.LOCKCONF_SELECTION) });
    this.#declaredIn = scanSuites(this.#root)
      .then((tests) => new Map(tests.filter((t) => t.file !== t.runFile).map((t) => [`${t.runFile}\0${t.id}`, t.file])))
      .catch(() => new Map());
    // Allure's report core loads while the tests run (allure-generator.ts).
    if (this.#allureWanted()) this.#allureGenerator = startAllureGenerator(dirname(allureCli(this.#root)));
  }

  #allureWanted(): boolean {
    return this.#opts.allure ?? process.env.LOCKCONF_NO_ALLURE !== '1';
  }

  get runDir(): string {
    return this.#runDir;
  }

  onTestCaseReady(): void {
    this.#firstTestAt ??= performance.now();
  }

  /**
   * One line per test as it finishes, with the outcome of the requirement it is
   * declared for (the same outcome the verdict reads), then a line for every
   * other requirement its checks failed or warned: the terminal names the IDs
   * the reports name.
   */
  onTestCaseResult(testCase: TestCase): void {
    this.#lastTestAt = performance.now();
    this.#order.finished(testCase.id, declaredIds(testCase.module), () => this.#printTest(testCase));
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#order.flush(declaredIds(testModule));
  }

  #printTest(testCase: TestCase): void {
    const record = this.#record(testCase);
    const declared = record.meta?.requirement ?? idFromTestName(record.name) ?? '?';
    const own = record.meta?.outcomes.find((o) => o.id === declared);
    const status: RequirementStatus = own?.status ?? (record.state === 'passed' ? 'passed' : record.state === 'failed' ? 'failed' : 'not-tested');
    const title = record.name.slice(declared.length + 1).trim() || record.name;
    const why = status === 'not-tested' ? own?.reason ?? record.note
      : status === 'blocked' ? `blocked by ${(own?.blockedBy ?? []).join(', ')}` : undefined;
    if (this.#opts.hold && (record.meta?.unfinished || (record.state === 'failed' && (record.errors ?? []).some((m) => /\b(?:Test|Hook) timed out in/.test(m))))) {
      // Not judged yet: it runs again alone before the verdict (harness/commands/confirm-timeouts.ts).
      this.#done++;
      const total = this.#opts.expectedTests;
      this.#print(`${total ? `${String(this.#done).padStart(String(total).length)} of ${total}  ` : ''}⧗ unfinished   ${declared.padEnd(32)} ${title}  (did not finish within its timeout: runs again alone before the verdict)`);
      return;
    }
    // Tests filtered out by --only stay quiet; the summary counts them.
    if (status === 'not-tested' && !why && record.state === 'skipped') return;
    // After Ctrl-C vitest marks every test it had not run skipped, those --only left out too: the summary counts them, the progress does not.
    if (record.state === 'skipped' && ABORTED_NOTE.test(record.note ?? '')) return;
    this.#done++;
    const total = this.#opts.expectedTests;
    // The count never runs past the total (a test the static scan did not see is counted without it).
    const progress = total ? (this.#done <= total ? `${String(this.#done).padStart(String(total).length)} of ${total}  ` : `${String(this.#done).padStart(String(total).length)}     ${' '.repeat(String(total).length)}  `) : '';
    this.#print(`${progress}${SYMBOL[status]} ${declared.padEnd(32)} ${title}${why ? `  (${this.#scrub(why)})` : ''}`);
    const indent = ' '.repeat(progress.length + 15);
    if (status === 'failed' || status === 'warned') {
      const first = own?.reason ?? record.errors?.[0];
      if (first) this.#printReason(indent, first);
    }
    for (const other of record.meta?.outcomes ?? []) {
      if (other.id === declared || (other.status !== 'failed' && other.status !== 'warned')) continue;
      this.#print(`${' '.repeat(progress.length)}${SYMBOL[other.status]} ${other.id.padEnd(32)} (checked by ${declared})`);
      if (other.reason) this.#printReason(indent, other.reason);
    }
  }

  /** A reason once in full; the same reason again (numbers aside) as a short reference with its count. */
  #printReason(indent: string, reason: string): void {
    const line = this.#scrub(headline(reason)).slice(0, 240);
    const key = line.replace(/\d+/g, '#');
    const n = (this.#seen.get(key) ?? 0) + 1;
    this.#seen.set(key, n);
    this.#print(n === 1 ? `${indent}${line}` : `${indent}(the same reason as above, ${n} times so far)`);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): Promise<void> {
    const finishedAt = new Date().toISOString();
    if (this.#firstTestAt !== null) markPhase('first-test', this.#firstTestAt);
    if (this.#lastTestAt !== null) markPhase('last-test', this.#lastTestAt);
    markPhase('reports');
    this.#declaredInReady = await this.#declaredIn;
    const context = await readRunContext(this.#runDir);
    const errors = unhandledErrors.map((err) => {
      const code = (err as { code?: unknown }).code;
      return this.#scrub(`${typeof code === 'string' ? `${code}: ` : ''}${String(err.message ?? err)}`);
    });
    const allure = this.#allureWanted();
    const runsDir = join(this.#root, 'reports', 'runs');
    const updateLatest = this.#opts.updateLatest ?? dirname(this.#runDir) === runsDir;
    if (!context) {
      this.#allureGenerator?.cancel();
      // Global setup did not finish: the error reports, and one message (no stack trace).
      const error = runErrorFrom(unhandledErrors, this.#scrub);
      this.result = await writeErrorReport({
        runDir: this.#runDir,
        root: this.#root,
        info: { version: await toolVersion(this.#root), error, startedAt: this.#startedAt, seed: this.#opts.seed ?? null, only: this.#opts.only ?? null, allure, weakenedBy: this.#weakenedBy, ...(this.#opts.catalog ? { catalog: this.#opts.catalog } : {}) },
      });
      if (updateLatest) await pointLatest(this.#opts.reportsRoot ?? this.#root, this.#runDir);
      return;
    }
    const tests: TestRecord[] = [];
    for (const mod of testModules) for (const tc of mod.children.allTests()) tests.push(this.#record(tc));
    this.testsDurationMs = tests.reduce((sum, t) => sum + (t.durationMs ?? 0), 0);
    this.collectMs = Math.round(testModules.reduce((sum, m) => sum + (m.diagnostic().collectDuration ?? 0), 0));
    const interruptedNow = reason === 'interrupted' || (this.#opts.interrupted?.() ?? false);
    // Another run that reset the target meanwhile (run-guard.ts): asked once every test has ended, while the guard stands.
    const interference = interruptedNow ? null : await currentRunGuard()?.interference().catch(() => null) ?? null;
    const guards = currentRunGuard()?.guards?.() ?? null;
    const held: HeldRun = { tests, errors, reason, finishedAt, context, allure, updateLatest, interference, guards };
    if (this.#opts.hold) {
      // The CLI runs the tests that did not finish again first (harness/commands/confirm-timeouts.ts), then release().
      this.#held = held;
      return;
    }
    await this.#judge(held);
  }

  /** With `hold`: the records of the run's tests (null before the run ended, or when it could not start). */
  heldTests(): TestRecord[] | null {
    return this.#held?.tests ?? null;
  }

  /**
   * With `hold`: judge and write the reports, each test of `replacements` (a re-run's record,
   * matched by name) standing in for the run's own.
   */
  async release(replacements: readonly TestRecord[] = []): Promise<void> {
    const held = this.#held;
    if (!held) return;
    this.#held = null;
    const byName = new Map(replacements.map((t) => [t.name, t]));
    await this.#judge({ ...held, tests: held.tests.map((t) => byName.get(t.name) ?? t) });
  }

  async #judge(held: HeldRun): Promise<void> {
    const { tests, errors, reason, finishedAt, context, allure, updateLatest, guards } = held;

    const only = this.#opts.only ?? envList(process.env.LOCKCONF_SELECTION);
    const expectFile = this.#opts.expectFile ?? process.env.LOCKCONF_EXPECT_FILE ?? null;
    let expected: ExpectedDeviations | null = null;
    if (expectFile) {
      try {
        expected = await loadExpectFile(expectFile);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    const catalog = this.#opts.catalog ?? CATALOG;
    const interrupted = reason === 'interrupted' || (this.#opts.interrupted?.() ?? false);
    const interference = interrupted ? null : held.interference;
    const verdict: VerdictResult = computeVerdict({
      catalog, tests, selected: only ? new Set(only) : null, expected, weakenedBy: this.#weakenedBy, interrupted, interference,
    });
    const seedEnv = Number(process.env.LOCKCONF_SEED);
    const result = buildResult({
      version: await toolVersion(this.#root),
      context,
      startedAt: this.#startedAt,
      finishedAt,
      seed: this.#opts.seed ?? context.seed ?? (Number.isFinite(seedEnv) && process.env.LOCKCONF_SEED ? seedEnv : null),
      verdict,
      tests,
      only,
      expectFile,
      guards,
      allure,
      errors: interrupted ? ['the run was interrupted: tests that had not finished are reported not tested', ...errors] : errors,
    });

    const provenance = runProvenance(); // registered by the CLI (harness/provenance/collect.ts)
    if (provenance) result.provenance = completeProvenance(provenance, result);
    await mkdir(this.#runDir, { recursive: true });
    // The Allure drill-down (a child process) is generated while the other reports are written.
    const allureDone = allure ? this.#writeAllure(result, catalog) : Promise.resolve(true);
    const indexPath = join(this.#runDir, 'index.html');
    await writeFileAtomic(indexPath, renderIndexHtml(result));
    await writeFileAtomic(join(this.#runDir, 'junit.xml'), renderJunit(result));
    markPhase('result-files');
    if (!(await allureDone)) {
      // The verdict stands without the drill-down; index.html no longer links to it.
      result.links.allure = null;
      await writeFileAtomic(indexPath, renderIndexHtml(result));
    }

    // Only a run that ended on its own moves reports/latest: an interrupted one leaves the last complete run there.
    const latest = updateLatest && !interrupted;
    if (latest) await pointLatest(this.#opts.reportsRoot ?? this.#root, this.#runDir);
    markPhase('reports-done');
    // conformance.json last: it holds the timings of everything before it.
    const timings = runTimings({ testsDurationMs: this.testsDurationMs, collectMs: this.collectMs });
    if (timings) result.timings = timings;
    await writeFileAtomic(join(this.#runDir, 'conformance.json'), `${JSON.stringify(result, null, 2)}\n`);
    this.result = result;
    this.#printSummary(result, indexPath, latest);
  }

  /** allure-results completed, allure-report/ generated; false (and a line saying why) when it could not be. */
  async #writeAllure(result: ConformanceResult, catalog: readonly Requirement[]): Promise<boolean> {
    try {
      const resultsDir = join(this.#runDir, 'allure-results');
      await mkdir(resultsDir, { recursive: true });
      await consolidateResults(resultsDir, result, catalog);
      await writeAllureEnvironment(resultsDir, result);
      markPhase('allure-results');
      await generateAllureReport({ runDir: this.#runDir, root: this.#root, generator: this.#allureGenerator });
      markPhase('allure-report');
      return true;
    } catch (err) {
      this.#allureGenerator?.cancel();
      this.#print(`lockconf: the Allure report could not be generated: ${this.#scrub((err as Error).message).split('\n')[0]}`);
      return false;
    }
  }

  #record(tc: TestCase): TestRecord {
    const r = tc.result();
    const meta = tc.meta().lockconf;
    const file = relative(this.#root, tc.module.moduleId).split('\\').join('/');
    const id = meta?.requirement ?? idFromTestName(tc.name);
    const record: TestRecord = {
      name: tc.name,
      file: (id && this.#declaredInReady.get(`${file}\0${id}`)) || file,
      state: r.state,
      ...(meta ? { meta } : {}),
    };
    if (r.state === 'skipped' && r.note) record.note = this.#scrub(r.note);
    if (r.state === 'failed') record.errors = r.errors.map((err) => this.#scrub(err.message ?? String(err)));
    const d = tc.diagnostic();
    if (d) record.durationMs = Math.round(d.duration);
    return record;
  }

  #printSummary(result: ConformanceResult, indexPath: string, latest: boolean): void {
    const c = result.counts;
    const lines = ['', summaryTable(result), ''];
    lines.push(`verdict: ${VERDICT_LINE[result.verdict]}`);
    for (const line of [scopeText(result), weakenedText(result), result.interference]) if (line) lines.push(`  ${line}`);
    const outside = notTestedOutsideScope(result);
    lines.push(`${c.passed} passed, ${c.failed} failed${c.expectedFailures ? ` (${c.expectedFailures} expected)` : ''}, ${c.warned} warned, ${c.blocked ? `${c.blocked} blocked, ` : ''}${c.notTested} not tested, ${c.informational} informational${outside ? ` (${outside} of the not tested are outside the scope)` : ''}`);
    lines.push(...rootCauseLines(result.requirements));
    const catalog = this.#opts.catalog ?? CATALOG;
    lines.push(...notTestedLines(summariseNotTested(result.requirements, new Set(catalog.filter((r) => r.untestable).map((r) => r.id)))));
    if (result.expect?.stale.length) lines.push(`stale --expect entries (now passing): ${result.expect.stale.join(', ')}`);
    lines.push(`report: ${indexPath}${latest ? `  (also ${join(this.#opts.reportsRoot ?? this.#root, 'reports', 'latest', basename(indexPath))})` : ''}`);
    this.#print(lines.join('\n'));
  }
}
