/**
 * Where the running suite came from: the git commit (branch, and whether the work
 * tree was clean) in a clone; the installed package's integrity otherwise, from
 * the consumer's package lock (its entry for lockconf) or, failing that, a
 * SHA-256 over the package's files.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { gitSource } from '../commands/version.js';
import { sha256Hex } from './hashes.js';
import type { SuiteSource } from './types.js';

/** `git status --porcelain` is empty: true; not: false; git absent, slow or failing: null. */
export function workTreeClean(root: string, timeoutMs = 5_000): Promise<boolean | null> {
  if (!existsSync(join(root, '.git'))) return Promise.resolve(null);
  return new Promise((done) => {
    execFile('git', ['status', '--porcelain', '--untracked-files=normal'], { cwd: root, timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024, windowsHide: true }, (err, stdout) => {
      done(err ? null : stdout.trim() === '');
    });
  });
}

async function readJson(file: string): Promise<Record<string, unknown> | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The integrity npm recorded for the package at `root` (…/node_modules/lockconf), from a package lock that lists it. */
export async function lockedIntegrity(root: string): Promise<string | null> {
  const parts = root.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  const nodeModules = parts.slice(0, at + 1).join(sep);
  const key = relative(dirname(nodeModules), root).split(sep).join('/'); // node_modules/lockconf
  for (const lock of [join(nodeModules, '.package-lock.json'), join(dirname(nodeModules), 'package-lock.json')]) {
    const entry = ((await readJson(lock))?.packages as Record<string, { integrity?: unknown }> | undefined)?.[key];
    if (typeof entry?.integrity === 'string') return entry.integrity;
  }
  return null;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** "sha256-files:<hex>": SHA-256 over "<path> <sha256>\n" of every file the package.json `files` list ships, sorted by path. */
export async function packageFilesDigest(root: string): Promise<string | null> {
  const pkg = await readJson(join(root, 'package.json'));
  const listed = Array.isArray(pkg?.files) ? (pkg.files as unknown[]).filter((f): f is string => typeof f === 'string') : [];
  if (!pkg || listed.length === 0) return null;
  const files = new Set<string>([join(root, 'package.json')]);
  for (const entry of listed) {
    const path = join(root, entry);
    if (!existsSync(path)) continue;
    const under = await filesUnder(path);
    for (const f of under.length ? under : [path]) files.add(f);
  }
  const lines: string[] = [];
  for (const file of [...files].sort()) {
    const body = await readFile(file).catch(() => null);
    if (body) lines.push(`${relative(root, file).split(sep).join('/')} ${sha256Hex(body)}`);
  }
  return `sha256-files:${sha256Hex(`${lines.join('\n')}\n`)}`;
}

export async function suiteSource(root: string): Promise<SuiteSource> {
  const git = gitSource(root);
  if (git) return { kind: 'git', commit: git.commit, branch: git.branch, clean: await workTreeClean(root) };
  const locked = await lockedIntegrity(root);
  if (locked) return { kind: 'package', integrity: locked, path: root, integritySource: 'package-lock' };
  const digest = await packageFilesDigest(root);
  return { kind: 'package', integrity: digest, path: root, integritySource: digest ? 'files-sha256' : null };
}
