/**
 * lockconf runs without cloning it: `npm pack`, installed in an empty folder,
 * gives a `lockconf` command that runs a conformance run against the embedded
 * mock and starts (and stops) the mock, writing its reports and state in the
 * folder it runs from.
 *
 * The install is `npm install --offline <tgz>` from the local npm cache. Where
 * the cache cannot resolve the dependencies offline (it holds the tarballs npm
 * ci fetched, but npm asks for full registry documents it never stored:
 * ENOTCACHED), the test lays the package out as npm would (the tarball
 * unpacked into node_modules/lockconf, its bin linked, the dependencies taken
 * from this project's node_modules) and says so: what is under test is the
 * tarball's content and the bin, not npm's resolver.
 *
 * The installed tree is the tested one: npm's `overrides` reach no consumer, so the
 * package declares none and pins in `dependencies` what needs pinning for Node 20
 * (an install that resolved a release wanting a newer Node says EBADENGINE).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { ROOT } from '../support/cli.js';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], cwd: string, opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env: opts.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** This process's environment without LOCKCONF_* and VITEST* (the run under test must not see them). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, NO_COLOR: '1' };
}

let work = '';
let app = '';
let tarball = '';
let files: string[] = [];
let installedBy = '';
let installOutput: string | null = null; // npm's words when npm installed it
let packageJson: { overrides?: unknown; dependencies?: Record<string, string> } = {};

beforeAll(async () => {
  work = await makeTmpDir('pack');
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const info = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info[0]!.filename);
  files = info[0]!.files.map((f) => f.path);
  app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'an-application', private: true }));
  const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], app, { timeoutMs: 240_000 });
  packageJson = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'], work)).stdout) as typeof packageJson;
  if (install.code === 0) {
    installedBy = 'npm install --offline';
    installOutput = install.stdout + install.stderr;
    return;
  }
  expect(install.stderr, 'npm install failed for another reason than a cache miss').toMatch(/ENOTCACHED/);
  installedBy = 'the tarball unpacked into node_modules (the npm cache cannot resolve offline: ENOTCACHED)';
  await layOut(app, tarball);
}, 300_000);

afterAll(() => removeTmpDir(work));

/** node_modules as `npm install <tgz>` leaves it, with the dependencies of this project. */
async function layOut(dir: string, tgz: string): Promise<void> {
  const modules = join(dir, 'node_modules');
  const own = join(modules, 'lockconf');
  await mkdir(own, { recursive: true });
  const untar = await run('tar', ['-xzf', tgz, '-C', own, '--strip-components=1'], dir);
  expect(untar.code, untar.stderr).toBe(0);
  for (const name of await readdir(join(ROOT, 'node_modules'))) {
    if (name === '.bin' || name === 'lockconf' || name === '.package-lock.json') continue;
    await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  }
  await mkdir(join(modules, '.bin'));
  await symlink('../lockconf/bin/lockconf.js', join(modules, '.bin', 'lockconf'));
}

const bin = () => join(app, 'node_modules', '.bin', 'lockconf');

