/**
 * Only a run of the full scope at default strictness can be certified: a scoped
 * run, a weakened one, one with expected failures, and one without a usable
 * signing key are refused before they start (exit 2, one line naming the
 * reason, never the key). And keygen: two files, modes, no overwrite.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { generateSigningKeys } from '../../../harness/certify/keygen.js';
import { keygenCommand } from '../../../harness/commands/keygen.js';
import { certifyRefusal, type RunCommandOptions } from '../../../harness/commands/certify.js';
import { CertifyError, loadSigningKey } from '../../../harness/certify/keys.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let work = '';
let key = '';
beforeAll(async () => {
  work = await makeTmpDir('certify-refusals');
  key = (await generateSigningKeys(join(work, 'keys'))).privateFile;
});
afterAll(() => removeTmpDir(work));

describe('keygen --out DIR', () => {
  it('writes the private key (PKCS8, mode 0600) and the public key (SPKI), and prints the fingerprint', async () => {
    const made = await cli(['keygen', '--out', join(work, 'keys2')]);
    expect(made.code, made.stderr).toBe(0);
    const file = join(work, 'keys2', 'signing-key.pem');
    const pem = await readFile(file, 'utf8');
    const pub = await readFile(join(work, 'keys2', 'signing-key.pub.pem'), 'utf8');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(pub).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(createPrivateKey(pem).asymmetricKeyType).toBe('ed25519');
    const fingerprint = /^fingerprint: (\S+)$/m.exec(made.stdout)?.[1];
    expect(fingerprint).toBe(await calculateJwkThumbprint(await exportJWK(createPublicKey(pub)), 'sha256'));
    expect(fingerprint).not.toBe(await calculateJwkThumbprint(await exportJWK(createPublicKey(await readFile(join(work, 'keys', 'signing-key.pub.pem')))), 'sha256'));
    expect(made.stdout).not.toContain(pem.split('\n')[1]);
  }, 60_000);

  it('never overwrites a key: exit 2, the files untouched', async () => {
    const before = await readFile(key, 'utf8');
    const r = await cli(['keygen', '--out', join(work, 'keys')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/signing-key.pem and .*signing-key.pub.pem already exist: keygen never overwrites a key/);
    expect(await readFile(key, 'utf8')).toBe(before);
    await rm(join(work, 'keys', 'signing-key.pub.pem'));
    await expect(generateSigningKeys(join(work, 'keys'))).rejects.toThrow(/signing-key.pem already exists: keygen never overwrites a key/);
    expect(await readFile(key, 'utf8')).toBe(before);
    expect(existsSync(join(work, 'keys', 'signing-key.pub.pem'))).toBe(false);
  }, 60_000);

  it('without --out: the keys go to ~/.lockconf/keys (LOCKCONF_HOME/keys), outside any clone', async () => {
    const home = join(work, 'home');
    const r = await cli(['keygen'], { LOCKCONF_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(home, 'keys', 'signing-key.pem'))).toBe(true);
    expect(r.stdout).toContain(`private key: ${join(home, 'keys', 'signing-key.pem')}`);
  }, 60_000);

  it('refuses to write a private key into a git work tree that does not ignore it (exit 2, nothing written); a folder .gitignore covers is fine', async () => {
    const repo = join(work, 'clone');
    await mkdir(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const r = await cli(['keygen', '--out', join(repo, 'keys')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(repo, 'keys', 'signing-key.pem')} would lie in the git work tree`);
    expect(r.stderr).toContain('its .gitignore does not cover it');
    expect(existsSync(join(repo, 'keys'))).toBe(false);
    await writeFile(join(repo, '.gitignore'), 'keys/\n');
    expect(await keygenCommand({ out: join(repo, 'keys') })).toBe(0);
    expect(existsSync(join(repo, 'keys', 'signing-key.pem'))).toBe(true);
  }, 60_000);
});

describe('conformance --certify refuses, before the run starts (exit 2, one line)', () => {
  const CASES: Array<{ name: string; args: string[]; env?: Record<string, string>; reason: RegExp; setup?: (file: string) => Promise<void> }> = [
    { name: 'a scope narrowed by --only', args: ['--only', 'OAUTH-*'], reason: /the scope is narrowed by --only OAUTH-\*: only a run of every requirement can be certified/ },
    { name: 'a run weakened by a shorter wait', args: [], env: { LOCKCONF_DELIVERY_WAIT_MS: '100' }, reason: /weakened by LOCKCONF_DELIVERY_WAIT_MS=100: only a run at default strictness/ },
    { name: 'expected failures (--expect with entries)', args: ['--expect', 'EXPECT'], reason: /--expect lists 1 expected failure\(s\): expected failures change the verdict/, setup: (f) => writeFile(f, 'OAUTH-STATE-ECHO # known\n') },
  ];
  it.concurrent.each(CASES)('$name', async ({ args, env, reason, setup }) => {
    const expectFile = join(work, `expect-${Math.random().toString(36).slice(2)}.txt`);
    if (setup) await setup(expectFile);
    const out = join(work, `refused-${Math.random().toString(36).slice(2)}`);
    const r = await cli(['conformance', '--certify', '--no-allure', '--out', out, ...args.map((a) => (a === 'EXPECT' ? expectFile : a))], { LOCKCONF_SIGNING_KEY: key, LOCKCONF_SIGN_IN: 'on', ...env });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^lockconf: cannot certify: /);
    expect(r.stderr).toMatch(reason);
    expect(existsSync(out), 'no run was started').toBe(false);
  }, 60_000);

  it('no LOCKCONF_SIGNING_KEY', async () => {
    const r = await cli(['conformance', '--certify', '--no-allure', '--out', join(work, 'never')], { LOCKCONF_SIGN_IN: 'on' });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toBe('lockconf: cannot certify: --certify needs a signing key: set LOCKCONF_SIGNING_KEY to the path of its PEM file (lockconf keygen --out DIR makes one)\n');
  }, 60_000);
});

describe('the same rules for receiver runs and client gradings', () => {
  const MODES: Array<{ mode: 'receiver' | 'client'; opts: RunCommandOptions }> = [
    { mode: 'receiver', opts: { receiver: 'http://127.0.0.1:9/hook', only: ['RECEIVER-*'], allure: false } },
    { mode: 'client', opts: { client: true, only: ['CLIENT-*'], allure: false } },
  ];
  it.each(MODES)('$mode: --only refused', async ({ mode, opts }) => {
    expect(await certifyRefusal(opts, mode, {})).toMatch(/^the scope is narrowed by --only/);
    expect(await certifyRefusal({ ...opts, only: [] }, mode, {})).toBeNull();
  });

  it('the weakening settings of the service do not touch a receiver run', async () => {
    expect(await certifyRefusal({ receiver: 'http://127.0.0.1:9/hook', allure: false }, 'receiver', { LOCKCONF_DELIVERY_WAIT_MS: '100' })).toBeNull();
    expect(await certifyRefusal({ allure: false }, 'service', { LOCKCONF_DELIVERY_WAIT_MS: '100' })).toMatch(/weakened by LOCKCONF_DELIVERY_WAIT_MS=100/);
    expect(await certifyRefusal({ allure: false }, 'service', { LOCKCONF_QUIET_WINDOW_MS: '1' })).toMatch(/weakened by LOCKCONF_QUIET_WINDOW_MS=1/);
    expect(await certifyRefusal({ allure: false }, 'service', { LOCKCONF_PREFLIGHT: '0', LOCKCONF_BASE_URL: 'http://127.0.0.1:9' })).toMatch(/weakened by LOCKCONF_PREFLIGHT=0/);
  });

  it('an empty --expect file is accepted', async () => {
    const empty = join(work, 'empty-expect.txt');
    await writeFile(empty, '# nothing expected\n');
    expect(await certifyRefusal({ expect: empty, allure: false }, 'service', {})).toBeNull();
  });
});

describe('a signing key lockconf cannot use: one message that names the file, never the key', () => {
  const KEYS: Array<{ name: string; env: (dir: string) => Promise<Record<string, string>>; reason: RegExp }> = [
    { name: 'no LOCKCONF_SIGNING_KEY', env: async () => ({}), reason: /^--certify needs a signing key: set LOCKCONF_SIGNING_KEY to the path of its PEM file/ },
    { name: 'a key file that cannot be read', env: async (d) => ({ LOCKCONF_SIGNING_KEY: join(d, 'absent.pem') }), reason: /LOCKCONF_SIGNING_KEY: the signing key file .*absent\.pem cannot be read \(ENOENT\)/ },
    { name: 'a file that holds no key', env: async (d) => { await writeFile(join(d, 'junk.pem'), 'not a key'); return { LOCKCONF_SIGNING_KEY: join(d, 'junk.pem') }; }, reason: /holds no private key in PEM \(PKCS8\) form/ },
    {
      name: 'an RSA key, not Ed25519',
      env: async (d) => {
        await writeFile(join(d, 'rsa.pem'), generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
        return { LOCKCONF_SIGNING_KEY: join(d, 'rsa.pem') };
      },
      reason: /holds an rsa key, not an Ed25519 private key/,
    },
  ];
  it.each(KEYS)('$name', async ({ env, reason }) => {
    const variables = await env(work);
    const err = await loadSigningKey(variables).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(CertifyError);
    expect((err as Error).message).toMatch(reason);
    const file = variables.LOCKCONF_SIGNING_KEY;
    if (file && existsSync(file)) expect((err as Error).message).not.toContain((await readFile(file, 'utf8')).split('\n')[1]);
  });
});
