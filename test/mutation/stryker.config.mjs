/**
 * StrykerJS configuration of `npm run mutation` (test/mutation/run.mjs starts
 * Stryker once per mock folder, with LOCKCONF_MUTATION_FOLDER naming it).
 *
 * - command runner: one conformance run per mutant (run-mutant.mjs); the mutant is
 *   switched inside the in-process embedded mock by the environment variable
 *   Stryker sets. (vitest's runner does not fit: it switches mutants in its
 *   workers, while the mock runs in the CLI's main process.)
 * - symlinkNodeModules: false: the sandbox gets a node_modules of its own, holding
 *   only the CLI bundle that bin/bundle.js builds there from the sandbox's
 *   (instrumented) sources (node_modules/.cache/lockconf); packages still resolve
 *   from the project's node_modules one level up. A symlinked node_modules would
 *   share the project's cache: the sandbox build would replace the project's.
 * - no coverage analysis (the command runner has none): every mutant is run.
 * - the fault-switch ignorer leaves out code only a mock fault reaches.
 */
import { fileURLToPath } from 'node:url';
import { FOLDERS, incrementalFileOf } from './folders.mjs';

const folder = process.env.LOCKCONF_MUTATION_FOLDER ?? 'oauth';
const spec = FOLDERS[folder];
if (!spec) throw new Error(`LOCKCONF_MUTATION_FOLDER=${folder}: not one of ${Object.keys(FOLDERS).join(', ')}`);
process.env.LOCKCONF_MUTATION_ONLY ??= spec.only; // inherited by every run-mutant.mjs (run.mjs sets it per scope)

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: { command: 'node test/mutation/run-mutant.mjs' },
  mutate: [spec.mutate],
  coverageAnalysis: 'off',
  symlinkNodeModules: false,
  ignorePatterns: ['/.lockconf', '/bench', '/examples'],
  plugins: ['@stryker-mutator/*', fileURLToPath(new URL('./fault-switch-ignorer.mjs', import.meta.url))],
  ignorers: ['LockconfFaultSwitch'],
  concurrency: 2,
  // A "Timeout" counts as a kill, so it must mean a run that can never end (triage.mjs: hangs),
  // never a slow one: a mutant that stops every delivery costs the suite about 200 s of
  // delivery waits (15 s each), and a loaded machine more.
  timeoutMS: 400000,
  timeoutFactor: 1.5,
  incrementalFile: incrementalFileOf(folder),
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  clearTextReporter: { reportMutants: false, reportTests: false, reportScoreTable: true },
  jsonReporter: { fileName: `reports/mutation/${folder}.json` },
  htmlReporter: { fileName: `reports/mutation/${folder}.html` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