describe('the package', () => {
  it('holds the command, the harness, the suites, the mock and the docs, and no tests or reports', () => {
    for (const needed of ['bin/lockconf.js', 'harness/cli.ts', 'harness/service/global-setup.ts', 'mock/server.ts', 'vitest.config.ts', 'package.json', 'docs/spec/lock-access-service.md']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.some((f) => f.startsWith('suites/') && f.endsWith('.test.ts'))).toBe(true);
    expect(files.filter((f) => /^(test|reports|\.lockconf|bench)\//.test(f))).toEqual([]);
  });

  it(`installs into an empty folder with a lockconf command`, () => {
    expect(installedBy).not.toBe('');
    expect(existsSync(bin()), installedBy).toBe(true);
  });

  it('declares no overrides (they reach no consumer): what Node 20 needs is pinned in dependencies', () => {
    expect(packageJson.overrides, 'overrides in package.json do not reach an application that installs lockconf: pin the version in dependencies instead').toBeUndefined();
    for (const pinned of ['light-my-request', 'rollup', '@fastify/swagger-ui']) expect(packageJson.dependencies?.[pinned], pinned).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('installs without an engine warning: every package it brings accepts this Node', ({ annotate }) => {
    if (installOutput === null) {
      void annotate(`npm's engine check was not run: ${installedBy}`);
      return;
    }
    expect(installOutput).not.toMatch(/EBADENGINE/);
  });

  it('lockconf --version names the version and the commit the package was packed from', async () => {
    const r = await run(bin(), ['--version'], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^lockconf \d+\.\d+\.\d+\nsource: the package packed from git commit [0-9a-f]{12} .*installed in .*node_modules.lockconf/);
    expect(files).toContain('source.json');
    expect(existsSync(join(ROOT, 'source.json')), 'npm pack leaves no source.json behind in the clone').toBe(false);
  });

  it('lockconf conformance runs against the embedded mock and writes its reports where it runs', async () => {
    const r = await run(bin(), ['conformance', '--only', 'OAUTH-STATE-ECHO', '--no-allure', '--seed', '5'], app, { timeoutMs: 180_000 });
    expect(r.code, `${installedBy}\n${r.stdout.slice(-2000)}${r.stderr.slice(-2000)}`).toBe(0);
    expect(r.stdout).toContain('target: the embedded reference mock');
    const latest = join(app, 'reports', 'latest');
    const result = JSON.parse(await readFile(join(latest, 'conformance.json'), 'utf8')) as { verdict: string; provenance?: { suite: { source: Record<string, unknown> } } };
    expect(result.verdict).toBe('partial'); // --only: the scope passed, no certificate
    // The run names the installed package it ran from (docs/certification.md): its integrity from the package lock, else a digest of its files.
    expect(result.provenance?.suite.source).toMatchObject({ kind: 'package', path: join(app, 'node_modules', 'lockconf'), integrity: expect.stringMatching(/^(sha512-|sha256-files:)/) });
    expect(existsSync(join(latest, 'index.html'))).toBe(true);
    expect(existsSync(join(latest, 'junit.xml'))).toBe(true);
    // The command line ran prebuilt, from the build cache inside the installed package (bin/bundle.js).
    expect(existsSync(join(app, 'node_modules', 'lockconf', 'node_modules', '.cache', 'lockconf', 'cli.json'))).toBe(true);
  }, 200_000);

  it('a message that names a command names the one that exists here: npx lockconf, never npm run', async () => {
    const r = await run(bin(), ['conformance', '--client', '--no-allure'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('start the mock with npx lockconf mock --grade');
    expect(r.stdout + r.stderr).not.toContain('npm run');
    // The profile is looked for where the user runs the command (where `npx lockconf mock --grade` writes it), never in the package.
    expect(r.stderr).toContain(join(app, '.lockconf', 'mock-target.json'));
    expect(r.stderr).not.toContain('node_modules');
  });

  it('the mock banner\'s own command: conformance --client beside `lockconf mock --grade` reads the profile and writes the reports where it runs', async () => {
    const child = spawn(bin(), ['mock', '--grade', '--port', '0'], { cwd: app, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`the mock did not start:\n${out}`)), 60_000);
      const onData = (c: Buffer) => {
        out += c.toString();
        if (/Ctrl-C stops it/.test(out)) {
          clearTimeout(timer);
          ready();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
    });
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    try {
      const r = await run(bin(), ['conformance', '--client', '--no-allure', '--out', 'client-report'], app, { timeoutMs: 120_000 });
      expect(r.stderr).toContain(join(app, '.lockconf', 'mock-target.json'));
      expect([0, 1], r.stdout.slice(-1500) + r.stderr).toContain(r.code); // no application driven: incomplete, never "cannot run"
      expect(existsSync(join(app, 'client-report', 'conformance.json'))).toBe(true);
      expect(existsSync(join(app, 'node_modules', 'lockconf', 'client-report'))).toBe(false);
      expect(existsSync(join(app, 'node_modules', 'lockconf', 'reports'))).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 180_000);

  it('lockconf keygen and verify work from the installed package, offline', async () => {
    const keys = await run(bin(), ['keygen', '--out', 'keys'], app);
    expect(keys.code, keys.stderr).toBe(0);
    expect(existsSync(join(app, 'keys', 'signing-key.pub.pem'))).toBe(true);
    const verified = await run(bin(), ['verify', 'reports/latest', '--key', 'keys/signing-key.pub.pem'], app);
    expect(verified.code, verified.stdout + verified.stderr).toBe(2); // an uncertified run: nothing to check it against
    expect(verified.stdout).toMatch(/COULD NOT VERIFY: .* manifest.json is missing/);
  }, 60_000);

  it('lockconf mock starts, prints a short banner naming npx commands, writes .lockconf/ where it runs, and stops on SIGTERM', async () => {
    const child = spawn(bin(), ['mock', '--port', '0'], { cwd: app, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const started = new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`the mock did not start:\n${out}`)), 60_000);
      const onData = (c: Buffer) => {
        out += c.toString();
        if (/Ctrl-C stops it/.test(out)) {
          clearTimeout(timer);
          ready();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
    });
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    await started;
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain('npx lockconf conformance --target');
    expect(out).not.toContain('npm run');
    expect(existsSync(join(app, '.lockconf', 'mock-target.json'))).toBe(true);
    // The pages name the commands and the folder of an installed package too.
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    for (const page of ['/', '/deliveries']) {
      const html = await (await fetch(`${url}${page}`)).text();
      expect(html, page).not.toMatch(/npm run|repository root/);
    }
    expect(await (await fetch(`${url}/`)).text()).toContain('npx lockconf');
    child.kill('SIGTERM');
    expect(await exited, out).toBe(0);
  }, 90_000);
});
