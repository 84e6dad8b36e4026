/**
 * The receiver matrix's child process: runs its share of the entries one after
 * the other (receiver-matrix.ts runReceiverEntry) and writes their outcomes to
 * the result file the plan names. Usage: node receiver-matrix-child.js PLAN.json, prebuilt (test/support/prebuilt.ts)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runReceiverEntry, type ReceiverEntry, type ReceiverOutcome } from './receiver-matrix.js';
import { MANY_RUNS_OPTIONS, setVitestOverrides } from '../../harness/commands/vitest-project.js';

// Many runs in one process, as the service matrix's lanes: what each run judges is the same.
setVitestOverrides(MANY_RUNS_OPTIONS);

async function main(planFile: string): Promise<void> {
  const plan = JSON.parse(await readFile(planFile, 'utf8')) as { entries: ReceiverEntry[]; outDir: string; resultFile: string };
  const outcomes: ReceiverOutcome[] = [];
  for (const entry of plan.entries) outcomes.push(await runReceiverEntry(entry, join(plan.outDir, entry.name)));
  await writeFile(plan.resultFile, JSON.stringify(outcomes));
}

main(process.argv[2] ?? '').then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`receiver matrix child: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  },
);
