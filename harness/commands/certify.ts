/**
 * What every `conformance` run (service, --receiver, --client) gets from the
 * command line around it: its provenance, collected before the command sets its
 * own variables and registered for the reporters (harness/provenance/), and,
 * with --certify, the certification: refused before the run when the scope is
 * narrowed, the run weakened, or --expect lists expected failures, or when the
 * signing key (LOCKCONF_SIGNING_KEY) cannot be used; after the run, its folder
 * made a signed package (harness/certify/package.ts), or refused with the reason.
 * A refusal is one line and exit 2.
 */
import { resolve } from 'node:path';
import { CertifyError, loadSigningKey, type SigningKey } from '../certify/keys.js';
import { certificateLines, certifyFolder, refusalBeforeRun } from '../certify/package.js';
import { NotAFile } from '../certify/manifest.js';
import { collectProvenance, registerRunProvenance } from '../provenance/collect.js';
import type { RunMode } from '../provenance/types.js';
import { loadExpectFile, type ExpectedDeviations } from '../run/expectations.js';
import { weakeningSettings } from '../run/weakening.js';
import { chooseTarget } from '../service/target-choice.js';
import { EXIT, ROOT } from './common.js';
import { userPath } from './user-paths.js';
import type { ConformanceOptions } from './conformance.js';

/** The options of `conformance` (service, --receiver, --client) that certification and provenance read. */
export type RunCommandOptions = ConformanceOptions & {
  client?: boolean;
  /** --certify: make the run's folder a signed package (docs/certification.md). */
  certify?: boolean;
};

export function modeOf(opts: RunCommandOptions): RunMode {
  return opts.client ? 'client' : opts.receiver !== undefined ? 'receiver' : 'service';
}

function refuse(reason: string): number {
  process.stderr.write(`lockconf: cannot certify: ${reason}\n`);
  return EXIT.NOT_CARRIED_OUT;
}

/** Why this invocation cannot be certified, before anything runs; null when it can. */
export async function certifyRefusal(opts: RunCommandOptions, mode: RunMode, env: NodeJS.ProcessEnv): Promise<string | null> {
  const embeddedMock = mode === 'service' && chooseTarget(opts.target ? userPath(opts.target) : null, env).kind === 'mock';
  const weakenedBy = mode === 'service' ? weakeningSettings(env, { embeddedMock }) : [];
  let expected: ExpectedDeviations | null = null;
  if (opts.expect) expected = await loadExpectFile(userPath(opts.expect)).catch(() => null); // a bad file: the run says so (exit 2)
  return refusalBeforeRun({ only: opts.only ?? null, weakenedBy, expected });
}

/**
 * Runs `run` (a conformance command) with its provenance registered; with
 * --certify, between the gate and the package. argv: the command line's
 * arguments (after `lockconf`), recorded scrubbed.
 */
export async function withProvenance(opts: RunCommandOptions, argv: readonly string[], run: () => Promise<number>): Promise<number> {
  if (opts.list) return run();
  const mode = modeOf(opts);
  let key: SigningKey | null = null;
  if (opts.certify) {
    const why = await certifyRefusal(opts, mode, process.env);
    if (why) return refuse(why);
    try {
      key = await loadSigningKey(process.env);
    } catch (err) {
      if (err instanceof CertifyError) return refuse(err.message);
      throw err;
    }
  }
  registerRunProvenance(await collectProvenance({ root: ROOT, mode, argv, cwd: process.cwd(), env: process.env, options: opts }));
  delete process.env.LOCKCONF_RUN_DIR; // set by the command for its run: afterwards it names this run's folder
  let code: number;
  try {
    code = await run();
  } finally {
    registerRunProvenance(null);
  }
  if (!key) return code;
  const runDir = opts.out ? userPath(opts.out) : process.env.LOCKCONF_RUN_DIR;
  if (!runDir) return refuse('the run could not be carried out: nothing to certify');
  try {
    const manifest = await certifyFolder(runDir, key);
    process.stdout.write(`${certificateLines(runDir, manifest).join('\n')}\n`);
    return code;
  } catch (err) {
    if (err instanceof CertifyError || err instanceof NotAFile) return refuse(err.message.replace(/^not certified: /, ''));
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return refuse('the run wrote no conformance.json: nothing to certify');
    throw err;
  }
}
