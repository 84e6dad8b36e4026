/**
 * manifest.json of a certified package: the SHA-256 and size of every file in
 * the run folder (the reports, Allure's folders included: nothing is left out),
 * the verdict and scope it certifies, the digest of the run's provenance, when
 * and by which key it was signed. manifest.json and manifest.sig themselves are
 * the only files it does not list.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Provenance } from '../provenance/types.js';
import type { ConformanceResult } from '../report/result-file.js';

export const MANIFEST = 'manifest.json';
export const SIGNATURE = 'manifest.sig';
export const BADGE = 'badge.svg';
/** The files of the package that the manifest does not list (it cannot list itself or its signature). */
export const UNLISTED: ReadonlySet<string> = new Set([MANIFEST, SIGNATURE]);

export interface ManifestFile {
  /** Relative to the run folder, '/'-separated. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface Manifest {
  schema: 1;
  tool: { name: 'lockconf'; version: string };
  mode: Provenance['mode'];
  verdict: ConformanceResult['verdict'];
  scope: { only: string[] | null; partial: boolean; inScope: number | null; total: number | null };
  /** SHA-256 of the canonical JSON of conformance.json's `provenance`. */
  provenanceSha256: string;
  signedAt: string;
  keyFingerprint: string;
  files: ManifestFile[];
}

/** A file of the folder that is not a regular file (a link, a device): a package holds none. */
export class NotAFile extends Error {}

/** Every file under `dir` ('/'-separated relative paths, sorted), the unlisted ones aside. Links and other non-files are reported in `odd`. */
export async function listFiles(dir: string): Promise<{ files: string[]; odd: string[] }> {
  const files: string[] = [];
  const odd: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        if (!UNLISTED.has(path)) files.push(path);
      } else odd.push(path);
    }
  };
  await walk('');
  return { files: files.sort(), odd: odd.sort() };
}

export function fileDigest(path: string): Promise<{ sha256: string; bytes: number }> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    let bytes = 0;
    createReadStream(path)
      .on('data', (chunk) => {
        hash.update(chunk);
        bytes += chunk.length;
      })
      .on('error', fail)
      .on('end', () => done({ sha256: hash.digest('hex'), bytes }));
  });
}

/** The manifest entries of every file of `dir`; a link or other non-file refuses (NotAFile). */
export async function hashFolder(dir: string): Promise<ManifestFile[]> {
  const { files, odd } = await listFiles(dir);
  if (odd.length) throw new NotAFile(`the run folder holds ${odd.length} entr${odd.length > 1 ? 'ies' : 'y'} that are not regular files (${odd.slice(0, 3).join(', ')}): a package holds files only`);
  const out: ManifestFile[] = [];
  for (const path of files) out.push({ path, ...(await fileDigest(join(dir, path))) });
  return out;
}

export interface FolderDifference {
  missing: string[];
  extra: string[];
  /** Links and other entries that are not regular files. */
  odd: string[];
  changed: Array<{ path: string; why: string }>;
}

/** What differs between the manifest's list and the folder as it is now. */
export async function compareFolder(dir: string, listed: readonly ManifestFile[]): Promise<FolderDifference> {
  const { files, odd } = await listFiles(dir);
  const present = new Set(files);
  const known = new Map(listed.map((f) => [f.path, f]));
  const diff: FolderDifference = { missing: [], extra: [], odd, changed: [] };
  for (const f of listed) if (!present.has(f.path)) diff.missing.push(f.path);
  for (const path of files) {
    const want = known.get(path);
    if (!want) {
      diff.extra.push(path);
      continue;
    }
    const got = await fileDigest(join(dir, path));
    if (got.sha256 !== want.sha256) diff.changed.push({ path, why: `sha256 ${got.sha256.slice(0, 16)}…, the manifest says ${String(want.sha256).slice(0, 16)}…${got.bytes !== want.bytes ? ` (${got.bytes} bytes, the manifest says ${want.bytes})` : ''}` });
  }
  return diff;
}

/** Whether a path from a manifest is one a package may list: relative, '/'-separated, no '..'. */
export function safeManifestPath(path: unknown): path is string {
  return typeof path === 'string' && path.length > 0 && !path.startsWith('/') && !path.includes('\\') && !path.split('/').some((p) => p === '..' || p === '' || p === '.');
}

/** A folder, or a link to one (reports/latest): the package's own entries are never followed (listFiles). */
export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}
