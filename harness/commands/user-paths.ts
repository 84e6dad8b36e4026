/**
 * Relative paths on the command line (--target, --out, --expect) mean the folder the
 * user typed the command in. `npm run conformance -- --target my.json` runs the script
 * from the package root; npm names the user's folder in INIT_CWD, so a relative path
 * is resolved against that one (npm's documented way for scripts to find it). Run
 * any other way (node bin/lockconf.js, npx), the current directory is that folder.
 */
import { isAbsolute, resolve } from 'node:path';
import { ROOT } from './common.js';

/** The folder the user ran the command from. */
export function userDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), root = ROOT): string {
  const init = env.INIT_CWD;
  // Only when npm moved the script to the package root: a child started elsewhere keeps its own cwd.
  const movedByNpm = init !== undefined && isAbsolute(init) && env.npm_lifecycle_event !== undefined && resolve(cwd) === resolve(root);
  return movedByNpm ? init : cwd;
}

/** A path given on the command line, absolute. */
export function userPath(path: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), root = ROOT): string {
  return resolve(userDir(env, cwd, root), path);
}

/** How a message names a path the user gave: as typed, and where that is when it was relative. */
export function namedPath(given: string, resolved: string): string {
  return isAbsolute(given) ? given : `${given} (${resolved})`;
}

/**
 * The run folder: --out as the user meant it (said on stdout when it differs from
 * what they typed), or the default one.
 */
export function runDirOf(out: string | undefined, fallback: () => string): string {
  if (!out) return fallback();
  const runDir = userPath(out);
  if (out !== runDir) process.stdout.write(`lockconf: --out ${namedPath(out, runDir)}: the reports go there\n`);
  return runDir;
}
