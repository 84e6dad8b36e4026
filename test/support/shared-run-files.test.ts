/**
 * The shared runs are read only (test/support/shared-runs.ts): the teardown of the unit
 * project's global setup names every file a reader changed, added or removed since the
 * run was made, and a run that never finished is left alone.
 */
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedRunChanges, snapshot, type Published } from './shared-run-files.js';
import { makeTmpDir, removeTmpDir } from './tmp.js';

let folder = '';
beforeAll(async () => {
  folder = await makeTmpDir('shared-run-files');
});
afterAll(() => removeTmpDir(folder));

/** A run as its maker publishes it: files under <name>/run, their snapshot in <name>/result.json. */
async function publish(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(folder, name, 'run');
  await mkdir(join(dir, 'allure-results'), { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  const published: Published = { code: 0, stdout: '', stderr: '', files: await snapshot(dir) };
  await writeFile(join(folder, name, 'result.json'), JSON.stringify(published));
  return dir;
}

describe('a shared run changed by a reader', () => {
  it('is untouched when readers only read', async () => {
    await publish('untouched', { 'conformance.json': '{}', 'allure-results/a-result.json': '{}' });
    expect(await sharedRunChanges(folder)).toEqual([]);
    await rm(join(folder, 'untouched'), { recursive: true });
  });

  it('names a file changed (its size or its time), added or removed', async () => {
    const dir = await publish('tampered', { 'conformance.json': '{}', 'index.html': '<p>', 'junit.xml': '<x/>', 'allure-results/a-result.json': '{}' });
    await writeFile(join(dir, 'conformance.json'), '{"verdict":"conformant"}');
    const later = new Date(Date.now() + 5_000);
    await utimes(join(dir, 'index.html'), later, later); // rewritten with the same length
    await rm(join(dir, 'junit.xml'));
    await writeFile(join(dir, 'allure-results', 'b-result.json'), '{}');
    expect((await sharedRunChanges(folder)).sort()).toEqual([
      'tampered: allure-results/b-result.json added',
      'tampered: conformance.json changed',
      'tampered: index.html changed',
      'tampered: junit.xml removed',
    ]);
    await rm(join(folder, 'tampered'), { recursive: true });
  });

  it('leaves a run that was never published alone (its maker did not finish)', async () => {
    await mkdir(join(folder, 'unfinished', 'run'), { recursive: true });
    await writeFile(join(folder, 'unfinished', 'run', 'conformance.json'), '{}');
    expect(await sharedRunChanges(folder)).toEqual([]);
  });
});
