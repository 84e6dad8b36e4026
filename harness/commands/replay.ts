/**
 * `lockconf replay DIR`: the run recorded in DIR again, with its mode, scope, seed,
 * expect file and behaviour-changing settings (harness/replay/plan.ts), against
 * the embedded mock when the original ran on it or the target of --target; then
 * the comparison of the original and the replay, printed and written beside the
 * new run (compare.json, compare.html).
 * Exit 0 reproduced, 1 differs, 2 cannot replay (one message).
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { BadRunInput, loadRun, type LoadedRun } from '../compare/load.js';
import { compareRuns, reproduces } from '../compare/diff.js';
import { renderTerminal } from '../compare/render-terminal.js';
import { CannotReplay, describePlan, planReplay, type ReplayPlan } from '../replay/plan.js';
import { defaultRunDir, pointLatest } from '../report/reporter.js';
import { toolVersion } from '../report/result-file.js';
import { PROFILE_ENV } from '../service/profile.js';
import { chooseTarget } from '../service/target-choice.js';
import { EXIT, ROOT, WORK_ROOT } from './common.js';
import { writeCompareHtml } from './compare.js';
import { gitSource } from './version.js';
import { withProvenance } from './certify.js';
import { userPath } from './user-paths.js';

export interface ReplayOptions {
  target?: string;
  out?: string;
  allure: boolean;
}

const SPEC = 'docs/spec/lock-access-service.md';

async function specSha256(): Promise<string | null> {
  try {
    return createHash('sha256').update(await readFile(join(ROOT, SPEC))).digest('hex');
  } catch {
    return null;
  }
}

/** Whether two paths name one folder (reports/latest and the run it points at included). */
function sameFolder(a: string, b: string): boolean {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : p);
  return real(a) === real(b);
}

function fail(message: string): number {
  process.stderr.write(`lockconf: ${message}\n`);
  return EXIT.NOT_CARRIED_OUT;
}

/** Runs `fn` with the plan's variables set or unset, and puts the environment back after. */
async function withEnv<T>(vars: Record<string, string | null>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === null) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * The run itself, through the command that made the original, with its provenance
 * recorded like every run's (withProvenance): `compare` then knows the replay's suite,
 * spec, catalog and settings, and a replay can be replayed.
 */
async function runAgain(plan: ReplayPlan, opts: ReplayOptions, runDir: string, expect: string | undefined, argv: readonly string[]): Promise<number> {
  const common = { target: opts.target, only: plan.only ?? undefined, seed: plan.seed, out: runDir, expect, allure: opts.allure && plan.allure, allowIncomplete: true };
  if (plan.mode === 'client') {
    const options = { ...common, expect: undefined };
    return withProvenance({ ...options, client: true }, argv, async () => (await import('./client.js')).clientCommand(options));
  }
  const { conformanceCommand } = await import('./conformance.js');
  const options = plan.mode === 'receiver' ? { ...common, receiver: plan.receiverUrl! } : common;
  return withProvenance(options, argv, () => conformanceCommand(options));
}

/** The replay's own command line, as its provenance records it. */
function replayArgv(dir: string, opts: ReplayOptions): string[] {
  return ['replay', dir, ...(opts.target ? ['--target', opts.target] : []), ...(opts.out ? ['--out', opts.out] : []), ...(opts.allure ? [] : ['--no-allure'])];
}

export async function replayCommand(dir: string, opts: ReplayOptions): Promise<number> {
  let original: LoadedRun;
  let plan: ReplayPlan;
  try {
    original = await loadRun(userPath(dir));
    if (original.result.verdict === 'error') {
      throw new CannotReplay(`${original.file}: cannot replay: the original could not be carried out (${original.result.error?.code ?? 'verdict error'}): run \`lockconf conformance\` again once that is fixed`);
    }
    const profileGiven = !!opts.target || chooseTarget(null, process.env).kind === 'profile';
    plan = planReplay(original, {
      env: process.env,
      profileGiven,
      profileVariables: Object.values(PROFILE_ENV),
      running: { version: await toolVersion(ROOT), commit: gitSource(ROOT)?.commit ?? null, specSha256: await specSha256() },
    });
  } catch (err) {
    if (err instanceof BadRunInput || err instanceof CannotReplay) return fail(err.message);
    throw err;
  }
  if (opts.target && !existsSync(userPath(opts.target))) return fail(`--target ${opts.target}: no such file`);
  const runDir = opts.out ? userPath(opts.out) : defaultRunDir(WORK_ROOT);
  if (sameFolder(runDir, original.dir)) return fail(`--out ${opts.out}: that is the original run's folder; the replay needs a folder of its own`);

  process.stdout.write(`lockconf: replaying ${original.dir}: ${describePlan(plan)}\n`);
  const argv = original.provenance?.command?.argv;
  if (argv) process.stdout.write(`lockconf: the original ran: lockconf ${argv.join(' ')}\n`);
  for (const w of plan.warnings) process.stdout.write(`lockconf: warning: ${w}\n`);

  let scratch: string | null = null;
  let expect: string | undefined;
  if (plan.expectContent) {
    scratch = await mkdtemp(join(tmpdir(), 'lockconf-replay-'));
    expect = join(scratch, basename(plan.expectContent.file) || 'expect');
    await writeFile(expect, plan.expectContent.content);
  } else if (plan.expectFile) {
    if (existsSync(plan.expectFile)) {
      expect = plan.expectFile;
      process.stdout.write(`lockconf: warning: the expect file ${plan.expectFile} is read as it is now (its content was not recorded)\n`);
    } else process.stdout.write(`lockconf: warning: the original's expect file ${plan.expectFile} is gone: replaying without it\n`);
  }
  try {
    await withEnv(plan.env, () => runAgain(plan, opts, runDir, expect, replayArgv(dir, opts)));
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
  let replayed: LoadedRun;
  try {
    replayed = await loadRun(runDir);
  } catch (err) {
    if (err instanceof BadRunInput) return fail(`the replay could not be carried out: ${err.message}`);
    throw err;
  }
  // Like any run without --out: reports/latest follows a run that ended (not an interrupted one).
  if (!opts.out && replayed.result.verdict !== 'interrupted') await pointLatest(WORK_ROOT, runDir);
  if (replayed.result.verdict === 'error') return EXIT.NOT_CARRIED_OUT; // the run said why, once

  const comparison = compareRuns({ ...original, label: original.dir }, { ...replayed, label: runDir });
  await writeFile(join(runDir, 'compare.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  const problem = await writeCompareHtml(join(runDir, 'compare.html'), comparison, '');
  if (problem) process.stderr.write(`lockconf: ${problem}\n`);
  const same = reproduces(comparison);
  process.stdout.write(`\nreplay compared with the original (A: original, B: replay):\n${renderTerminal(comparison, { result: false })}`);
  process.stdout.write(same
    ? 'replay: reproduced: the same verdict, every requirement and slice unchanged, the same generated inputs (exit 0)\n'
    : 'replay: differs from the original (above; exit 1)\n');
  return same ? EXIT.OK : EXIT.NOT_CONFORMANT;
}
