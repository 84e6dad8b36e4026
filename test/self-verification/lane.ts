/**
 * A lane of the self-verification matrix: a long-lived child process that carries
 * out matrix runs one after another, each the `conformance` command a user runs
 * (harness/commands/conformance.ts) against its own embedded mock, in this process.
 *
 * A run in a fresh process paid node, tsx, vitest and the transforms of every
 * module again (about 3.5 s of CPU before the first test). Here they are paid once
 * per lane: the suites run in worker threads, their transforms come from vitest's
 * file-system module cache, and the environment is put back as the lane found it
 * before every run, so each run sees what a fresh process would. The lane itself
 * runs prebuilt (lanes.ts: bin/bundle.js), so nothing it or vitest imports passes
 * through tsx's hooks.
 *
 * Protocol (lanes.ts): the parent sends a LaneRequest over IPC; the lane answers
 * with a LaneAnswer when the run has ended. Its stderr is the runs' stderr.
 */
import { conformanceCommand } from '../../harness/commands/conformance.js';
import { MANY_RUNS_OPTIONS, setVitestOverrides } from '../../harness/commands/vitest-project.js';
import type { MockOptions } from '../../mock/context.js';
import { CONFIRM_QUIET_WINDOW_MS, CONFIRM_TEST_TIMEOUT_MS, CONFIRM_TIMEOUT_SCALE } from './confirm.js';

export interface LaneRequest {
  id: number;
  outDir: string;
  seed: number;
  only?: string[];
  mockOptions: MockOptions;
  /**
   * Run at the harness's own strictness: the default delivery wait (the lane's shortened one
   * unset), longer test timeouts and quiet windows, to confirm a judgement that rested on time (confirm.ts).
   */
  fullWait?: boolean;
  /** Drive the sign-in screens with Chromium (LOCKCONF_SIGN_IN): only the runs of their faults do. */
  signIn?: boolean;
}

export interface LaneAnswer {
  id: number;
  /** The command's exit code; 2 when it threw (the run could not be carried out). */
  exitCode: number;
  durationMs: number;
  /** CPU time the lane spent on the run (its suites' worker threads included). */
  cpuMs: number;
}


/** Put `env` back to `baseline`: what a run set is removed, what it changed restored. */
export function restoreEnv(env: NodeJS.ProcessEnv, baseline: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(env)) if (!(key in baseline)) delete env[key];
  for (const [key, value] of Object.entries(baseline)) if (value !== undefined) env[key] = value;
}

/** Carry out one run in this process; `log` gets the message of a run that threw (default: stderr). */
export async function carryOut(
  req: LaneRequest,
  baseline: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void = (line) => { process.stderr.write(`${line}\n`); },
): Promise<LaneAnswer> {
  restoreEnv(process.env, baseline);
  process.env.LOCKCONF_MOCK_OPTIONS = JSON.stringify(req.mockOptions);
  process.env.LOCKCONF_SIGN_IN = req.signIn ? 'on' : 'off';
  if (req.fullWait) {
    delete process.env.LOCKCONF_DELIVERY_WAIT_MS;
    process.env.LOCKCONF_QUIET_WINDOW_MS = String(CONFIRM_QUIET_WINDOW_MS);
    process.env.LOCKCONF_TEST_TIMEOUT_SCALE = String(CONFIRM_TIMEOUT_SCALE);
    setVitestOverrides({ ...MANY_RUNS_OPTIONS, testTimeout: CONFIRM_TEST_TIMEOUT_MS });
  }
  const started = Date.now();
  const cpu = process.cpuUsage();
  let exitCode: number;
  try {
    exitCode = await conformanceCommand({ out: req.outDir, seed: req.seed, allure: false, ...(req.only ? { only: req.only } : {}) });
  } catch (err) {
    log(`lockconf: ${err instanceof Error ? err.message : String(err)}`);
    exitCode = 2;
  } finally {
    if (req.fullWait) setVitestOverrides(MANY_RUNS_OPTIONS);
  }
  const used = process.cpuUsage(cpu);
  return { id: req.id, exitCode, durationMs: Date.now() - started, cpuMs: Math.round((used.user + used.system) / 1000) };
}

function serve(): void {
  const baseline = { ...process.env };
  setVitestOverrides(MANY_RUNS_OPTIONS);
  let chain = Promise.resolve();
  process.on('message', (req: LaneRequest) => {
    chain = chain.then(async () => {
      const answer = await carryOut(req, baseline);
      process.send?.(answer);
    });
  });
  process.on('disconnect', () => process.exit(0));
}

/** The argument lanes.ts starts a lane with (importing this module elsewhere serves nothing). */
export const LANE_ARG = '--matrix-lane';

if (process.send && process.argv.includes(LANE_ARG)) serve();
