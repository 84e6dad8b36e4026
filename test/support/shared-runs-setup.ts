/**
 * The unit project's global setup: the folder of this invocation's shared runs
 * (test/support/shared-runs.ts), provided to the workers as `lockconfSharedRuns`. Teardown
 * fails the invocation when a reader changed a file of a shared run (they are read only:
 * a test that changes one copies it first), then removes the folder.
 */
import type { TestProject } from 'vitest/node';
import { makeTmpDir, removeTmpDir } from './tmp.js';
import { sharedRunChanges } from './shared-run-files.js';
import type {} from './shared-runs.js'; // the ProvidedContext augmentation for 'lockconfSharedRuns'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await makeTmpDir('shared-runs');
  project.provide('lockconfSharedRuns', folder);
  return async () => {
    const changes = await sharedRunChanges(folder);
    await removeTmpDir(folder);
    if (changes.length === 0) return;
    // vitest reports an error thrown here ("error during close") but exits 0 for it: the exit code is set first.
    process.exitCode = 1;
    throw new Error(`a test changed a shared run (test/support/shared-runs.ts: readers only read; copy a run to change it):\n${changes.join('\n')}`);
  };
}
