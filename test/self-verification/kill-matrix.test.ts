/**
 * The suite's own verdict on itself: every fault of the mock's catalog must be
 * caught by the requirement it names, and the mock and its legal variants must be
 * judged conformant with nothing failed or warned.
 *
 * LOCKCONF_MATRIX_SCOPE=full runs every suite for every fault (slower); the default
 * runs, for each fault, the suites of the area that holds its requirement.
 * Runs go side by side, one per core (LOCKCONF_MATRIX_CONCURRENCY), each against its own
 * mock; faults of one area judged by different requirements share a run (packing.ts;
 * LOCKCONF_MATRIX_PACK=0 runs every entry alone, to compare).
 */
import { describe, expect, test } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planMatrix, runMatrix } from './matrix.js';
import { formatTable, summarise, writeMatrixReport } from './matrix-report.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('self-verification', () => {
  test('catches every catalogued fault and fails nothing that conforms', async () => {
    const scope = process.env.LOCKCONF_MATRIX_SCOPE === 'full' ? 'full' : 'area';
    const seed = Number(process.env.LOCKCONF_SEED ?? 20261122);
    const entries = planMatrix({ scope });
    const outDir = await mkdtemp(join(tmpdir(), 'lockconf-matrix-'));
    const concurrency = Number(process.env.LOCKCONF_MATRIX_CONCURRENCY ?? availableParallelism());
    const pack = process.env.LOCKCONF_MATRIX_PACK !== '0';
    let runs = 0;
    const started = Date.now();
    const outcomes = await runMatrix(entries, {
      outDir,
      seed,
      concurrency,
      pack,
      onRun: () => { runs++; },
      onOutcome: (o) => process.stdout.write(`  ${o.ok ? 'ok    ' : 'MISSED'} ${o.entry.name}: ${o.why} (${(o.durationMs / 1000).toFixed(1)} s)\n`),
    });
    const summary = summarise(outcomes, { seed, scope, wallTimeMs: Date.now() - started, runs, concurrency, packed: pack });
    await writeMatrixReport(summary, join(ROOT, 'reports', 'self-verification.json'));
    process.stdout.write('\n' + formatTable(summary) + '\n');

    const missed = outcomes.filter((o) => !o.ok).map((o) => `${o.entry.name}: ${o.why}`);
    expect(missed, 'entries the suite judged wrongly').toEqual([]);
    expect(summary.faults).toBeGreaterThanOrEqual(30);
  }, 40 * 60_000);
});
