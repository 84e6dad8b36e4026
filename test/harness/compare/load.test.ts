/**
 * Reading a run to compare or replay (harness/compare/load.ts): a folder or its
 * conformance.json; whatever is wrong is one message naming the path (exit 2 in
 * the command line, compare-replay-cli.test.ts); older files load without
 * provenance or inputs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRunInput, loadRun, runMode } from '../../../harness/compare/load.js';
import { notCarriedOut } from '../../../harness/commands/compare.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { provenance, run } from './runs.js';

let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('compare-load');
});
afterAll(() => removeTmpDir(dir));

async function put(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('Bad input: one message naming the path and what is wrong', () => {
  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['a path that does not exist', async () => join(dir, 'gone'), /gone: no such file or folder$/],
    ['a folder without conformance.json', async () => { await mkdir(join(dir, 'empty'), { recursive: true }); return join(dir, 'empty'); }, /empty: not a lockconf run folder \(no conformance.json in it\)$/],
    ['a file that is not JSON', () => put('broken.json', '{"tool":'), /broken.json: not valid JSON \(/],
    ['JSON that is not an object', () => put('list.json', '[1,2]'), /list.json: not a lockconf result \(not a JSON object\)$/],
    ['another tool\'s result', () => put('other.json', '{"tool":{"name":"other","version":"1"}}'), /other.json: not a lockconf result \(tool.name: is not "lockconf"\)$/],
    ['a lockconf file missing its requirements', () => put('half.json', '{"tool":{"name":"lockconf","version":"0.1.0"},"verdict":"conformant"}'), /half.json: not a lockconf result \(requirements: /],
  ];
  for (const [what, make, message] of cases) {
    it(what, async () => {
      const path = await make();
      const err = await loadRun(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRunInput);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain('\n');
    });
  }
});

describe('What loads', () => {
  it('a folder, or its conformance.json, from an older lockconf: no provenance, no inputs', async () => {
    const { result } = run({ X: 'passed' });
    await mkdir(join(dir, 'old'), { recursive: true });
    await writeFile(join(dir, 'old', 'conformance.json'), JSON.stringify(result));
    for (const path of [join(dir, 'old'), join(dir, 'old', 'conformance.json')]) {
      const loaded = await loadRun(path);
      expect(loaded).toMatchObject({ dir: join(dir, 'old'), provenance: null, inputs: null });
      expect(runMode(loaded)).toBe('service');
    }
  });

  it('a run with provenance and inputs', async () => {
    const { result } = run({ 'RECEIVER-X': 'passed' });
    const inputs = { digest: 'd', tests: 1, values: 3, perTest: { 'P: x': { sha256: 's', values: 3 } } };
    const path = await put('new.json', JSON.stringify({ ...result, provenance: provenance({ mode: 'receiver' }), inputs }));
    const loaded = await loadRun(path);
    expect(loaded.provenance?.mode).toBe('receiver');
    expect(loaded.inputs).toEqual(inputs);
    expect(runMode(loaded)).toBe('receiver');
  });
});

describe('A run that judged nothing', () => {
  it('a run that could not be carried out (verdict error) is named: there is nothing to compare (exit 2)', () => {
    const broken = run({ X: 'not-tested' }, { verdict: 'error', label: '/runs/broken' });
    broken.result.error = { code: 'ERR_TARGET_UNREACHABLE', message: 'no answer' };
    expect(notCarriedOut([run({ X: 'passed' }), broken])).toBe('/runs/broken: that run could not be carried out (ERR_TARGET_UNREACHABLE): nothing in it was judged, so there is nothing to compare');
    expect(notCarriedOut([run({ X: 'passed' }), run({ X: 'failed' })])).toBeNull();
  });
});
