/**
 * Issue 21, "certificates a third party can verify": one certified run of the
 * embedded mock with a fault (OAUTH-STATE-ECHO fails: not conformant), then every
 * way of tampering with its package, each caught by `verify` with a message that
 * names what changed. Copies of the one package are tampered with; verify runs in
 * this process (its exit codes through the command line once each).
 */
import { readFile, writeFile, rm, symlink } from 'node:fs/promises';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeys, type GeneratedKeys } from '../../../harness/certify/keygen.js';
import { loadSigningKey, type SigningKey } from '../../../harness/certify/keys.js';
import type { Manifest } from '../../../harness/certify/manifest.js';
import { verifyPackage, type VerifyReport } from '../../../harness/certify/verify.js';
import type { ConformanceResult } from '../../../harness/report/result-file.js';
import { cli, ROOT, type CliResult } from '../../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { copyPackage, forge, readResult, resign } from './forge.js';
import { filesUnder } from '../../support/files.js';

const CREDENTIALS = { clientSecret: 'certtest-client-secret-4d91b7', apiKey: 'certtest-api-key-8a02ce', controlToken: 'certtest-control-token-1f6e3a' };
const FAILED = 'OAUTH-STATE-ECHO'; // broken by the mock fault state-truncated

let work = '';
let pkg = '';
let signer: GeneratedKeys;
let forger: SigningKey;
let run: CliResult;
let result: ConformanceResult;

const verify = (dir: string, key: string | null = signer.publicFile): Promise<VerifyReport> => verifyPackage(dir, { root: ROOT, ...(key ? { keyFile: key } : {}) });

beforeAll(async () => {
  work = await makeTmpDir('certify');
  signer = await generateSigningKeys(join(work, 'keys'));
  forger = await loadSigningKey({ LOCKCONF_SIGNING_KEY: (await generateSigningKeys(join(work, 'forger'))).privateFile });
  pkg = join(work, 'run');
  run = await cli(['conformance', '--certify', '--no-allure', '--out', pkg, '--seed', '21'], {
    LOCKCONF_SIGNING_KEY: signer.privateFile,
    LOCKCONF_MOCK_OPTIONS: JSON.stringify({ credentials: CREDENTIALS, faults: ['state-truncated'] }),
    // A certificate needs every requirement (the sign-in screens on), but this package's test needs no
    // browser: with no Chromium they are not tested (the run is not conformant anyway: state-truncated).
    LOCKCONF_SIGN_IN: 'on',
    LOCKCONF_CHROMIUM: join(work, 'no-chromium'),
  });
  result = await readResult(pkg);
}, 240_000);
afterAll(() => removeTmpDir(work));

