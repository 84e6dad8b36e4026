/**
 * What a forger does to a certified package (test support): copy it, change a
 * file, and, to get past the hashes, write the reports again from the edited
 * result and sign a fresh manifest with a key of their own.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFolder, MANIFEST, SIGNATURE, type Manifest } from '../../../harness/certify/manifest.js';
import { provenanceDigest } from '../../../harness/certify/package.js';
import { signManifest } from '../../../harness/certify/sign.js';
import type { SigningKey } from '../../../harness/certify/keys.js';
import { renderIndexHtml } from '../../../harness/report/index-html.js';
import { renderJunit } from '../../../harness/report/junit.js';
import type { ConformanceResult } from '../../../harness/report/result-file.js';

let copies = 0;

/** A copy of the package `from` in a new folder under `work`. */
export async function copyPackage(from: string, work: string): Promise<string> {
  const to = join(work, `copy-${++copies}`);
  await cp(from, to, { recursive: true });
  return to;
}

export async function readResult(dir: string): Promise<ConformanceResult> {
  return JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8')) as ConformanceResult;
}

/** Edits conformance.json, writes index.html and junit.xml from it, and signs a new manifest with `key`. */
export async function forge(dir: string, key: SigningKey, edit: (result: ConformanceResult) => void): Promise<void> {
  const result = await readResult(dir);
  edit(result);
  if (result.certificate) result.certificate = { ...result.certificate, keyFingerprint: key.fingerprint, verdict: result.verdict };
  await writeFile(join(dir, 'conformance.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(dir, 'index.html'), renderIndexHtml(result));
  await writeFile(join(dir, 'junit.xml'), renderJunit(result));
  await resign(dir, key, { verdict: result.verdict, provenanceSha256: provenanceDigest(result.provenance) });
}

/** A new manifest over the folder as it is, signed with `key`. */
export async function resign(dir: string, key: SigningKey, changes: Partial<Manifest> = {}): Promise<void> {
  const old = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
  const manifest: Manifest = { ...old, ...changes, keyFingerprint: key.fingerprint, files: await hashFolder(dir) };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, MANIFEST), bytes);
  await writeFile(join(dir, SIGNATURE), `${await signManifest(bytes, key)}\n`);
}
