#!/usr/bin/env node
/**
 * The command Stryker's command runner starts for each mutant (and once for the
 * unmutated dry run): one `lockconf conformance` on the embedded mock, in this
 * sandbox, then the kill logic of mutant-verdict.mjs on its conformance.json.
 * Exit 1: killed (a requirement failed or warned, or the run did not finish);
 * exit 0: survived.
 *
 * - The active mutant reaches the in-process mock through the environment
 *   (__STRYKER_ACTIVE_MUTANT__, set by Stryker, inherited by the CLI).
 * - Each run writes into a temporary directory of its own (concurrent runners share
 *   the sandbox tree: a shared --out let one mutant read another's verdict).
 * - A fixed seed (LOCKCONF_MUTATION_SEED, default 1), so that fast-check draws the
 *   same inputs for every mutant and a status cannot flip from run to run.
 * - The requirement scope (LOCKCONF_MUTATION_ONLY, space-separated IDs or globs, as
 *   `--only` takes them), set per mutated folder by test/mutation/stryker.config.mjs.
 * - LOCKCONF_MUTATION_LOG=FILE appends one JSON line per mutant (id, killed, reason):
 *   a running Stryker reports its mutants only when it ends.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutantVerdictOf } from './mutant-verdict.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const seed = process.env.LOCKCONF_MUTATION_SEED || '1';
const only = (process.env.LOCKCONF_MUTATION_ONLY || '').trim();
const verbose = process.env.LOCKCONF_MUTATION_VERBOSE === '1';
const log = process.env.LOCKCONF_MUTATION_LOG;

const out = mkdtempSync(join(tmpdir(), 'lockconf-mutant-'));
try {
  const args = [join(ROOT, 'bin', 'lockconf.js'), 'conformance', '--no-allure', '--allow-incomplete', '--seed', seed, '--out', out];
  if (only) args.push('--only', only);
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOCKCONF_NO_ALLURE: '1' },
    stdio: verbose ? 'inherit' : 'ignore',
  });
  const verdict = mutantVerdictOf(join(out, 'conformance.json'));
  const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ ?? 'none';
  process.stderr.write(`mutant ${mutant}: ${verdict.killed ? 'killed' : 'survived'} (${verdict.reason}; cli exit ${run.status ?? run.signal})\n`);
  if (log) appendFileSync(log, `${JSON.stringify({ mutant, killed: verdict.killed, reason: verdict.reason, cliExit: run.status })}\n`);
  process.exitCode = verdict.killed ? 1 : 0;
} finally {
  rmSync(out, { recursive: true, force: true });
}
