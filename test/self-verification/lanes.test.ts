/** A lane of the matrix: the environment it starts with, how it resets it before each run, a run that cannot be carried out. */
import { describe, expect, test } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carryOut, restoreEnv } from './lane.js';
import { LanePool, laneEnv } from './lanes.js';
import { defaultConcurrency } from './matrix.js';

describe('a lane', () => {
  test('starts without the caller\'s lockconf and vitest variables, with the matrix\'s delivery wait', () => {
    const env = laneEnv({ PATH: '/bin', LOCKCONF_BASE_URL: 'http://x', VITEST: 'true', VITEST_POOL_ID: '1', NODE_ENV: 'test' });
    expect(env).toEqual({ PATH: '/bin', LOCKCONF_DELIVERY_WAIT_MS: '3000', NO_COLOR: '1' });
  });

  test('puts the environment back before each run: what a run set is gone, what it changed is restored', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin', KEEP: 'a' };
    const baseline = { ...env };
    env.LOCKCONF_SELECTION = '["X"]';
    env.KEEP = 'changed';
    delete env.PATH;
    restoreEnv(env, baseline);
    expect(env).toEqual({ PATH: '/bin', KEEP: 'a' });
  });

  test('answers a run that cannot be carried out with exit 2, and leaves the environment as it found it', async () => {
    const baseline = { ...process.env };
    const outDir = await mkdtemp(join(tmpdir(), 'lockconf-lane-'));
    try {
      const said: string[] = [];
      const answer = await carryOut({ id: 7, outDir, seed: 1, only: ['NO-SUCH-REQUIREMENT'], mockOptions: {} }, baseline, (line) => said.push(line));
      expect(answer).toMatchObject({ id: 7, exitCode: 2 });
      // Not thrown: answered like every run that cannot be carried out, with its report files.
      expect(said).toEqual([]);
      const result = JSON.parse(await readFile(join(outDir, 'conformance.json'), 'utf8')) as { verdict: string; error: { code: string; message: string } };
      expect(result).toMatchObject({ verdict: 'error', error: { code: 'ERR_USAGE', message: '--only NO-SUCH-REQUIREMENT: no requirement matches (see --list)' } });
      expect(answer.cpuMs).toBeGreaterThanOrEqual(0);
    } finally {
      restoreEnv(process.env, baseline);
    }
    expect(process.env.LOCKCONF_MOCK_OPTIONS).toBe(baseline.LOCKCONF_MOCK_OPTIONS);
  });

  test('runs asked for at once on a new pool each get a lane of their own and an answer', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'lockconf-lanes-'));
    const pool = new LanePool(3);
    try {
      // A folder each: one run folder belongs to one run (harness/commands/run-dir.ts).
      const answers = await Promise.all([1, 2, 3].map((n) => pool.run({ outDir: join(outDir, `run-${n}`), seed: 1, only: ['NO-SUCH-REQUIREMENT'], mockOptions: {} })));
      expect(answers.map((a) => a.exitCode)).toEqual([2, 2, 2]);
      for (const a of answers) expect(a.stderr).toContain('lockconf: ERR_USAGE: --only NO-SUCH-REQUIREMENT: no requirement matches (see --list)\n');
    } finally {
      await pool.close();
    }
  }, 60_000);

  test('two per core by default, at most one per GiB of memory', () => {
    expect(defaultConcurrency(2, 24 * 2 ** 30)).toBe(4);
    expect(defaultConcurrency(16, 4 * 2 ** 30)).toBe(4);
    expect(defaultConcurrency(1, 2 ** 29)).toBe(1);
    // npm test's lanes: one per core, two at least, the memory bound still first.
    const npmTest = { perCore: 1, atLeast: 2 };
    expect([1, 2, 16].map((cores) => defaultConcurrency(cores, 8 * 2 ** 30, npmTest))).toEqual([2, 2, 8]);
    expect(defaultConcurrency(1, 2 ** 30, npmTest)).toBe(1);
  });
});