describe('a certified run (conformance --certify)', () => {
  it('reports the sign-in screens not tested, naming the missing Chromium, never failed', () => {
    const screens = result.requirements.find((r) => r.id === 'OAUTH-SIGN-IN-SCREENS');
    expect(screens?.status).toBe('not-tested');
    expect(screens?.reason).toMatch(/no Chromium at .*no-chromium/);
  });

  it('ends with the exit code of its verdict and prints the certificate block', () => {
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(1);
    expect(result.verdict).toBe('not-conformant');
    expect(run.stdout).toContain(`signed by key ${signer.fingerprint}`);
    expect(run.stdout).toMatch(/verdict not-conformant; scope: all \d+ service requirements/);
  });

  it('writes manifest.json (every file with its SHA-256 and size), manifest.sig and badge.svg', async () => {
    const manifest = JSON.parse(await readFile(join(pkg, 'manifest.json'), 'utf8')) as Manifest;
    const files = (await filesUnder(pkg)).map((f) => relative(pkg, f)).filter((f) => f !== 'manifest.json' && f !== 'manifest.sig').sort();
    expect(manifest.files.map((f) => f.path)).toEqual(files);
    for (const f of manifest.files) {
      const body = await readFile(join(pkg, f.path));
      expect(f).toEqual({ path: f.path, sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length });
    }
    expect(manifest).toMatchObject({ schema: 1, verdict: 'not-conformant', keyFingerprint: signer.fingerprint, mode: 'service' });
    expect((await readFile(join(pkg, 'manifest.sig'), 'utf8')).trim().split('.')).toHaveLength(3);
    const badge = await readFile(join(pkg, 'badge.svg'), 'utf8');
    expect(badge).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(badge).toContain('not conformant');
    expect(badge).not.toMatch(/href|<script|url\(/);
  });

  it('shows the certificate block in index.html and junit.xml: signer, scope, verdict', async () => {
    const html = await readFile(join(pkg, 'index.html'), 'utf8');
    expect(html).toContain(`data-key="${signer.fingerprint}"`);
    expect(html).toMatch(/<section class="cert v-bad"[^]*not-conformant/);
    expect(result.certificate).toMatchObject({ keyFingerprint: signer.fingerprint, verdict: 'not-conformant', mode: 'service' });
    expect(await readFile(join(pkg, 'junit.xml'), 'utf8')).toContain(`<property name="lockconf.certificate.key" value="${signer.fingerprint}"/>`);
  });

  it('describes itself in every report: conformance.json, index.html, junit.xml', async () => {
    const p = result.provenance!;
    expect(p).toMatchObject({ schema: 1, mode: 'service', seed: 21, scope: { only: null, partial: false }, target: { mock: true } });
    expect(p.command.argv).toEqual(['conformance', '--certify', '--no-allure', '--out', pkg, '--seed', '21']);
    const html = await readFile(join(pkg, 'index.html'), 'utf8');
    expect(html).toContain('<h2>How this run was made</h2>');
    expect(html).toContain(p.spec.sha256);
    expect(html).toMatch(/<tr class="changed" data-setting="LOCKCONF_MOCK_OPTIONS">/);
    expect(html).toMatch(/At their defaults \(not set\): [^<]*LOCKCONF_DELIVERY_WAIT_MS=15000/);
    const junit = await readFile(join(pkg, 'junit.xml'), 'utf8');
    expect(junit).toContain(`<property name="lockconf.spec.sha256" value="${p.spec.sha256}"/>`);
    expect(junit).toContain(`<property name="lockconf.catalog.sha256" value="${p.catalog.sha256} (${p.catalog.requirements} requirements)"/>`);
  });

  it('holds no secret in any file: neither the mock\'s credentials nor the signing key', async () => {
    const key = (await readFile(signer.privateFile, 'utf8')).replace(/-----[^-]+-----|\s/g, '');
    const leaks: string[] = [];
    for (const file of await filesUnder(pkg)) {
      const text = await readFile(file, 'utf8');
      for (const [kind, value] of [...Object.entries(CREDENTIALS), ['signing key', key]]) if (text.includes(value!)) leaks.push(`${relative(pkg, file)}: ${kind}`);
    }
    expect(leaks).toEqual([]);
    const mockOptions = result.provenance!.settings.find((s) => s.name === 'LOCKCONF_MOCK_OPTIONS');
    expect(mockOptions).toMatchObject({ changed: true, source: 'env', value: JSON.stringify({ credentials: '(set)', faults: ['state-truncated'] }) });
    expect(result.provenance!.settings.find((s) => s.name === 'LOCKCONF_SIGNING_KEY')).toMatchObject({ value: '(set)', changed: true });
  });
});

describe('verify: a package as it was written', () => {
  it('is valid with the signer\'s public key (exit 0), the verdict re-derived', async () => {
    const r = await verify(pkg);
    expect(r.code, r.lines.join('\n')).toBe(0);
    expect(r.lines.at(-1)).toBe(`VALID: not-conformant, signed by the given key ${signer.fingerprint}`);
    expect(r.lines.join('\n')).toMatch(/verdict not-conformant re-derived/);
  });

  it('prints what was certified before its conclusion: suite and commit, clean or not, digests, target, scope, verdict, every MUST not tested', async () => {
    const r = await verify(pkg);
    const p = result.provenance!;
    const block = r.lines.slice(r.lines.indexOf('What was certified:'), -1).join('\n');
    expect(block).toMatch(/^What was certified:/);
    const source = p.suite.source;
    expect(block).toContain(source.kind === 'git' ? `lockconf ${p.suite.version}, git commit ${source.commit}` : `lockconf ${p.suite.version}, installed package`);
    if (source.kind === 'git') expect(block).toMatch(/(clean work tree|work tree with uncommitted changes|work tree state unknown)/);
    expect(block).toContain(`spec      docs/spec/lock-access-service.md sha256 ${p.spec.sha256}`);
    expect(block).toContain(`catalog   sha256 ${p.catalog.sha256} (${p.catalog.requirements} requirements)`);
    expect(block).toMatch(/target    http:\/\/127\.0\.0\.1:\d+\S* \(the embedded reference mock\)/);
    expect(block).toMatch(/scope     all \d+ requirements/);
    expect(block).toContain('verdict   not-conformant');
    const untested = result.requirements.filter((q) => q.level === 'MUST' && (q.status === 'not-tested' || q.status === 'blocked'));
    expect(untested.map((q) => q.id)).toContain('OAUTH-SIGN-IN-SCREENS');
    expect(block).toContain(`MUSTs not tested (${untested.length}): never passed, not covered by this certificate`);
    for (const q of untested) expect(block).toContain(`    ${q.id}: `);
  });

  it('without --key: valid for the key in the signature, which nobody vouched for', async () => {
    const r = await verify(pkg, null);
    expect(r.code).toBe(0);
    expect(r.lines).toContain(`✓ signature valid for key ${signer.fingerprint}; no trusted key given (pass --key with the signer's published public key to know who signed)`);
    expect(r.lines.at(-1)).toMatch(/^VALID \(untrusted signer\)/);
  });

  it('through a link to the folder (reports/latest): the folder it names', async () => {
    const link = join(work, 'latest');
    await symlink(pkg, link, 'dir');
    expect((await verify(link)).code).toBe(0);
  });

  it('a link inside the package: invalid, named', async () => {
    const dir = await copyPackage(pkg, work);
    await symlink(join(dir, 'junit.xml'), join(dir, 'linked.xml'));
    expect((await verify(dir)).problems).toContain('extra: linked.xml (not a regular file: a package holds files only)');
  });

  it('with another key: invalid, naming both keys', async () => {
    const r = await verify(pkg, (await generateSigningKeys(join(work, 'other'))).publicFile);
    expect(r.code).toBe(1);
    expect(r.problems.join('\n')).toContain(`signed by key ${signer.fingerprint}, not by the given key`);
  });

  it('through the command line: exit 0 valid, 1 invalid, 2 could not verify', async () => {
    const tampered = await copyPackage(pkg, work);
    await writeFile(join(tampered, 'junit.xml'), '<testsuites/>');
    const [valid, invalid, notPackage] = await Promise.all([
      cli(['verify', pkg, '--key', signer.publicFile]),
      cli(['verify', tampered, '--key', signer.publicFile]),
      cli(['verify', join(work, 'keys'), '--key', signer.publicFile]),
    ]);
    expect(valid.code, valid.stdout + valid.stderr).toBe(0);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain('changed: junit.xml');
    expect(notPackage.code).toBe(2);
    expect(notPackage.stdout).toMatch(/COULD NOT VERIFY: .* manifest.json is missing/);
  }, 60_000);
});

describe('verify: tampering with a file is caught and named', () => {
  const FILES = ['conformance.json', 'index.html', 'junit.xml', 'run-context.json', 'badge.svg'];
  it.each(FILES)('%s changed', async (file) => {
    const dir = await copyPackage(pkg, work);
    await writeFile(join(dir, file), `${await readFile(join(dir, file), 'utf8')} `);
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(r.problems).toContainEqual(expect.stringMatching(new RegExp(`^changed: ${file.replace('.', '\\.')} `)));
  });

  it('a file deleted, a file added', async () => {
    const dir = await copyPackage(pkg, work);
    await rm(join(dir, 'run-context.json'));
    await writeFile(join(dir, 'extra.txt'), 'x');
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(r.problems).toEqual(expect.arrayContaining(['missing: run-context.json (listed in the manifest, not in the folder)', 'extra: extra.txt (in the folder, not in the manifest)']));
  });

  it('a file the system added (.DS_Store): invalid still, with the hint to remove it', async () => {
    const dir = await copyPackage(pkg, work);
    await writeFile(join(dir, '.DS_Store'), 'x');
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(r.problems).toEqual(['extra: .DS_Store (in the folder, not in the manifest): a file your system adds to folders it shows; remove it (.DS_Store) and verify again']);
  });

  it('manifest.json edited (a hash replaced): the signature no longer covers it', async () => {
    const dir = await copyPackage(pkg, work);
    const text = await readFile(join(dir, 'manifest.json'), 'utf8');
    await writeFile(join(dir, 'manifest.json'), text.replace(/"verdict": "not-conformant"/, '"verdict": "conformant"'));
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(r.problems.join('\n')).toMatch(/manifest.sig's signature does not verify|signs another manifest/);
  });
});

describe('verify: a forged package signed again with another key, caught by re-deriving the verdict', () => {
  it('an edited verdict', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => { r.verdict = 'conformant'; });
    const r = await verify(dir, null);
    expect(r.code).toBe(1);
    expect(r.problems).toContain("verdict: recorded conformant, but the requirements' test evidence gives not-conformant");
    const trusted = await verify(dir); // and the signer is not the certifying body's key
    expect(trusted.problems.join('\n')).toContain(`signed by key ${forger.fingerprint}, not by the given key ${signer.fingerprint}`);
  });

  it('a requirement moved from failed to passed, its test evidence still failed', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => {
      const req = r.requirements.find((x) => x.id === FAILED)!;
      req.status = 'passed';
      req.reason = '';
      r.counts.failed--;
      r.counts.passed++;
      r.verdict = 'conformant';
    });
    const r = await verify(dir, null);
    expect(r.code).toBe(1);
    expect(r.problems).toContain(`${FAILED}: recorded as passed, but its test evidence says failed`);
  });

  it('a failure deleted: its requirement and its test gone from the file', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => {
      r.requirements = r.requirements.filter((x) => x.id !== FAILED);
      r.tests = r.tests.filter((t) => t.requirement !== FAILED);
      r.counts.failed--;
      r.verdict = 'conformant';
    });
    const r = await verify(dir, null);
    expect(r.code).toBe(1);
    expect(r.problems).toContain(`${FAILED}: missing from the requirements list (its test evidence says not-tested)`);
    expect(r.problems).toContainEqual(expect.stringMatching(/^verdict: recorded conformant/));
  });

  it('a failing test deleted, its requirement left failed', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => { r.tests = r.tests.filter((t) => t.requirement !== FAILED); });
    const r = await verify(dir, null);
    expect(r.code).toBe(1);
    expect(r.problems).toContain(`${FAILED}: recorded as failed, but its test evidence says not-tested`);
    expect(r.problems).toContainEqual(expect.stringMatching(new RegExp(`^${FAILED}: names the test ".*", which is not in the test evidence`)));
  });

  it('a level changed in the file: levels come from the catalog', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => { r.requirements.find((x) => x.id === FAILED)!.level = 'SHOULD'; });
    expect((await verify(dir, null)).problems).toContain(`${FAILED}: level SHOULD in the file, MUST in the catalog`);
  });
});

