/**
 * `conformance --certify`: which runs can be certified, and the package a
 * certified run's folder becomes. Only the full scope at default strictness
 * earns a certificate: a run narrowed by --only, weakened by a setting
 * (run/weakening.ts) or given an --expect file with entries (expected failures
 * change the verdict) is refused before it starts; a run that ends without a
 * verdict of its own (error, interrupted, interfered, partial) is refused after.
 * The package: the run's files, index.html with a certificate block (and
 * junit.xml with its lockconf.certificate.* properties), badge.svg, manifest.json (every file's SHA-256) and manifest.sig.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { canonicalJson, sha256Hex } from '../provenance/hashes.js';
import type { ConformanceResult } from '../report/result-file.js';
import { renderIndexHtml } from '../report/index-html.js';
import { renderJunit } from '../report/junit.js';
import { renderBadge } from './badge.js';
import { CertifyError, type SigningKey } from './keys.js';
import { BADGE, MANIFEST, SIGNATURE, hashFolder, type Manifest } from './manifest.js';
import { signManifest } from './sign.js';
import type { Weakening } from '../run/weakening.js';
import type { ExpectedDeviations } from '../run/expectations.js';

/** Verdicts a certificate can state. */
export const CERTIFIABLE: ReadonlySet<ConformanceResult['verdict']> = new Set(['conformant', 'not-conformant', 'incomplete']);

/** Why a run about to start cannot be certified, or null. */
export function refusalBeforeRun(run: { only?: readonly string[] | null; weakenedBy: readonly Weakening[]; expected: ExpectedDeviations | null }): string | null {
  if (run.only?.length) return `the scope is narrowed by --only ${run.only.join(' ')}: only a run of every requirement can be certified`;
  if (run.weakenedBy.length) return `the run is weakened by ${run.weakenedBy.map((w) => `${w.setting}=${w.value}`).join(', ')}: only a run at default strictness can be certified`;
  if (run.expected && run.expected.size > 0) return `--expect lists ${run.expected.size} expected failure(s): expected failures change the verdict, so such a run cannot be certified (an empty --expect file is accepted)`;
  return null;
}

/** Why a finished run cannot be certified, or null. */
export function refusalAfterRun(result: ConformanceResult | null): string | null {
  if (!result) return 'the run wrote no conformance.json: nothing to certify';
  if (result.verdict === 'error') return `the run could not be carried out (${result.error?.code ?? 'error'}): nothing was judged`;
  if (!CERTIFIABLE.has(result.verdict)) return `the verdict is ${result.verdict}: only a finished run of the full scope (conformant, not conformant or incomplete) can be certified`;
  if (result.selection.only || result.selection.partial) return 'the run is partial: only a run of the full scope at default strictness can be certified';
  if (!result.provenance) return 'the run does not describe itself (no provenance in conformance.json)';
  return null;
}

export function scopeLine(result: ConformanceResult): string {
  const total = result.selection.total ?? result.requirements.length;
  return `all ${total} ${result.provenance?.mode ?? 'service'} requirements, default strictness, no expected failures`;
}

export function provenanceDigest(provenance: unknown): string {
  return sha256Hex(canonicalJson(provenance ?? null));
}

/** Turns the finished run's folder into a signed package; returns the manifest. */
export async function certifyFolder(runDir: string, key: SigningKey, now = new Date()): Promise<Manifest> {
  const resultFile = join(runDir, 'conformance.json');
  const result = JSON.parse(await readFile(resultFile, 'utf8')) as ConformanceResult;
  const refusal = refusalAfterRun(result);
  if (refusal) throw new CertifyError(`not certified: ${refusal}`);
  const signedAt = now.toISOString();
  result.certificate = { keyFingerprint: key.fingerprint, signedAt, verdict: result.verdict, scope: scopeLine(result), mode: result.provenance!.mode };
  await writeFileAtomic(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  await writeFileAtomic(join(runDir, 'index.html'), renderIndexHtml(result));
  await writeFileAtomic(join(runDir, 'junit.xml'), renderJunit(result)); // lockconf.certificate.* properties
  await writeFileAtomic(join(runDir, BADGE), renderBadge(result.verdict, key.fingerprint));
  const manifest: Manifest = {
    schema: 1,
    tool: { name: 'lockconf', version: result.tool.version },
    mode: result.provenance!.mode,
    verdict: result.verdict,
    scope: result.provenance!.scope,
    provenanceSha256: provenanceDigest(result.provenance),
    signedAt,
    keyFingerprint: key.fingerprint,
    files: await hashFolder(runDir),
  };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
  await writeFile(join(runDir, MANIFEST), bytes);
  await writeFile(join(runDir, SIGNATURE), `${await signManifest(bytes, key)}\n`);
  return manifest;
}

/** The certificate block of the terminal. */
export function certificateLines(runDir: string, manifest: Manifest): string[] {
  return [
    'certificate:',
    `  signed by key ${manifest.keyFingerprint}`,
    `  verdict ${manifest.verdict}; scope: all ${manifest.scope.total ?? '?'} ${manifest.mode} requirements`,
    `  package: ${runDir} (${manifest.files.length} files in ${MANIFEST}, signature ${SIGNATURE}, ${BADGE})`,
    `  check it: lockconf verify ${runDir} --key <the signer's signing-key.pub.pem>`,
  ];
}
