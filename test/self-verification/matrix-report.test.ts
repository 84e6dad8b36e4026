/** The matrix report's memory of which entries cannot share a run, and of how long each took. */
import { describe, expect, test } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatrixEntry, MatrixOutcome } from './matrix.js';
import { formatTable, learnedAlone, learnedApart, readEarlier, summarise } from './matrix-report.js';

const entry = (name: string): MatrixEntry => ({ name, kind: 'fault', description: '', mockOptions: { faults: [name] }, requirement: 'X-Y' });
const outcome = (name: string, o: Partial<MatrixOutcome> = {}): MatrixOutcome => ({
  entry: entry(name), verdict: 'not-conformant', failed: ['X-Y'], warned: [], notTestedMust: [], collateral: [], blocked: [], ok: true, why: 'caught',
  durationMs: 1, exitCode: 1, run: name, sharedWith: [], ...o,
});

describe('the faults the next matrix starts alone', () => {
  const outcomes = [
    outcome('spiller', { failed: ['X-Y', 'OTHER'], rerunAlone: 'shared-x-1 also failed or warned OTHER' }),
    outcome('innocent-suspect', { rerunAlone: 'shared-x-1 also failed or warned OTHER' }),
    outcome('hidden', { rerunAlone: 'not caught in shared-x-1 (X-Y was not failed)', hiddenBy: ['masker', 'bystander'] }),
    outcome('missed', { ok: false, failed: [], rerunAlone: 'not caught in shared-x-2 (X-Y was not failed)', hiddenBy: ['other'] }),
    outcome('hidden-spiller', { failed: ['X-Y', 'OTHER'], rerunAlone: 'not caught in shared-x-2 (X-Y was not failed)', hiddenBy: ['other'] }),
    outcome('shared', { run: 'shared-x-1', sharedWith: ['other'] }),
    outcome('split-again', { run: 'shared-x-1-2', sharedWith: ['shared'], rerunAlone: 'shared-x-1 also failed or warned OTHER' }),
    outcome('plain'),
  ];

  test('those that spilled over in a run of their own, and those started alone before', () => {
    expect(learnedAlone(outcomes, ['earlier'])).toEqual(['earlier', 'hidden-spiller', 'missed', 'spiller']);
    expect(summarise(outcomes, { seed: 1, scope: 'area', wallTimeMs: 1, startedAlone: ['earlier'] }).alone).toEqual(['earlier', 'hidden-spiller', 'missed', 'spiller']);
  });

  test('one a shared run hid and its own run caught is kept apart from that run\'s faults, on top of what was kept apart before', () => {
    const earlier = new Map([['hidden', new Set(['older'])], ['elsewhere', new Set(['x'])]]);
    expect(learnedApart(outcomes, earlier)).toEqual({ elsewhere: ['x'], hidden: ['bystander', 'masker', 'older'] });
    expect(summarise(outcomes, { seed: 1, scope: 'area', wallTimeMs: 1 }).apart).toEqual({ hidden: ['bystander', 'masker'] });
  });

  test('collateral failures per fault: the most, the mean and how many faults have any', () => {
    const summary = summarise([
      outcome('clean'),
      outcome('cascade', { failed: ['X-Y', 'A', 'B'], collateral: ['A', 'B'], blocked: ['C'] }),
      outcome('one', { failed: ['X-Y', 'A'], collateral: ['A'] }),
    ], { seed: 1, scope: 'area', wallTimeMs: 1 });
    expect(summary.collateral).toEqual({ max: 2, mean: 1, faultsWithAny: 2, worst: 'cascade' });
    expect(summary.rows.find((r) => r.name === 'cascade')).toMatchObject({ collateral: ['A', 'B'], blocked: 1 });
    expect(formatTable(summary)).toContain('collateral: A, B');
  });

  test('read back from an earlier report with each entry\'s duration; nothing when there is no report or it is not one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockconf-matrix-report-'));
    await writeFile(join(dir, 'ok.json'), JSON.stringify({ alone: ['a', 'b', 3], apart: { c: ['a', 4], d: 'a' }, rows: [{ name: 'a', durationMs: 1200 }, { name: 'c' }] }));
    await writeFile(join(dir, 'bad.json'), '{');
    const earlier = await readEarlier(join(dir, 'ok.json'));
    expect([...earlier.alone]).toEqual(['a', 'b']);
    expect([...earlier.apart].map(([k, v]) => [k, [...v]])).toEqual([['c', ['a']]]);
    expect(earlier.beforeApart).toBe(false);
    await writeFile(join(dir, 'old.json'), JSON.stringify({ alone: ['a'], rows: [] }));
    expect((await readEarlier(join(dir, 'old.json'))).beforeApart, 'a report from before apart').toBe(true);
    expect([...earlier.durationMs]).toEqual([['a', 1200]]);
    for (const name of ['bad.json', 'missing.json']) {
      const nothing = await readEarlier(join(dir, name));
      expect(nothing.alone.size + nothing.apart.size + nothing.durationMs.size).toBe(0);
    }
  });
});
