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
 * - The sign-in screens (suites/oauth/sign-in-screens.test.ts, Chromium) are driven when
 *   the scope holds one of their requirements (mock/oauth's scopes: OAUTH-*), left out
 *   otherwise (LOCKCONF_SIGN_IN, unless the caller set it).
 * - The unmutated run (Stryker's dry run, no active mutant) writes the scope's
 *   requirements it leaves not tested to BASELINE in the sandbox; a mutant's run
 *   that leaves another one not tested is killed.
 * - LOCKCONF_MUTATION_LOG=FILE appends one JSON line per mutant (id, killed, reason):
 *   a running Stryker reports its mutants only when it ends.
 * - Coverage (the command runner has none of its own): the unmutated run records, in
 *   every Node process it starts (coverage-dump.mjs through NODE_OPTIONS), which
 *   mutants' code it reached, into COVERAGE in the sandbox. A mutant whose code that
 *   run never reached survives without a run of its own (it cannot change what the
 *   run does: the seed is fixed), logged as "not reached by the unmutated run"; it is
 *   triaged like any survivor. No COVERAGE (or an empty one): every mutant is run.
 *   LOCKCONF_MUTATION_COVERAGE=0 runs every mutant.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mutantVerdict, notTestedInScope, readText } from './mutant-verdict.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The requirements only the sign-in suite checks (harness/run/sign-in-switch.ts). */
const SIGN_IN_REQUIREMENTS = ['OAUTH-SIGN-IN-SCREENS', 'OAUTH-SIGN-IN-WRONG-PASSWORD', 'OAUTH-SIGN-IN-WRONG-SMS', 'OAUTH-SIGN-IN-SMS-NOT-SKIPPED', 'OAUTH-CONSENT-SHOWS-REQUEST'];
/** 'on' when the --only scope (IDs or globs; empty: every requirement) selects one of them. */
export function signInFor(scope) {
  const patterns = scope.split(/[\s,]+/).filter(Boolean);
  if (patterns.length === 0) return 'on';
  const matches = (p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\-]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  return SIGN_IN_REQUIREMENTS.some((id) => patterns.some((p) => matches(p).test(id))) ? 'on' : 'off';
}
const seed = process.env.LOCKCONF_MUTATION_SEED || '1';
const only = (process.env.LOCKCONF_MUTATION_ONLY || '').trim();
const verbose = process.env.LOCKCONF_MUTATION_VERBOSE === '1';
const log = process.env.LOCKCONF_MUTATION_LOG;

const BASELINE = join(ROOT, '.lockconf-mutation-baseline.json');
const COVERAGE = join(ROOT, '.lockconf-mutation-coverage.json');
const useCoverage = process.env.LOCKCONF_MUTATION_COVERAGE !== '0';
const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;

/** The mutants the unmutated run reached, or null when it recorded none (then every mutant runs). */
function reached() {
  if (!useCoverage) return null;
  try {
    const ids = JSON.parse(readText(COVERAGE) ?? 'null');
    return Array.isArray(ids) && ids.length ? new Set(ids.map(String)) : null;
  } catch {
    return null;
  }
}

const covered = mutant === undefined ? null : reached();
if (covered && !covered.has(String(mutant))) {
  const reason = 'not reached by the unmutated run (its code never ran): survived without a run';
  process.stderr.write(`mutant ${mutant}: survived (${reason})\n`);
  if (process.env.LOCKCONF_MUTATION_LOG) appendFileSync(process.env.LOCKCONF_MUTATION_LOG, `${JSON.stringify({ mutant, killed: false, reason, cliExit: null })}\n`);
  process.exit(0);
}
const coverageDir = mutant === undefined && useCoverage ? mkdtempSync(join(tmpdir(), 'lockconf-mutation-coverage-')) : null;

const out = mkdtempSync(join(tmpdir(), 'lockconf-mutant-'));
try {
  const args = [join(ROOT, 'bin', 'lockconf.js'), 'conformance', '--no-allure', '--allow-incomplete', '--seed', seed, '--out', out];
  if (only) args.push('--only', only);
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      LOCKCONF_NO_ALLURE: '1',
      LOCKCONF_SIGN_IN: process.env.LOCKCONF_SIGN_IN ?? signInFor(only),
      ...(coverageDir
        ? {
            LOCKCONF_MUTATION_COVERAGE_DIR: coverageDir,
            NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(join(ROOT, 'test', 'mutation', 'coverage-dump.mjs')).href}`.trim(),
          }
        : {}),
    },
    stdio: verbose ? 'inherit' : 'ignore',
  });
  const text = readText(join(out, 'conformance.json'));
  let baseline;
  if (mutant === undefined) {
    // The reference run: what it leaves not tested is the baseline, not a fault.
    let parsed = null;
    try { parsed = JSON.parse(text ?? 'null'); } catch { /* judged below */ }
    baseline = new Set(notTestedInScope(parsed));
    writeFileSync(BASELINE, JSON.stringify([...baseline]));
    if (coverageDir) {
      const ids = new Set();
      for (const f of readdirSync(coverageDir)) for (const id of JSON.parse(readText(join(coverageDir, f)) ?? '[]')) ids.add(String(id));
      writeFileSync(COVERAGE, JSON.stringify([...ids]));
      process.stderr.write(`unmutated run: ${ids.size} mutants reached (coverage from ${readdirSync(coverageDir).length} processes)\n`);
    }
  } else {
    baseline = new Set(JSON.parse(readText(BASELINE) ?? '[]'));
  }
  const verdict = mutantVerdict(text, baseline);
  process.stderr.write(`mutant ${mutant ?? 'none'}: ${verdict.killed ? 'killed' : 'survived'} (${verdict.reason}; cli exit ${run.status ?? run.signal})\n`);
  if (log) appendFileSync(log, `${JSON.stringify({ mutant: mutant ?? 'none', killed: verdict.killed, reason: verdict.reason, cliExit: run.status })}\n`);
  process.exitCode = verdict.killed ? 1 : 0;
} finally {
  rmSync(out, { recursive: true, force: true });
  if (coverageDir) rmSync(coverageDir, { recursive: true, force: true });
}
