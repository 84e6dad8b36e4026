/** Scratch directories under the system temp dir, one per test file or test. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory named lockconf-<name>-XXXXXX. */
export function makeTmpDir(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `lockconf-${name}-`));
}

/** Removes a directory made by makeTmpDir; nothing to do when it was never made. */
export async function removeTmpDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}
