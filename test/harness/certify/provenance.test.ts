/**
 * What a run records of itself (harness/provenance/): the settings with their
 * defaults and changes, secrets as "(set)", the profile's fingerprint without
 * its secrets, the suite's source, and the digests of the spec and the catalog.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../../harness/catalog/index.js';
import { collectProvenance, completeProvenance } from '../../../harness/provenance/collect.js';
import { canonicalJson, catalogDigest } from '../../../harness/provenance/hashes.js';
import { collectSettings } from '../../../harness/provenance/settings.js';
import { lockedIntegrity, packageFilesDigest, suiteSource } from '../../../harness/provenance/source.js';
import { provenanceFacts } from '../../../harness/report/provenance-report.js';
import { ROOT } from '../../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let work = '';
beforeAll(async () => {
  work = await makeTmpDir('provenance');
});
afterAll(() => removeTmpDir(work));

const invocation = (env: NodeJS.ProcessEnv, options = {}, argv: string[] = ['conformance']) =>
  collectProvenance({ root: ROOT, mode: 'service', argv, cwd: work, env, options: { allure: true, ...options } });

describe('settings', () => {
  it('every LOCKCONF_* setting with its default; a changed one marked, an unchanged one not', () => {
    const settings = collectSettings({ LOCKCONF_DELIVERY_WAIT_MS: '100', LOCKCONF_LEASE_WAIT_MS: '60000' }, { mode: 'service', embeddedMock: true }, []);
    expect(settings.find((s) => s.name === 'LOCKCONF_DELIVERY_WAIT_MS')).toEqual({ name: 'LOCKCONF_DELIVERY_WAIT_MS', value: '100', default: '15000', changed: true, source: 'env' });
    expect(settings.find((s) => s.name === 'LOCKCONF_LEASE_WAIT_MS')).toMatchObject({ value: '60000', changed: false, source: 'env' });
    expect(settings.find((s) => s.name === 'LOCKCONF_QUIET_WINDOW_MS')).toEqual({ name: 'LOCKCONF_QUIET_WINDOW_MS', value: null, default: '250', changed: false, source: 'default' });
    expect(settings.find((s) => s.name === 'LOCKCONF_PREFLIGHT')).toMatchObject({ default: '1', changed: false });
  });

  it('a secret is "(set)", a URL loses its user information, an unknown LOCKCONF_ variable is listed as "(set)"', () => {
    const settings = collectSettings({
      LOCKCONF_CLIENT_SECRET: 'a-real-secret-123', LOCKCONF_API_KEY: 'a-real-key-456', LOCKCONF_CONTROL_TOKEN: 'ctl-789', LOCKCONF_WEBHOOK_TOKEN: 'hook-000',
      LOCKCONF_BASE_URL: 'https://user:pw@api.example.test/v1', LOCKCONF_MYSTERY: 'what-is-this', LOCKCONF_RUN_DIR: '/internal',
      LOCKCONF_MOCK_OPTIONS: JSON.stringify({ faults: ['state-truncated'], credentials: { clientSecret: 'mock-secret-1' } }),
    }, { mode: 'service', embeddedMock: false }, []);
    const by = new Map(settings.map((s) => [s.name, s]));
    for (const name of ['LOCKCONF_CLIENT_SECRET', 'LOCKCONF_API_KEY', 'LOCKCONF_CONTROL_TOKEN', 'LOCKCONF_WEBHOOK_TOKEN', 'LOCKCONF_MYSTERY']) {
      expect(by.get(name), name).toMatchObject({ value: '(set)', changed: true, source: 'env' });
    }
    expect(by.get('LOCKCONF_BASE_URL')?.value).toBe('https://api.example.test/v1');
    expect(by.get('LOCKCONF_MOCK_OPTIONS')?.value).toBe('{"faults":["state-truncated"],"credentials":"(set)"}');
    expect(by.has('LOCKCONF_RUN_DIR')).toBe(false);
    expect(JSON.stringify(settings)).not.toMatch(/a-real-secret|a-real-key|ctl-789|hook-000|mock-secret-1|what-is-this|pw@/);
  });
});

describe('collectProvenance', () => {
  it('records the command line with the secrets it knows of scrubbed, the options given, the expect file', async () => {
    const expectFile = join(work, 'expect.txt');
    await writeFile(expectFile, 'OAUTH-STATE-ECHO # known\n');
    const p = await invocation({ LOCKCONF_CLIENT_SECRET: 'argv-leaking-secret-42' }, { seed: 7, expect: expectFile }, ['conformance', '--seed', '7', '--note=argv-leaking-secret-42']);
    expect(p.command.argv).toEqual(['conformance', '--seed', '7', '--note=‹secret›']);
    expect(p.settings.find((s) => s.name === '--seed')).toMatchObject({ value: '7', changed: true, source: 'option' });
    expect(p.expectations).toEqual({ file: expectFile, sha256: createHash('sha256').update('OAUTH-STATE-ECHO # known\n').digest('hex'), content: 'OAUTH-STATE-ECHO # known\n' });
    expect(p.seed).toBe(7);
  });

  it('fingerprints the profile without its secrets: another secret, the same fingerprint; another URL, another one', async () => {
    const profile = { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', clientId: 'client-1', clientSecret: 's1', apiKey: 'k1', redirectUri: 'http://127.0.0.1:2/cb' };
    const file = join(work, 'profile.json');
    await writeFile(file, JSON.stringify(profile));
    const a = await invocation({}, { target: file });
    await writeFile(file, JSON.stringify({ ...profile, clientSecret: 's2', apiKey: 'k2', controlToken: 't2' }));
    const b = await invocation({}, { target: file });
    const c = await invocation({ LOCKCONF_BASE_URL: 'http://127.0.0.1:3/api' }, { target: file });
    expect(a.target).toMatchObject({ clientId: 'client-1', mock: false, profileSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(b.target.profileSha256).toBe(a.target.profileSha256);
    expect(c.target.profileSha256).not.toBe(a.target.profileSha256);
    expect(JSON.stringify(a)).not.toMatch(/"s1"|"k1"/);
  });

  it('the embedded mock: no profile, mock true; the spec and catalog digests of this checkout', async () => {
    const p = await invocation({});
    expect(p.target).toMatchObject({ mock: true, profileSha256: null, clientId: null });
    expect(p.spec.sha256).toBe(createHash('sha256').update(await readFile(join(ROOT, 'docs/spec/lock-access-service.md'))).digest('hex'));
    expect(p.catalog).toEqual({ sha256: catalogDigest(CATALOG), requirements: CATALOG.length });
    expect(p.runtime.node).toBe(process.version);
  });

  it('completed by the run: scope, seed, the target found, the end', async () => {
    const draft = await invocation({}, {}, ['conformance']);
    const p = completeProvenance(draft, {
      selection: { only: null, partial: false, inScope: 116, total: 116 },
      seed: 99,
      target: { authUrl: 'http://127.0.0.1:5/oauth', baseUrl: 'http://127.0.0.1:5/api', mock: true },
      finishedAt: new Date(Date.parse(draft.startedAt) + 1500).toISOString(),
    });
    expect(p).toMatchObject({ seed: 99, scope: { only: null, partial: false, inScope: 116, total: 116 }, durationMs: 1500, target: { baseUrl: 'http://127.0.0.1:5/api' } });
    const facts = new Map(provenanceFacts({ provenance: p } as never));
    expect(facts.get('lockconf.spec.sha256')).toBe(p.spec.sha256);
    expect(facts.get('lockconf.command')).toBe('lockconf conformance');
  });
});

describe('the suite source', () => {
  it('a git checkout: the commit, the branch, whether the work tree is clean', async () => {
    const source = await suiteSource(ROOT);
    expect(source).toMatchObject({ kind: 'git', commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(source.kind === 'git' && typeof source.clean).toMatch(/boolean|object/);
  });

  it('an installed package: the integrity of the consumer\'s package lock, else a digest of its files', async () => {
    const pkg = join(work, 'app', 'node_modules', 'lockconf');
    await mkdir(join(pkg, 'harness'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'lockconf', files: ['harness/'] }));
    await writeFile(join(pkg, 'harness', 'a.ts'), 'export {}\n');
    expect(await lockedIntegrity(pkg)).toBeNull();
    const digest = await packageFilesDigest(pkg);
    expect(digest).toMatch(/^sha256-files:[0-9a-f]{64}$/);
    expect(await suiteSource(pkg)).toEqual({ kind: 'package', integrity: digest, path: pkg, integritySource: 'files-sha256' });
    await writeFile(join(pkg, 'harness', 'a.ts'), 'export const changed = 1;\n');
    expect(await packageFilesDigest(pkg)).not.toBe(digest);
    await writeFile(join(work, 'app', 'package-lock.json'), JSON.stringify({ packages: { 'node_modules/lockconf': { integrity: 'sha512-abc' } } }));
    expect(await suiteSource(pkg)).toEqual({ kind: 'package', integrity: 'sha512-abc', path: pkg, integritySource: 'package-lock' });
  });

  it('canonical JSON: the same object in another key order, the same text', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"e":2,"f":1}]},"b":1}');
  });
});
