/**
 * The files of the shared runs (test/support/shared-runs.ts) as their maker left them, and what
 * readers changed since: global setup's teardown (shared-runs-setup.ts) fails the invocation on
 * any change. Plain file reading, no vitest: global setup loads it in vitest's own process.
 */
import { statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { CliResult } from './cli.js';
import { filesUnder } from './files.js';

/** What a shared run's result.json holds: the command's end, and each file of the run as it was left. */
export interface Published extends CliResult {
  files: Record<string, { bytes: number; mtimeMs: number }>;
  /** Why the command could not be run at all. */
  error?: string;
}

/** Each file under `dir` with its size and modification time ({} when there is no such folder). */
export async function snapshot(dir: string): Promise<Published['files']> {
  const files: Published['files'] = {};
  // statSync: a shared full run holds thousands of files; fs/promises' stat cost 1.4 s of CPU for 8,062, statSync 0.05 s.
  for (const file of await filesUnder(dir).catch(() => [])) {
    const s = statSync(file);
    files[relative(dir, file)] = { bytes: s.size, mtimeMs: s.mtimeMs };
  }
  return files;
}

/**
 * What readers changed in the shared runs under `folder` since they were made: "name: file
 * changed|added|removed". A run not published (never finished) is skipped.
 */
export async function sharedRunChanges(folder: string): Promise<string[]> {
  const changes: string[] = [];
  for (const name of await readdir(folder).catch(() => [])) {
    let published: Published;
    try {
      published = JSON.parse(await readFile(join(folder, name, 'result.json'), 'utf8')) as Published;
    } catch {
      continue;
    }
    const now = await snapshot(join(folder, name, 'run'));
    for (const [file, was] of Object.entries(published.files)) {
      const is = now[file];
      if (!is) changes.push(`${name}: ${file} removed`);
      else if (is.bytes !== was.bytes || is.mtimeMs !== was.mtimeMs) changes.push(`${name}: ${file} changed`);
    }
    for (const file of Object.keys(now)) if (!published.files[file]) changes.push(`${name}: ${file} added`);
  }
  return changes;
}
