/**
 * Issue 21, "replay reproduces the generated inputs of the original; compare lists a
 * regression introduced by a mock fault": the command line on the embedded mock.
 * Two small runs (the two property tests of the service suites, with a weakening
 * setting so replay has a setting to reproduce) made once for the file: seed 7, and
 * seed 8 with the mock fault `state-truncated` (it breaks OAUTH-STATE-ECHO only, so
 * EVENT-LOCK-NAME-CHANGED shows what another seed does to the inputs); then a replay
 * of the first (the same seed: the same inputs). The original's conformance.json gets the provenance object of the shared
 * contract (the run itself writes it once provenance lands): replay reads mode,
 * scope, seed and settings from it.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResult } from '../../../harness/report/result-file.js';
import type { Comparison } from '../../../harness/compare/diff.js';
import { cli, type CliResult } from '../../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { provenance } from './runs.js';

const SCOPE = ['OAUTH-STATE-ECHO', 'EVENT-LOCK-NAME-CHANGED'];
const WAIT = { LOCKCONF_DELIVERY_WAIT_MS: '5000' }; // shorter than the default: a weakening setting, recorded as changed

let dir = '';
const runs: Record<'seed7' | 'faulty' | 'replay', CliResult> = {} as never;
let original: ConformanceResult;
const json = async (folder: string) => JSON.parse(await readFile(join(dir, folder, 'conformance.json'), 'utf8')) as ConformanceResult;
const conformance = (out: string, seed: number, env: Record<string, string> = {}) =>
  cli(['conformance', ...SCOPE.flatMap((id) => ['--only', id]), '--seed', String(seed), '--out', join(dir, out), '--no-allure'], { ...WAIT, ...env });

/** The original as the run writes it once provenance lands: seed, scope and settings recorded (the run's own fields kept when it has them). */
async function recordProvenance(): Promise<void> {
  await cp(join(dir, 'seed7'), join(dir, 'original'), { recursive: true });
  original = await json('original');
  const recorded = provenance({
    ...((original as { provenance?: Record<string, unknown> }).provenance ?? {}),
    seed: 7,
    scope: { only: original.selection.only, partial: true, inScope: 2, total: 116 },
    settings: [
      { name: 'LOCKCONF_DELIVERY_WAIT_MS', value: '5000', default: '15000', changed: true, source: 'env' },
      { name: 'LOCKCONF_QUIET_WINDOW_MS', value: null, default: '250', changed: false, source: 'default' },
    ],
  });
  await writeFile(join(dir, 'original', 'conformance.json'), JSON.stringify({ ...original, provenance: recorded }));
}

// The faulty run goes on while the first is replayed.
beforeAll(async () => {
  dir = await makeTmpDir('compare');
  const faulty = conformance('faulty', 8, { LOCKCONF_MOCK_OPTIONS: JSON.stringify({ faults: ['state-truncated'] }) });
  runs.seed7 = await conformance('seed7', 7);
  await recordProvenance();
  // A setting the original did not have is unset for the replay (LOCKCONF_QUIET_WINDOW_MS); one it had is set again.
  const replay = cli(['replay', join(dir, 'original'), '--out', join(dir, 'replayed')], { LOCKCONF_QUIET_WINDOW_MS: '40' });
  [runs.faulty, runs.replay] = await Promise.all([faulty, replay]);
}, 240_000);
afterAll(() => removeTmpDir(dir));

