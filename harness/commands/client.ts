/**
 * `conformance --client`: grade an application's OAuth client from what the
 * grading mock (`npm run mock -- --grade`) recorded of it, after lockconf's
 * probes (when the profile names the application's connectUrl). Same reporters,
 * result files and exit codes as a run against the service; the catalog is the
 * CLIENT- requirements. The profile defaults to the running mock's
 * .lockconf/mock-target.json.
 */
import { randomInt } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { request } from 'undici';
import { installDispatcher } from '../wire/dispatcher.js';
import { join, resolve } from 'node:path';
import { CLIENT_CATALOG } from '../catalog/index.js';
import LockconfReporter, { defaultRunDir } from '../report/reporter.js';
import { expandSelection } from '../run/selection.js';
import { loadProfile } from '../service/profile.js';
import { readVerdict, runVitestProject } from './vitest-project.js';
import { EXIT, ROOT, UsageFailure, WORK_ROOT, clearRunDir, exitCodeFor } from './common.js';
import type { ConformanceOptions } from './conformance.js';
import LockconfAllureReporter from '../report/allure-vitest-reporter.js';
import { InterruptOnSignal } from '../run/interrupt.js';
import { claimRunDir } from './run-dir.js';
import { lockconfCommand } from './command-style.js';
import { namedPath, runDirOf, userPath } from './user-paths.js';
import { driverChoice } from '../client/driver-choice.js';
import { chromiumPath } from '../client/drivers/chromium-path.js';
import { probeWeakening } from '../client/probe-selection.js';
import type { Weakening } from '../run/weakening.js';

// The harness's pool: an idle connection dropped before the application or the mock closes it (wire/dispatcher.ts).
installDispatcher();

export const DEFAULT_CLIENT_TARGET = '.lockconf/mock-target.json';

export async function clientCommand(opts: ConformanceOptions & { browser?: boolean }): Promise<number> {
  if (opts.expect) throw new UsageFailure('--expect is for runs against the service; a client run has no known deviations');
  const only = opts.only?.length ? expandSelection(opts.only, CLIENT_CATALOG) : null;
  // The user's folder, never the package's (node_modules/lockconf when installed): where the mock wrote its profile.
  const targetFile = opts.target ? userPath(opts.target) : userPath(process.env.LOCKCONF_TARGET_FILE ?? join(WORK_ROOT, DEFAULT_CLIENT_TARGET));
  try {
    await stat(targetFile);
  } catch {
    throw new UsageFailure(opts.target
      ? `--target ${namedPath(opts.target, targetFile)}: no such file`
      : `no grading mock profile at ${targetFile}: start the mock with ${lockconfCommand('mock', '--grade')} (or name a profile with --target)`);
  }
  const profile = await loadProfile({ file: targetFile, env: process.env }); // throws ERR_PROFILE_INVALID naming the field
  if (opts.browser) process.env.LOCKCONF_DRIVER = 'chromium';
  const { driver, browser } = await driverChoice(targetFile, process.env); // the browser section, checked before any run
  if (driver === 'chromium') chromiumPath(browser, process.env); // no Chromium: exit 2, saying how to install it
  const weakenedBy = (() => { // a probe family of LOCKCONF_CLIENT_PROBES that does not exist: exit 2, naming the families
    try { return probeWeakening(process.env.LOCKCONF_CLIENT_PROBES); } catch (err) { throw new UsageFailure((err as Error).message); }
  })();
  if (opts.list) {
    process.stdout.write(`${CLIENT_CATALOG.map((r) => `${r.id.padEnd(32)} ${r.level.padEnd(6)} ${r.section}`).join('\n')}\n`);
    return EXIT.OK;
  }

  const named = opts.target ?? process.env.LOCKCONF_TARGET_FILE;
  if (!named) process.stderr.write(`lockconf: grading the client of the mock whose profile is ${targetFile} (name another with --target)\n`);
  if (profile) await ensureGradingMock(profile, targetFile, !named);

  const allure = opts.allure && process.env.LOCKCONF_NO_ALLURE !== '1';
  const runDir = runDirOf(opts.out, () => defaultRunDir(WORK_ROOT)); // reports in the user's folder, not under node_modules
  const release = await claimRunDir(runDir); // this run alone writes there (run-dir.ts)
  try {
    return await grade(opts, { only, runDir, allure, targetFile, driver, weakenedBy });
  } finally {
    await release();
  }
}

