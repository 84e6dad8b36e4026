/**
 * Loaded into every Node process of the unmutated (dry) run through NODE_OPTIONS
 * (run-mutant.mjs): when the process ends, it writes the ids of the mutants whose
 * code the run reached, as Stryker's instrumented code counts them
 * (globalThis.__stryker__.mutantCoverage), to LOCKCONF_MUTATION_COVERAGE_DIR/<pid>.json.
 * The CLI's process holds the embedded mock; vitest's workers hold what the suites
 * import. A mutant no process reached cannot change what the mock does in that run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.LOCKCONF_MUTATION_COVERAGE_DIR;

function dump() {
  const cov = globalThis.__stryker__?.mutantCoverage;
  if (!dir || !cov) return;
  const ids = new Set(Object.keys(cov.static ?? {}));
  for (const perTest of Object.values(cov.perTest ?? {})) for (const id of Object.keys(perTest)) ids.add(id);
  try {
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify([...ids]));
  } catch {
    // the folder is gone: the dry run has already been judged
  }
}

if (dir) {
  process.on('exit', dump);
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      dump();
      process.kill(process.pid, signal); // the default action, now that the listener is gone
    });
  }
}
