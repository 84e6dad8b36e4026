/**
 * A TypeScript script a test starts in a child process, run the way the command
 * line is (bin/lockconf.js): prebuilt by bin/bundle.js (built when missing or when a
 * source changed) and run by plain node, so the child pays no tsx hooks on its
 * imports. Through tsx when no build can be had, or with LOCKCONF_NO_BUILD=1.
 */
import { join, resolve } from 'node:path';
import { ensureBundle } from '../../bin/bundle.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface NodeStart {
  /** The module node runs. */
  script: string;
  /** Node's flags for it: [] prebuilt, the tsx loader otherwise. */
  execArgv: string[];
}

/** How to start `entry` (a path relative to the repository, e.g. 'test/self-verification/lane.ts'); `name` names its build in the cache. */
export async function prebuiltStart(name: string, entry: string, env: NodeJS.ProcessEnv = process.env): Promise<NodeStart> {
  const build = await ensureBundle({ root: ROOT, name, entryPoints: [entry], env });
  return build ? { script: build.entries[entry]!, execArgv: [] } : { script: join(ROOT, entry), execArgv: ['--import', 'tsx'] };
}
