/** Two runs never write into the same folder (harness/commands/run-dir.ts), and reports/latest is swapped whole (pointLatest). */
import { spawn } from 'node:child_process';
import { mkdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimRunDir, RUN_MARK } from '../../harness/commands/run-dir.js';
import { defaultRunDir, pointLatest } from '../../harness/report/reporter.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('run-dir');
});
afterAll(() => removeTmpDir(dir));

describe('run folders', () => {
  it('two runs started in the same millisecond get folders of their own', () => {
    const now = new Date('2026-11-26T07:00:00.000Z');
    expect(defaultRunDir(dir, now)).not.toBe(defaultRunDir(dir, now));
  });

  it('a folder a live run is writing is refused to a second run, and free again once released', async () => {
    const out = join(dir, 'shared');
    // Another live process holds the folder.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await mkdir(out, { recursive: true });
      await writeFile(join(out, RUN_MARK), `${other.pid} 0 x`);
      await expect(claimRunDir(out)).rejects.toThrow(new RegExp(`being written by another lockconf run \\(process ${other.pid}\\)`));
    } finally {
      other.kill();
    }
    await new Promise((r) => other.once('exit', r));
    // Its process is gone: the mark is stale and taken over.
    const release = await claimRunDir(out);
    await expect(claimRunDir(out)).resolves.toBeTypeOf('function'); // the same process's next run (a lane) takes it over
    await release();
  });

  it('reports/latest is replaced whole, also when two runs end at once', async () => {
    for (const run of ['a', 'b']) await mkdir(join(dir, 'reports', 'runs', run), { recursive: true });
    await Promise.all([pointLatest(dir, join(dir, 'reports', 'runs', 'a')), pointLatest(dir, join(dir, 'reports', 'runs', 'b'))]);
    expect(['runs/a', 'runs/b']).toContain(await readlink(join(dir, 'reports', 'latest')));
  });
});
