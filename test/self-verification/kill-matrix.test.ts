/**
 * The suite's own verdict on itself: every fault of the mock's catalog must be
 * caught by the requirement it names, and the mock and its legal variants must be
 * judged with nothing failed or warned (partial, not conformant: the lanes shorten the
 * delivery wait, and area runs are scoped; matrix.ts judge).
 *
 * LOCKCONF_MATRIX_SCOPE=full runs every suite for every fault (slower); the default
 * runs, for each fault, the suites of the area that holds its requirement.
 * Runs go side by side in long-lived lanes (lanes.ts, lane.ts), twice as many as
 * cores and at most one per GiB (LOCKCONF_MATRIX_CONCURRENCY), each run against its
 * own mock; faults of one area judged by different requirements share a run
 * (packing.ts; LOCKCONF_MATRIX_PACK=0 runs every entry alone, to compare), and so do
 * the full-run scope checks. What the last matrix learned is read from
 * reports/self-verification.json (delete it to forget), or, when there is none (a fresh
 * clone), from the committed test/self-verification/matrix-hints.json: the entries it could not
 * judge in a shared run start alone, each area's scope check is its first fault not
 * among them, and the runs that took longest start first, so the lanes end together.
 * The wall time and the lanes' CPU time are printed and kept in the report, and so are,
 * per fault, the other requirements its run failed or warned (collateral): at most
 * MAX_COLLATERAL each, since a test that cannot reach its check because a prerequisite
 * failed is blocked, not failed (harness/run/prerequisite.ts).
 *
 * No verdict may rest on delivery order or machine speed: the `jitter` variant (random
 * fan-out order and latency, delayed answers; its seed is printed, LOCKCONF_JITTER_SEED
 * replays it) must be judged conformant like the plain mock, and since the lanes
 * outnumber the cores every conforming entry is judged under load; the matrix prints how
 * many were judged beside another run, and fails if none was.
 *
 * LOCKCONF_MATRIX_FAULTS=name,name or an area (webhook-registration, "Event payloads")
 * runs only those faults, one full-run scope check per area, and the plain mock and
 * the variants with those areas' suites: a quick loop while working on one area. Its
 * report is reports/self-verification-selection.{json,html}.
 */
import { describe, expect, test } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { JITTER_SEED, defaultConcurrency, planMatrix, runMatrix, selectFaults } from './matrix.js';
import { formatTable, readEarlier, summarise, writeMatrixReport } from './matrix-report.js';

const ROOT = resolve(import.meta.dirname, '../..');
const REPORT = join(ROOT, 'reports', 'self-verification.json');
/** A selection (LOCKCONF_MATRIX_FAULTS) writes its own report and leaves the whole matrix's as it was. */
const SELECTION_REPORT = join(ROOT, 'reports', 'self-verification-selection.json');
/**
 * What a whole matrix learned, committed, so that a fresh clone (CI) starts from it when
 * reports/ holds no earlier matrix. Only a hint: a stale one costs time, never a verdict
 * (a shared run that spills over or misses still reruns its members). Rewritten by a
 * whole matrix run with LOCKCONF_MATRIX_WRITE_HINTS=1.
 */
const HINTS = join(ROOT, 'test', 'self-verification', 'matrix-hints.json');
/** The most OTHER requirements one fault may fail (issue 20): what rests on its rule is blocked, not failed. */
const MAX_COLLATERAL = 3;

describe('self-verification', () => {
  test('catches every catalogued fault and fails nothing that conforms', async () => {
    const scope = process.env.LOCKCONF_MATRIX_SCOPE === 'full' ? 'full' : 'area';
    const seed = Number(process.env.LOCKCONF_SEED ?? 20261122);
    const filter = process.env.LOCKCONF_MATRIX_FAULTS?.trim() || null;
    const faults = selectFaults(filter ?? undefined);
    const earlier = await readEarlier(existsSync(REPORT) ? REPORT : HINTS);
    const alone = earlier.alone;
    const entries = planMatrix({ scope, alone, ...(faults ? { faults } : {}) });
    const outDir = await mkdtemp(join(tmpdir(), 'lockconf-matrix-'));
    const concurrency = Number(process.env.LOCKCONF_MATRIX_CONCURRENCY ?? defaultConcurrency());
    const pack = process.env.LOCKCONF_MATRIX_PACK !== '0';
    let runs = 0;
    let cpuTimeMs: number | null = 0;
    const started = Date.now();
    process.stdout.write(`  the jitter variant's seed: ${JITTER_SEED} (LOCKCONF_JITTER_SEED=${JITTER_SEED} replays its delays)\n`);
    const outcomes = await runMatrix(entries, {
      outDir,
      seed,
      concurrency,
      pack,
      alone,
      earlierMs: earlier.durationMs,
      onRun: (r) => {
        runs++;
        cpuTimeMs = r.cpuMs === null || cpuTimeMs === null ? null : cpuTimeMs + r.cpuMs;
      },
      onOutcome: (o) => process.stdout.write(`  ${o.ok ? 'ok    ' : 'MISSED'} ${o.entry.name}: ${o.why} (${(o.durationMs / 1000).toFixed(1)} s)` +
        `${o.collateral.length ? ` collateral: ${o.collateral.join(', ')}` : ''}${o.blocked.length ? ` [${o.blocked.length} blocked]` : ''}\n`),
    });
    const wallTimeMs = Date.now() - started;
    const summary = summarise(outcomes, { seed, scope, wallTimeMs, runs, concurrency, packed: pack, cpuTimeMs, filter, startedAlone: alone });
    await writeMatrixReport(summary, faults ? SELECTION_REPORT : REPORT);
    if (!faults && process.env.LOCKCONF_MATRIX_WRITE_HINTS === '1') {
      const hints = { note: 'Written by the self-verification matrix (LOCKCONF_MATRIX_WRITE_HINTS=1): the entries to start alone, and how long each run took.', alone: summary.alone, rows: summary.rows.map((r) => ({ name: r.name, durationMs: r.durationMs })) };
      await writeFile(HINTS, `${JSON.stringify(hints, null, 1)}\n`);
    }
    process.stdout.write('\n' + formatTable(summary) + '\n');
    process.stdout.write(`self-verification wall time: ${(wallTimeMs / 1000).toFixed(1)} s\n`);

    // Under load: the lanes outnumber the cores, so the conforming entries are judged beside other runs.
    const legal = outcomes.filter((o) => o.entry.kind === 'conforming' || o.entry.kind === 'variant');
    const underLoad = legal.filter((o) => (o.alongside ?? 0) >= 1);
    process.stdout.write(`conforming and legal variants judged under load (beside at least one other run, ${concurrency} lanes on ${availableParallelism()} cores): ${underLoad.length} of ${legal.length}\n`);

    const missed = outcomes.filter((o) => !o.ok).map((o) => `${o.entry.name}: ${o.why}`);
    expect(missed, 'entries the suite judged wrongly').toEqual([]);
    if (concurrency >= 2 && outcomes.length > legal.length) expect(underLoad.length, 'conforming entries judged while another run shared the cores').toBeGreaterThan(0);
    // Root causes, not cascades: one bug reads as one failure; what rests on it is blocked.
    const cascades = outcomes.filter((o) => o.collateral.length > MAX_COLLATERAL).map((o) => `${o.entry.name}: ${o.collateral.join(', ')}`);
    expect(cascades, `faults that failed more than ${MAX_COLLATERAL} other requirements`).toEqual([]);
    if (!faults) expect(summary.faults).toBeGreaterThanOrEqual(30);
  }, 40 * 60_000);
});
