/**
 * `lockconf verify DIR [--key PUBLIC-KEY]`: whether a certified package is what
 * its signer wrote, offline. In order: every file against manifest.json
 * (missing, extra, changed: each named), manifest.sig over manifest.json (with
 * the reader's --key; without one, against the key in the signature's header:
 * valid for that key, but nobody vouches for it), the manifest against
 * conformance.json (verdict, provenance digest, signer), the reports against
 * each other (index.html, junit.xml), and the verdict re-derived from the
 * per-requirement test evidence and this lockconf's catalog (rederive.ts).
 * Exit 0 valid, 1 invalid (something does not match), 2 could not verify.
 */
import { readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { catalogDigest, specDigest } from '../provenance/hashes.js';
import { CATALOG } from '../catalog/index.js';
import type { ConformanceResult } from '../report/result-file.js';
import { CertifyError, loadPublicKey } from './keys.js';
import { MANIFEST, SIGNATURE, compareFolder, isDirectory, safeManifestPath, type Manifest } from './manifest.js';
import { provenanceDigest } from './package.js';
import { rederive } from './rederive.js';
import { checkSignature } from './sign.js';
import { certifiedLines } from './certified-summary.js';

export const VERIFY_EXIT = { VALID: 0, INVALID: 1, COULD_NOT_VERIFY: 2 } as const;

export interface VerifyReport {
  code: number;
  /** What was checked and what did not match, a line each, the conclusion last. */
  lines: string[];
  /** The mismatches alone (empty when valid). */
  problems: string[];
}

async function readMaybe(path: string): Promise<Buffer | null> {
  return readFile(path).catch(() => null);
}

function parse<T>(bytes: Buffer): T | null {
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** Files a file manager or OS drops into any folder it opens (not a tampering, but still not signed). */
function systemFile(path: string): boolean {
  return /(?:^|\/)(?:\.DS_Store|Thumbs\.db|desktop\.ini|\._[^/]+)$/i.test(path);
}

export async function verifyPackage(dirArg: string, opts: { keyFile?: string; root: string }): Promise<VerifyReport> {
  let dir = resolve(dirArg);
  const lines: string[] = [];
  const problems: string[] = [];
  let result: ConformanceResult | null = null;
  const cannot = (why: string): VerifyReport => ({ code: VERIFY_EXIT.COULD_NOT_VERIFY, lines: [...lines, ...problems.map((p) => `✗ ${p}`), `COULD NOT VERIFY: ${why}`], problems });
  if (!(await isDirectory(dir))) return cannot(`${dir} is not a folder`);
  dir = await realpath(dir); // reports/latest: the run folder it names
  let trusted: Awaited<ReturnType<typeof loadPublicKey>> | null = null;
  if (opts.keyFile) {
    try {
      trusted = await loadPublicKey(opts.keyFile);
    } catch (err) {
      if (err instanceof CertifyError) return cannot(err.message);
      throw err;
    }
  }
  const manifestBytes = await readMaybe(join(dir, MANIFEST));
  const sig = await readMaybe(join(dir, SIGNATURE));
  if (!manifestBytes || !sig) return cannot(`${dir} is no certified package: ${!manifestBytes ? MANIFEST : SIGNATURE} is missing (lockconf conformance --certify writes one)`);

  // 1. The signature over manifest.json's exact bytes.
  const signature = await checkSignature(sig.toString('utf8'), manifestBytes, trusted);
  if (!signature.ok) problems.push(signature.problem);
  else if (signature.trusted) lines.push(`✓ signature valid, by the given key ${signature.fingerprint}`);
  else lines.push(`✓ signature valid for key ${signature.fingerprint}; no trusted key given (pass --key with the signer's published public key to know who signed)`);

  // 2. Every file against the manifest.
  const manifest = parse<Manifest>(manifestBytes);
  if (!manifest || !Array.isArray(manifest.files) || !manifest.files.every((f) => safeManifestPath(f?.path))) {
    problems.push(`${MANIFEST} is not a lockconf manifest (unreadable, or a file entry with an unsafe path)`);
    return finish();
  }
  const diff = await compareFolder(dir, manifest.files);
  for (const path of diff.missing) problems.push(`missing: ${path} (listed in the manifest, not in the folder)`);
  for (const path of diff.extra) problems.push(`extra: ${path} (in the folder, not in the manifest)${systemFile(path) ? `: a file your system adds to folders it shows; remove it (${path}) and verify again` : ''}`);
  for (const path of diff.odd) problems.push(`extra: ${path} (not a regular file: a package holds files only)`);
  for (const c of diff.changed) problems.push(`changed: ${c.path} (${c.why})`);
  if (!diff.missing.length && !diff.extra.length && !diff.odd.length && !diff.changed.length) lines.push(`✓ ${manifest.files.length} files match their SHA-256 in ${MANIFEST}`);

  // 3. The manifest against the result, the result against the other reports.
  const resultBytes = await readMaybe(join(dir, 'conformance.json'));
  result = resultBytes ? parse<ConformanceResult>(resultBytes) : null;
  if (!result) {
    problems.push('conformance.json is missing or not JSON');
    return finish();
  }
  if (manifest.verdict !== result.verdict) problems.push(`verdict: the manifest says ${manifest.verdict}, conformance.json says ${result.verdict}`);
  if (!result.certificate) problems.push('conformance.json has no certificate block (it was not written by conformance --certify, or it was removed)');
  if (result.provenance && manifest.mode !== result.provenance.mode) problems.push(`mode: the manifest says ${manifest.mode}, conformance.json says ${result.provenance.mode}`);
  if (result.certificate?.verdict !== undefined && result.certificate.verdict !== result.verdict) problems.push(`verdict: the certificate block says ${result.certificate.verdict}, conformance.json says ${result.verdict}`);
  if (manifest.provenanceSha256 !== provenanceDigest(result.provenance)) problems.push('provenance: conformance.json\'s provenance is not the one the manifest records (its digest differs)');
  if (signature.fingerprint && manifest.keyFingerprint !== signature.fingerprint) problems.push(`signer: the manifest names key ${manifest.keyFingerprint}, the signature key ${signature.fingerprint}`);
  if (result.certificate && result.certificate.keyFingerprint !== manifest.keyFingerprint) problems.push(`signer: conformance.json's certificate names key ${result.certificate.keyFingerprint}, the manifest ${manifest.keyFingerprint}`);
  const html = (await readMaybe(join(dir, 'index.html')))?.toString('utf8') ?? '';
  const htmlVerdict = /data-verdict="([^"]+)"/.exec(html)?.[1];
  if (htmlVerdict !== result.verdict) problems.push(`verdict: index.html says ${htmlVerdict ?? '(none)'}, conformance.json says ${result.verdict}`);
  const junit = (await readMaybe(join(dir, 'junit.xml')))?.toString('utf8') ?? '';
  const junitVerdict = /<property name="lockconf\.verdict" value="([^"]+)"/.exec(junit)?.[1];
  if (junitVerdict !== result.verdict) problems.push(`verdict: junit.xml says ${junitVerdict ?? '(none)'}, conformance.json says ${result.verdict}`);

  // 4. The suite it was judged with, and the verdict from the evidence.
  const p = result.provenance;
  if (p) {
    const spec = await specDigest(opts.root);
    if (spec && p.spec.sha256 !== spec) lines.push(`! the run was judged against another spec text (sha256 ${p.spec.sha256.slice(0, 16)}…) than this lockconf's (${spec.slice(0, 16)}…)`);
    if (p.catalog.sha256 === catalogDigest(CATALOG)) lines.push('✓ spec and requirement catalog: the same as this lockconf\'s');
  }
  const again = rederive(result);
  for (const note of again.notes) lines.push(`! ${note}`);
  problems.push(...again.findings);
  if (again.cannot) return finish(again.cannot);
  if (!again.findings.length) lines.push(`✓ verdict ${result.verdict} re-derived from the ${result.requirements.length} requirements' test evidence (${result.tests.length} tests)`);
  return finish();

  function finish(couldNot?: string): VerifyReport {
    const out = [...lines, ...problems.map((x) => `✗ ${x}`)];
    if (problems.length) return { code: VERIFY_EXIT.INVALID, lines: [...out, `INVALID: ${problems.length} thing(s) do not match (above)`], problems };
    if (couldNot) return { code: VERIFY_EXIT.COULD_NOT_VERIFY, lines: [...out, `COULD NOT VERIFY: ${couldNot}`], problems };
    const who = signature.ok && signature.trusted ? `signed by the given key ${signature.fingerprint}` : `signed by key ${signature.ok ? signature.fingerprint : '?'}, which nobody vouched for (no --key given)`;
    return { code: VERIFY_EXIT.VALID, lines: [...out, ...(result ? certifiedLines(result) : []), `VALID${signature.ok && signature.trusted ? '' : ' (untrusted signer)'}: ${result?.verdict ?? '?'}, ${who}`], problems };
  }
}
