/**
 * Where keygen may write a private key. By default a folder outside any clone
 * (~/.lockconf/keys). A folder the user names is refused when it lies in a git
 * work tree and git would not ignore the key file there: an untracked key makes
 * every certificate of that clone say "work tree with uncommitted changes", and it
 * is one `git add -A` from a commit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** keygen's folder when --out is not given: in the user's home, outside any clone. */
export function defaultKeyFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.LOCKCONF_HOME?.trim() || join(homedir(), '.lockconf'), 'keys');
}

function nearestExisting(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

function git(cwd: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8', timeout: 10_000 }).trim() };
  } catch (err) {
    const status = (err as { status?: number | null }).status;
    return { code: typeof status === 'number' ? status : -1, out: '' };
  }
}

/**
 * Why the private key `file` must not be written where it is (a git work tree that
 * does not ignore it), or null: outside any work tree, ignored there, or git not at hand.
 */
export function trackedKeyProblem(file: string): string | null {
  const cwd = nearestExisting(dirname(file));
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0 || !top.out) return null; // not in a work tree (or no git): nothing to commit it to
  const ignored = git(cwd, ['check-ignore', '-q', '--', file]);
  if (ignored.code === 0) return null;
  if (ignored.code !== 1) return null; // git could not tell: do not refuse on a guess
  return `${file} would lie in the git work tree ${top.out}, and its .gitignore does not cover it: an untracked private key makes every certificate from that clone say "work tree with uncommitted changes", and is one \`git add -A\` from a commit. Give --out a folder outside the clone (the default is ${defaultKeyFolder()}), or one its .gitignore covers (e.g. .lockconf/keys)`;
}
