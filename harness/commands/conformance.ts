/**
 * `conformance`: a run of the suites against a target (the embedded mock by
 * default), its reporters, and the exit code its verdict earns. Everything that
 * can be wrong with the invocation is found before vitest starts.
 */
import { randomInt } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadExpectFile } from '../run/expectations.js';
import { loadProfile } from '../service/profile.js';
import { SERVICE_CATALOG } from '../catalog/index.js';
import LockconfReporter, { defaultRunDir } from '../report/reporter.js';
import type { ConformanceResult } from '../report/result-file.js';
import { expandSelection, formatList, scanSuites, testNamePattern } from '../run/selection.js';
import { EXIT, ROOT, UsageFailure } from './common.js';
import { receiverCommand } from './receiver.js';

export interface ConformanceOptions {
  target?: string;
  only?: string[];
  seed?: number;
  out?: string;
  expect?: string;
  list?: boolean;
  allure: boolean;
  strict?: boolean;
  /** --receiver URL: test an application's webhook receiver instead (harness/commands/receiver.ts). */
  receiver?: string;
}

/** The exit code a finished run earns. */
export function exitCodeFor(verdict: ConformanceResult['verdict'] | null, strict = false): number {
  if (verdict === null) return EXIT.NOT_CARRIED_OUT;
  if (verdict === 'not-conformant') return EXIT.NOT_CONFORMANT;
  if (verdict === 'incomplete' && strict) return EXIT.NOT_CONFORMANT;
  return EXIT.OK;
}

async function listCommand(opts: ConformanceOptions): Promise<number> {
  const selected = opts.only?.length ? new Set(expandSelection(opts.only, SERVICE_CATALOG)) : null;
  const tests = await scanSuites(ROOT);
  process.stdout.write(`${formatList({ catalog: SERVICE_CATALOG, tests: tests.filter((t) => SERVICE_CATALOG.some((r) => r.id === t.id)), selected })}\n`);
  return EXIT.OK;
}

/** Remove what a previous run left in the directory, so nothing stale is read as this run's result. */
async function clearRunDir(runDir: string): Promise<void> {
  for (const name of ['conformance.json', 'index.html', 'junit.xml', 'run-context.json', 'allure-results', 'allure-report']) {
    await rm(join(runDir, name), { recursive: true, force: true });
  }
}

export async function conformanceCommand(opts: ConformanceOptions): Promise<number> {
  if (opts.receiver !== undefined) return receiverCommand(opts);
  if (opts.list) return listCommand(opts);

  // Everything that can be wrong with the invocation is found before vitest starts.
  const only = opts.only?.length ? expandSelection(opts.only, SERVICE_CATALOG) : null;
  const targetFile = opts.target ? resolve(opts.target) : null;
  if (targetFile) {
    try {
      await stat(targetFile);
    } catch {
      throw new UsageFailure(`--target ${opts.target}: no such file`);
    }
  }
  await loadProfile({ file: targetFile, env: process.env }); // throws ERR_PROFILE_INVALID naming the field
  if (process.env.LOCKCONF_MOCK_OPTIONS) {
    try {
      JSON.parse(process.env.LOCKCONF_MOCK_OPTIONS);
    } catch {
      throw new UsageFailure('LOCKCONF_MOCK_OPTIONS is not valid JSON');
    }
  }
  const expectFile = opts.expect ? resolve(opts.expect) : null;
  if (expectFile) await loadExpectFile(expectFile);

  // --no-allure, or LOCKCONF_NO_ALLURE=1 in the environment (CI without the drill-down).
  const allure = opts.allure && process.env.LOCKCONF_NO_ALLURE !== '1';
  const runDir = opts.out ? resolve(opts.out) : defaultRunDir(ROOT);
  await mkdir(runDir, { recursive: true });
  await clearRunDir(runDir);
  const seed = opts.seed ?? randomInt(0, 2 ** 31);

  process.env.LOCKCONF_RUN_DIR = runDir;
  process.env.LOCKCONF_SEED = String(seed);
  if (targetFile) process.env.LOCKCONF_TARGET_FILE = targetFile;
  if (only) process.env.LOCKCONF_SELECTION = JSON.stringify(only);
  else delete process.env.LOCKCONF_SELECTION;
  if (expectFile) process.env.LOCKCONF_EXPECT_FILE = expectFile;
  if (!allure) process.env.LOCKCONF_NO_ALLURE = '1';

  const reporter = new LockconfReporter({
    runDir,
    root: ROOT,
    only,
    seed,
    expectFile,
    allure,
    updateLatest: !opts.out,
    catalog: SERVICE_CATALOG,
  });
  const reporters: unknown[] = [
    ['junit', { suiteName: 'lockconf conformance', includeConsoleOutput: false, addFileAttribute: true }],
  ];
  if (allure) reporters.push(['allure-vitest/reporter', { resultsDir: join(runDir, 'allure-results') }]);
  reporters.push(reporter); // last: the others have written their files when it runs

  process.stdout.write(`lockconf: conformance run → ${runDir} (seed ${seed}${only ? `, ${only.length} requirement(s) selected` : ''})\n`);
  // With --only, vitest loads just the suite files that declare a selected requirement:
  // the test-name filter alone would still import and set up every file.
  const files = only ? await suiteFilesFor(only) : [];
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest(
    'test',
    files,
    {
      root: ROOT,
      config: join(ROOT, 'vitest.config.ts'),
      project: ['conformance'],
      run: true,
      watch: false,
      reporters: reporters as never,
      outputFile: { junit: join(runDir, 'junit.xml') },
      ...(only ? { testNamePattern: testNamePattern(only) } : {}),
    },
  );
  await vitest?.close();

  let verdict: ConformanceResult['verdict'] | null = reporter.result?.verdict ?? null;
  if (!verdict) {
    try {
      verdict = (JSON.parse(await readFile(join(runDir, 'conformance.json'), 'utf8')) as ConformanceResult).verdict;
    } catch {
      verdict = null;
    }
  }
  if (verdict === null) {
    process.stderr.write('lockconf: the run could not be carried out: no conformance.json was written (see the error above).\n');
  } else if (verdict === 'incomplete') {
    process.stdout.write(
      opts.strict
        ? 'lockconf: incomplete: some MUST requirements were not tested (--strict: exit 1).\n'
        : 'lockconf: incomplete: nothing failed, but some MUST requirements were not tested (exit 0; --strict makes this exit 1).\n',
    );
  }
  return exitCodeFor(verdict, opts.strict);
}

/** The suite files (relative paths) that declare a test for one of the IDs; [] (every file) when none does. */
async function suiteFilesFor(ids: readonly string[]): Promise<string[]> {
  const wanted = new Set(ids);
  return [...new Set((await scanSuites(ROOT)).filter((t) => wanted.has(t.id)).map((t) => t.file))];
}

