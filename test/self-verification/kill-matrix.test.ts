/**
 * The suite's own verdict on itself: every fault it runs must be caught by the
 * requirement it names, and the mock and its legal variants must be judged with
 * nothing failed or warned (partial, not conformant: the lanes shorten the
 * delivery wait, and area runs are scoped; matrix.ts judge).
 *
 * npm test runs a deterministic sample (sample.ts): one fault for every requirement
 * that has any, the generated one of the sample of the slice faults (slice-faults.ts:
 * a value of its first dimension, spread over the values among the requirements that share it) where there is one, else its first catalogued
 * fault (mock/faults.ts), with every legal variant and every full-run scope check; the plain
 * mock is judged by full-run.test.ts (every suite, the harness's own strictness, the sign-in screens).
 * `npm run matrix` runs every catalogued fault besides the generated sample, and
 * `npm run matrix -- --all` every generated fault too (run-matrix.ts); here
 * LOCKCONF_MATRIX_CATALOGUED=all runs every catalogued fault, LOCKCONF_MATRIX_SLICES=all
 * every generated one (LOCKCONF_MATRIX_SLICES=none leaves the generated faults out: each
 * requirement is then judged by its first catalogued fault).
 *
 * LOCKCONF_MATRIX_SCOPE=full runs every suite for every fault (slower); the default
 * runs, for each fault, the suites of the area that holds its requirement.
 * Runs go side by side in long-lived lanes (lanes.ts, lane.ts), one per core here and
 * twice as many under `npm run matrix`, at most one per GiB
 * (LOCKCONF_MATRIX_CONCURRENCY), each run against its
 * own mock; faults of one area judged by different requirements share a run
 * (packing.ts; LOCKCONF_MATRIX_PACK=0 runs every entry alone, to compare), and so do
 * the full-run scope checks. What the last matrix learned is read from
 * reports/self-verification.json (delete it to forget), or, when there is none (a fresh
 * clone), from the committed test/self-verification/matrix-hints.json: the entries that
 * spilled over in a shared run start alone, those a neighbour hid never share a run with
 * that run's faults again, each area's scope check is its first fault not started alone,
 * and the runs that took longest start first, so the lanes end together.
 * The wall time and the lanes' CPU time are printed and kept in the report, and so are,
 * per fault, the other requirements its run failed or warned (collateral): at most
 * MAX_COLLATERAL each, since a test that cannot reach its check because a prerequisite
 * failed is blocked, not failed (harness/run/prerequisite.ts).
 *
 * No verdict may rest on delivery order or machine speed: the `jitter` variant (random
 * fan-out order and latency, delayed answers; its seed is printed, LOCKCONF_JITTER_SEED
 * replays it) must be judged conformant like the plain mock, and since the lanes
 * outnumber the cores every conforming entry is judged under load; the matrix prints how
 * many were judged beside another run, and fails if none was. A judgement that rests on
 * time (a delivery not arriving within the lanes' 3 s wait, a test timeout, any miss) is
 * confirmed by a run at full strictness before it counts (confirm.ts); so is collateral
 * resting on time that the last matrix (or matrix-hints.json) did not see for that fault.
 *
 * LOCKCONF_MATRIX_FAULTS=name,name, a generated fault (ID@dim=value), a requirement ID
 * (its generated faults) or an area (webhook-registration, "Event payloads")
 * runs only those faults, one full-run scope check per area, and the plain mock and
 * the variants with those areas' suites: a quick loop while working on one area. Its
 * report is reports/self-verification-selection.{json,html}.
 */
import { describe, expect, test } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { JITTER_SEED, defaultConcurrency } from './matrix.js';
import { formatTable } from './matrix-report.js';
import { describeConfirmation } from './confirm.js';
import { HINTS, MAX_COLLATERAL, cascades as cascadesOf, runSession } from './matrix-session.js';

