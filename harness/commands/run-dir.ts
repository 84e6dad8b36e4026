/**
 * A run folder is written by one run at a time. Two runs in one checkout each get
 * their own folder under reports/runs/ (defaultRunDir); two runs given the same
 * --out DIR would overwrite each other's files, so a run marks the folder as its own
 * (a `.lockconf-run` file with its process ID, created exclusively) and the second
 * is refused with exit 2 while the first is alive. A mark left by a process that
 * is gone is taken over.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageFailure } from './common.js';
import { processAlive } from '../service/local-lease.js';

export const RUN_MARK = '.lockconf-run';


/** Marks `runDir` as this run's; returns the release. Throws UsageFailure when another live run holds it. */
export async function claimRunDir(runDir: string): Promise<() => Promise<void>> {
  await mkdir(runDir, { recursive: true });
  const mark = join(runDir, RUN_MARK);
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(mark, token, { flag: 'wx' });
      return async () => {
        // Only our own mark goes: a run that took over a mark it thought stale keeps its own.
        if ((await readFile(mark, 'utf8').catch(() => '')) === token) await rm(mark, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number((await readFile(mark, 'utf8').catch(() => '')).split(' ')[0]);
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
      throw new UsageFailure(`${runDir} is being written by another lockconf run (process ${holder}): give this run another --out DIR, or wait for that run to end`);
    }
    await rm(mark, { force: true }); // left by a run that is gone (or by this process's earlier run)
  }
  throw new UsageFailure(`${runDir}: could not mark the folder as this run's`);
}