describe('Generated inputs (conformance.json inputs)', { timeout: 60_000 }, () => {
  it('a run records a digest per property test', async () => {
    expect(runs.seed7.code, runs.seed7.stdout.slice(-1500) + runs.seed7.stderr).toBe(0);
    const inputs = (await json('seed7')).inputs!;
    expect(Object.keys(inputs.perTest).map((n) => n.split(':')[0])).toEqual(['EVENT-LOCK-NAME-CHANGED', 'OAUTH-STATE-ECHO']);
    expect(inputs.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(inputs.values).toBeGreaterThan(0);
  });

  it('another seed draws other inputs (in a test the fault does not touch)', async () => {
    const [a, b] = [await json('seed7'), await json('faulty')];
    const names = Object.keys(a.inputs!.perTest);
    const lockName = names.find((n) => n.startsWith('EVENT-LOCK-NAME-CHANGED:'))!;
    expect(b.inputs!.perTest[lockName]!.sha256).not.toBe(a.inputs!.perTest[lockName]!.sha256);
    expect(b.inputs!.digest).not.toBe(a.inputs!.digest);
  });
});

describe('compare', { timeout: 60_000 }, () => {
  it('lists the regression a mock fault introduces, with its level and slice, and exits 1', async () => {
    expect(runs.faulty.code).toBe(1);
    const html = join(dir, 'compare.html');
    const r = await cli(['compare', join(dir, 'seed7'), join(dir, 'faulty'), '--html', html]);
    const machine = await cli(['compare', join(dir, 'seed7'), join(dir, 'faulty'), '--json']);
    expect(machine.code).toBe(1);
    expect(JSON.parse(machine.stdout) as Comparison).toMatchObject({
      regression: true,
      counts: { regressed: 1 },
      requirements: [{ id: 'OAUTH-STATE-ECHO', level: 'MUST', category: 'regressed', before: 'passed', after: 'failed', slices: [{ slice: 'chars=long', kind: 'regressed' }] }],
      inputs: { state: 'different', tests: 2 },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^regressed \(1\)\n {2}MUST {4}OAUTH-STATE-ECHO +passed → failed/m);
    expect(r.stdout).toMatch(/slice chars=long +passed → failed \(regressed\)/);
    expect(r.stdout).toContain('verdict: partial → not-conformant');
    expect(r.stdout).toMatch(/^result: 1 regression\(s\): exit 1$/m);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('data-category="regressed" id="cmp-OAUTH-STATE-ECHO"');
  });

  it('the same run compared with itself: nothing changed, exit 0', async () => {
    const r = await cli(['compare', join(dir, 'seed7'), join(dir, 'seed7', 'conformance.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/unchanged: \d+ requirement\(s\)/);
    expect(r.stdout).toContain('result: no regression (0 fixed, 0 newly tested, 0 newly not tested)');
    expect(r.stdout).toMatch(/generated inputs: identical \(2 property test\(s\), \d+ values\)/);
  });

  it('bad input: one message naming the path, exit 2, no stack trace', async () => {
    await writeFile(join(dir, 'broken.json'), '{"tool":');
    const r = await cli(['compare', join(dir, 'seed7'), join(dir, 'broken.json')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^lockconf: \S*broken.json: not valid JSON \([^\n]*\)\n$/);
  });
});

describe('replay', { timeout: 120_000 }, () => {
  it('reproduces the seed, the scope, the settings and the generated inputs of the original (exit 0)', async () => {
    const r = runs.replay;
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).toContain('seed 7, 2 requirement(s) (--only), with LOCKCONF_DELIVERY_WAIT_MS=5000, LOCKCONF_QUIET_WINDOW_MS unset (the original ran with its default)');
    expect(r.stdout).toMatch(/^replay: reproduced/m);
    const replayed = await json('replayed');
    expect(replayed.seed).toBe(7);
    expect(replayed.selection.only).toEqual(original.selection.only);
    expect(replayed.selection.weakenedBy?.map((w) => `${w.setting}=${w.value}`)).toEqual(['LOCKCONF_DELIVERY_WAIT_MS=5000']);
    expect(replayed.inputs).toEqual(original.inputs);
    const comparison = JSON.parse(await readFile(join(dir, 'replayed', 'compare.json'), 'utf8')) as Comparison;
    expect(comparison).toMatchObject({ regression: false, requirements: [], inputs: { state: 'identical' } });
    expect(await readFile(join(dir, 'replayed', 'compare.html'), 'utf8')).toContain('data-inputs="identical"');
    // The replay records its provenance like every run: compare never takes it for a file of an older lockconf.
    expect(replayed.provenance).toMatchObject({ schema: 1, mode: 'service', seed: 7, command: { argv: ['replay', join(dir, 'original'), '--out', join(dir, 'replayed')] } });
    expect(replayed.provenance!.settings.find((x) => x.name === 'LOCKCONF_DELIVERY_WAIT_MS')).toMatchObject({ value: '5000', changed: true });
    expect(r.stdout).not.toContain('older lockconf');
  });

  it('cannot replay a run that records no seed: says what is missing, exit 2', async () => {
    const original = await json('seed7');
    await cp(join(dir, 'seed7'), join(dir, 'seedless'), { recursive: true });
    await writeFile(join(dir, 'seedless', 'conformance.json'), JSON.stringify({ ...original, seed: null, provenance: undefined }));
    const r = await cli(['replay', join(dir, 'seedless')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`lockconf: ${join(dir, 'seedless', 'conformance.json')}: cannot replay: it records no seed (no provenance and seed is null)`);
  });
});