/**
 * npm test runs the matrix beside its other files: one lane per core (at most matrix.ts's
 * default, one per GiB), not twice the cores as `npm run matrix` alone. Measured idle on
 * 2 cores, the whole npm test took 256 s and 491 s of CPU with 4 lanes (Chromium's orphaned
 * renderers counted), 227 to 240 s and 429 to 455 s with 3, 222 s and 408 s with 2: the other
 * files keep the cores busy, and every further lane cost more in contention than it saved in
 * waiting. The matrix's own wall grows (about 100 s to 120 s), beside the rest. The conforming
 * entries are still judged under load (2 lanes, and npm test's other files).
 */
const NPM_TEST_LANES = defaultConcurrency(undefined, undefined, { perCore: 1, atLeast: 2 }); // two at least: conforming entries judged beside another run


describe('self-verification', () => {
  test('catches a fault of every requirement that has one and fails nothing that conforms', async () => {
    const filter = process.env.LOCKCONF_MATRIX_FAULTS?.trim() || null;
    process.stdout.write(`  the jitter variant's seed: ${JITTER_SEED} (LOCKCONF_JITTER_SEED=${JITTER_SEED} replays its delays)\n`);
    const { summary, outcomes, wallTimeMs, selection, concurrency } = await runSession({
      scope: process.env.LOCKCONF_MATRIX_SCOPE === 'full' ? 'full' : 'area',
      seed: Number(process.env.LOCKCONF_SEED ?? 20261122),
      filter,
      slices: process.env.LOCKCONF_MATRIX_SLICES === 'all' || process.env.LOCKCONF_MATRIX_SLICES === 'none' ? process.env.LOCKCONF_MATRIX_SLICES : 'sample',
      catalogued: process.env.LOCKCONF_MATRIX_CATALOGUED === 'all' ? 'all' : 'sample',
      concurrency: process.env.LOCKCONF_MATRIX_CONCURRENCY ? Number(process.env.LOCKCONF_MATRIX_CONCURRENCY) : NPM_TEST_LANES,
      pack: process.env.LOCKCONF_MATRIX_PACK !== '0',
      variants: process.env.LOCKCONF_MATRIX_VARIANTS === 'full' ? 'full' : 'touched',
      // The committed hints alone: the same packing on every machine, whatever `npm run matrix` ran here before.
      learnFrom: 'hints',
      onOutcome: (o) => process.stdout.write(`  ${o.ok ? 'ok    ' : 'MISSED'} ${o.entry.name}: ${o.why} (${(o.durationMs / 1000).toFixed(1)} s)` +
        `${o.collateral.length ? ` collateral: ${o.collateral.join(', ')}` : ''}${o.blocked.length ? ` [${o.blocked.length} blocked]` : ''}${describeConfirmation(o.confirmed)}\n`),
    });
    if (!selection && process.env.LOCKCONF_MATRIX_WRITE_HINTS === '1') {
      // npm test runs a sample (sample.ts): the rows of the faults only `npm run matrix` runs are kept.
      const ran = new Set(summary.rows.map((r) => r.name));
      const before = JSON.parse(await readFile(HINTS, 'utf8').catch(() => '{}')) as { rows?: Array<{ name: string }> };
      const kept = (before.rows ?? []).filter((r) => !ran.has(r.name));
      const hints = { note: 'Written by the self-verification matrix (LOCKCONF_MATRIX_WRITE_HINTS=1): the entries to start alone, those to keep apart, how long each run took, and the collateral of each fault (collateral resting on time beyond it is confirmed: confirm.ts).', alone: summary.alone, apart: summary.apart, rows: [...summary.rows.map((r) => ({ name: r.name, durationMs: r.durationMs, ...(r.collateral.length ? { collateral: r.collateral } : {}) })), ...kept] };
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
    const cascades = cascadesOf(outcomes);
    expect(cascades, `faults that failed more than ${MAX_COLLATERAL} other requirements`).toEqual([]);
    if (!filter) expect(summary.faults).toBeGreaterThanOrEqual(30);
  }, 40 * 60_000);
});
