/**
 * `lockconf --version` / `-V`: the version and where the code came from, so a
 * report or a bug can be tied to exact sources: the git commit (and branch) in a
 * clone, the installed package otherwise. Read from files, without running git:
 * it costs nothing to build the command line with it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The git directory of a clone or of a worktree (.git is then a file naming it), or null. */
function gitDirOf(root: string): string | null {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return null;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(read(dotGit) ?? '');
  return pointer ? resolve(root, pointer[1]!.trim()) : null;
}

/** The commit HEAD names and its branch (null when detached), or null when it cannot be read. */
export function gitSource(root: string): { commit: string; branch: string | null } | null {
  const gitDir = gitDirOf(root);
  if (!gitDir) return null;
  const head = read(join(gitDir, 'HEAD'));
  if (!head) return null;
  if (/^[0-9a-f]{40}$/.test(head)) return { commit: head, branch: null };
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (!ref) return null;
  const common = resolve(gitDir, read(join(gitDir, 'commondir')) ?? '.');
  const loose = read(join(common, ref)) ?? read(join(gitDir, ref));
  const packed = (read(join(common, 'packed-refs')) ?? '').split('\n').find((l) => l.endsWith(` ${ref}`))?.split(' ')[0];
  const commit = loose ?? packed;
  return commit && /^[0-9a-f]{40}$/.test(commit) ? { commit, branch: ref.replace(/^refs\/heads\//, '') } : null;
}

/** The commit `npm pack` stamped into source.json (bin/source-stamp.js), as --version says it, or null. */
function packedSource(root: string): string | null {
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'source.json'), 'utf8')) as { commit?: unknown; branch?: unknown; localChanges?: unknown };
    if (typeof stamp.commit !== 'string' || !/^[0-9a-f]{40}$/.test(stamp.commit)) return null;
    const branch = typeof stamp.branch === 'string' ? ` (branch ${stamp.branch})` : ' (detached)';
    return `${stamp.commit.slice(0, 12)}${branch}${stamp.localChanges === true ? ' with local changes' : ''}`;
  } catch {
    return null;
  }
}

/** The integrity npm recorded for an installed package (…/node_modules/lockconf) in node_modules/.package-lock.json, or null. */
export function installedIntegrity(root: string): string | null {
  const m = /^(.*[\\/]node_modules)[\\/](.+)$/.exec(root);
  if (!m) return null;
  try {
    const lock = JSON.parse(readFileSync(join(m[1]!, '.package-lock.json'), 'utf8')) as { packages?: Record<string, { integrity?: string }> };
    return lock.packages?.[`node_modules/${m[2]!.split('\\').join('/')}`]?.integrity ?? null;
  } catch {
    return null;
  }
}

export function versionText(root: string): string {
  let version = '0.0.0';
  try {
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? version;
  } catch {
    // a package.json that cannot be read: the version is unknown, the source still said
  }
  const git = gitSource(root);
  const packed = packedSource(root);
  const integrity = git ? null : installedIntegrity(root);
  const integrityText = integrity ? `, integrity ${integrity}` : '';
  const source = git
    ? `git commit ${git.commit.slice(0, 12)}${git.branch ? ` (branch ${git.branch})` : ' (detached)'} in ${root}`
    : packed
      ? `the package packed from git commit ${packed}, installed in ${root}${integrityText}`
      : /[\\/]node_modules[\\/]/.test(root) ? `the installed package in ${root}${integrityText} (packed outside a git clone)` : `${root} (not a git clone)`;
  return `lockconf ${version}\nsource: ${source}`;
}