describe('verify: another suite version', () => {
  it('a different catalog with the same requirements and levels: a warning, then the usual checks', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => { r.provenance!.catalog.sha256 = '0'.repeat(64); });
    const r = await verify(dir, null);
    expect(r.code, r.lines.join('\n')).toBe(0);
    expect(r.lines.join('\n')).toContain('judged against another requirement catalog');
  });

  it('a catalog whose requirements differ: could not verify (exit 2)', async () => {
    const dir = await copyPackage(pkg, work);
    await forge(dir, forger, (r) => {
      r.provenance!.catalog.sha256 = '0'.repeat(64);
      r.requirements.push({ ...r.requirements[0]!, id: 'FUTURE-REQUIREMENT' });
    });
    const r = await verify(dir, null);
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toMatch(/^COULD NOT VERIFY: the verdict cannot be re-derived with this lockconf's catalog: 1 only in the file \(FUTURE-REQUIREMENT\)/);
  });
});

describe('verify: what it cannot check (exit 2)', () => {
  it('a --key file that cannot be read, or is not an Ed25519 public key', async () => {
    const rsa = join(work, 'rsa.pub.pem');
    await writeFile(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
    const missing = await verify(pkg, join(work, 'nope.pem'));
    expect(missing.code).toBe(2);
    expect(missing.lines.at(-1)).toMatch(/^COULD NOT VERIFY: --key: the public key file .*nope\.pem cannot be read \(ENOENT\)/);
    const notEd = await verify(pkg, rsa);
    expect(notEd.code).toBe(2);
    expect(notEd.lines.at(-1)).toBe(`COULD NOT VERIFY: --key ${rsa} is not an Ed25519 public key`);
  });

  it('a --key file holding a private key: refused (exit 2), the reader told to use the public one', async () => {
    const r = await verify(pkg, signer.privateFile);
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toBe(`COULD NOT VERIFY: --key ${signer.privateFile} holds a private key: verify takes the signer's public key (signing-key.pub.pem); keep the private one secret`);
  });

  it('a folder without manifest.sig', async () => {
    const dir = await copyPackage(pkg, work);
    await rm(join(dir, 'manifest.sig'));
    const r = await verify(dir);
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toMatch(/is no certified package: manifest.sig is missing/);
  });
});

describe('resign (test support) keeps a package valid for its new key', () => {
  it('a package re-signed unchanged verifies for the forger\'s key', async () => {
    const dir = await copyPackage(pkg, work);
    await resign(dir, forger);
    const r = await verify(dir, null);
    expect(r.code, r.lines.join('\n')).toBe(1); // the certificate in conformance.json still names the first signer
    expect(r.problems).toContain(`signer: conformance.json's certificate names key ${signer.fingerprint}, the manifest ${forger.fingerprint}`);
  });
});
