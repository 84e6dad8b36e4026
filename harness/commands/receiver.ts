/**
 * `conformance --receiver URL`: a run of the receiver suites (suites/receiver/)
 * against an application's webhook endpoint (interfaces.md §4). The signing and
 * registration values come from LOCKCONF_* variables or the --target file
 * (harness/receiver/settings.ts); the reports are those of any run: the same
 * reporter, junit and Allure, judged against the receiver requirements only.
 * A missing API key or an unreachable receiver stops the run before vitest
 * starts (exit 2, one message).
 */
import { randomInt } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RECEIVER_CATALOG } from '../catalog/index.js';
import LockconfReporter, { defaultRunDir } from '../report/reporter.js';
import { assertReceiverReachable } from '../receiver/reachability.js';
import { loadReceiverSettings } from '../receiver/settings.js';
import { loadExpectFile } from '../run/expectations.js';
import { expandSelection, formatList, scanSuites } from '../run/selection.js';
import { readVerdict, runVitestProject } from './vitest-project.js';
import { EXIT, ROOT, WORK_ROOT, clearRunDir, exitCodeFor } from './common.js';
import LockconfAllureReporter from '../report/allure-vitest-reporter.js';
import { InterruptOnSignal } from '../run/interrupt.js';
import { claimRunDir } from './run-dir.js';
import { runDirOf, userPath } from './user-paths.js';

export interface ReceiverCommandOptions {
  receiver?: string;
  target?: string;
  only?: string[];
  seed?: number;
  out?: string;
  expect?: string;
  list?: boolean;
  allure: boolean;
  strict?: boolean;
  /** A partial run is acceptable: an incomplete verdict exits 0. */
  allowIncomplete?: boolean;
}

const SUITES = 'suites/receiver/';

async function receiverTests() {
  return (await scanSuites(ROOT)).filter((t) => t.file.split('\\').join('/').startsWith(SUITES));
}

export async function receiverCommand(opts: ReceiverCommandOptions): Promise<number> {
  const only = opts.only?.length ? expandSelection(opts.only, RECEIVER_CATALOG) : null;
  if (opts.list) {
    process.stdout.write(`${formatList({ catalog: RECEIVER_CATALOG, tests: await receiverTests(), selected: only ? new Set(only) : null })}\n`);
    return EXIT.OK;
  }

  // Everything that can be wrong with the invocation is found before vitest starts.
  const targetFile = opts.target ? userPath(opts.target) : null;
  const settings = await loadReceiverSettings({ url: opts.receiver ?? '', explicit: true, env: process.env, file: targetFile });
  const expectFile = opts.expect ? userPath(opts.expect) : null;
  if (expectFile) await loadExpectFile(expectFile);
  await assertReceiverReachable(settings.url);

  const allure = opts.allure && process.env.LOCKCONF_NO_ALLURE !== '1';
  const runDir = runDirOf(opts.out, () => defaultRunDir(WORK_ROOT)); // reports in the user's folder, not under node_modules
  const release = await claimRunDir(runDir); // this run alone writes there (run-dir.ts)
  try {
    return await carryOut(opts, { only, runDir, allure, settings, targetFile, expectFile });
  } finally {
    await release();
  }
}

async function carryOut(
  opts: ReceiverCommandOptions,
  run: { only: string[] | null; runDir: string; allure: boolean; settings: { url: string }; targetFile: string | null; expectFile: string | null },
): Promise<number> {
  const { only, runDir, allure, settings, targetFile, expectFile } = run;
  await mkdir(runDir, { recursive: true });
  await clearRunDir(runDir);
  const seed = opts.seed ?? randomInt(0, 2 ** 31);

  process.env.LOCKCONF_RECEIVER_URL = settings.url;
  process.env.LOCKCONF_RECEIVER_EXPLICIT = '1';
  process.env.LOCKCONF_RUN_DIR = runDir;
  process.env.LOCKCONF_SEED = String(seed);
  if (targetFile) process.env.LOCKCONF_TARGET_FILE = targetFile;
  if (only) process.env.LOCKCONF_SELECTION = JSON.stringify(only);
  else delete process.env.LOCKCONF_SELECTION;
  if (expectFile) process.env.LOCKCONF_EXPECT_FILE = expectFile;
  if (!allure) process.env.LOCKCONF_NO_ALLURE = '1';

  // The service's weakening settings do not touch a receiver run; --only still makes it partial. Ctrl-C: interrupted, with reports.
  const interrupt = new InterruptOnSignal();
  const reporter = new LockconfReporter({
    runDir, root: ROOT, reportsRoot: WORK_ROOT, only, seed, expectFile, allure, updateLatest: !opts.out, catalog: RECEIVER_CATALOG, weakenedBy: [], interrupted: () => interrupt.interrupted,
  });
  // junit.xml is written by the lockconf reporter, from the same result as the other reports.
  const reporters: unknown[] = [interrupt];
  if (allure) reporters.push(new LockconfAllureReporter({ resultsDir: join(runDir, 'allure-results') }));
  reporters.push(reporter); // last: the others have written their files when it runs

  process.stdout.write(`lockconf: receiver conformance run against ${settings.url} → ${runDir} (seed ${seed}${only ? `, ${only.length} requirement(s) selected` : ''})\n`);
  const wanted = new Set(only ?? []);
  const files = only ? [...new Set((await receiverTests()).filter((t) => wanted.has(t.id)).map((t) => t.file))] : [];
  try {
    await runVitestProject({ project: 'receiver', files, reporters, only });
  } finally {
    interrupt.dispose();
  }

  const verdict = await readVerdict(reporter, runDir);
  if (verdict === null) {
    process.stderr.write('lockconf: the run could not be carried out: no conformance.json was written (see the error above).\n');
    return EXIT.NOT_CARRIED_OUT;
  }
  return exitCodeFor(verdict, opts.allowIncomplete);
}