/**
 * The profile's grading mock must be running and grading: a profile whose mock has
 * stopped (a stale file), or whose address another mock now holds, is refused with the
 * file it came from, before any probe; never graded against whichever mock answers.
 */
async function ensureGradingMock(profile: { controlUrl?: string | null; controlToken?: string | null }, file: string, defaulted: boolean): Promise<void> {
  if (!profile.controlUrl || !profile.controlToken) return; // the run reports the missing fields itself
  const which = defaulted ? `the default profile ${file}` : file;
  let status: number;
  try {
    const res = await request(`${profile.controlUrl}/grading?clientId=${encodeURIComponent('-')}`, {
      headers: { 'x-control-token': profile.controlToken }, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(15_000),
    });
    await res.body.dump();
    status = res.statusCode;
  } catch {
    throw new UsageFailure(`${which} names a grading mock at ${profile.controlUrl} that is not running (a stale profile?): start it with ${lockconfCommand('mock', '--grade')}, or name the running mock's profile with --target`);
  }
  if (status === 401) throw new UsageFailure(`${which}: the mock at ${profile.controlUrl} refuses its control token: another mock holds that address now (a stale profile?); name the running mock's profile with --target`);
  if (status === 404) throw new UsageFailure(`${which}: the mock at ${profile.controlUrl} does not grade: start it with ${lockconfCommand('mock', '--grade')}`);
}

async function grade(opts: ConformanceOptions, run: { only: string[] | null; runDir: string; allure: boolean; targetFile: string; driver: 'http' | 'chromium'; weakenedBy: Weakening[] }): Promise<number> {
  const { only, runDir, allure, targetFile, weakenedBy } = run;
  await mkdir(runDir, { recursive: true });
  await clearRunDir(runDir);
  const seed = opts.seed ?? randomInt(0, 2 ** 31);
  process.env.LOCKCONF_RUN_DIR = runDir;
  process.env.LOCKCONF_SEED = String(seed);
  process.env.LOCKCONF_TARGET_FILE = targetFile;
  if (only) process.env.LOCKCONF_SELECTION = JSON.stringify(only);
  else delete process.env.LOCKCONF_SELECTION;
  if (!allure) process.env.LOCKCONF_NO_ALLURE = '1';

  // The service's weakening settings do not touch a client grading (LOCKCONF_CLIENT_PROBES does); --only still makes it partial. Ctrl-C: interrupted, with reports.
  const interrupt = new InterruptOnSignal();
  const reporter = new LockconfReporter({
    runDir, root: ROOT, reportsRoot: WORK_ROOT, only, seed, expectFile: null, allure, updateLatest: !opts.out, catalog: CLIENT_CATALOG, weakenedBy, interrupted: () => interrupt.interrupted,
  });
  // junit.xml is written by the lockconf reporter, from the same result as the other reports.
  const reporters: unknown[] = [interrupt];
  if (allure) reporters.push(new LockconfAllureReporter({ resultsDir: join(runDir, 'allure-results') }));
  reporters.push(reporter);

  process.env.LOCKCONF_DRIVER = run.driver;
  const driver = run.driver === 'chromium' ? 'Chromium (headless, loopback only)' : 'plain HTTP';
  process.stdout.write(`lockconf: OAuth client grading (${targetFile}), the application driven by ${driver} → ${runDir}\n`);
  try {
    await runVitestProject({ project: 'client', reporters, only });
  } finally {
    interrupt.dispose();
  }

  const verdict = await readVerdict(reporter, runDir);
  if (verdict === null) process.stderr.write('lockconf: the client could not be graded: no conformance.json was written (see the error above).\n');
  return exitCodeFor(verdict, opts.allowIncomplete);
}
