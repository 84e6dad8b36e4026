#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` (prepack, postpack): the git commit the package is
 * packed from, written to source.json beside package.json for the tarball, and
 * removed again once it is packed. `lockconf --version` of an installed package
 * reads it, so a report or a bug from an installed copy is tied to exact sources
 * (a clone reads its .git instead). Outside a git clone nothing is written.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FILE = join(ROOT, 'source.json');

function git(args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

if (process.argv[2] === 'remove') {
  rmSync(FILE, { force: true });
} else {
  try {
    const commit = git(['rev-parse', 'HEAD']);
    const branch = git(['rev-parse', '--abbrev-ref', 'HEAD']);
    const changed = git(['status', '--porcelain', '--untracked-files=no']) !== '';
    writeFileSync(FILE, `${JSON.stringify({ commit, branch: branch === 'HEAD' ? null : branch, localChanges: changed })}\n`);
  } catch {
    rmSync(FILE, { force: true }); // not a git clone (or no git): --version says so
  }
}
