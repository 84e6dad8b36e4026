import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../harness/cli.js';
import { expandSelection, scanSource, scanSuites, SelectionError, suiteImports, testNamePattern } from '../../harness/run/selection.js';
import type { ConformanceResult } from '../../harness/report/result-file.js';
import { cli, ROOT } from '../support/cli.js';
import { sharedRun, UNREACHABLE_SECRETS } from '../support/shared-runs.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('cli');
});
afterAll(async () => {
  await removeTmpDir(dir);
});

describe('selection (--only, --list)', () => {
  it('expands IDs and globs against the catalog and refuses patterns that match nothing', () => {
    expect(expandSelection(['OAUTH-STATE-ECHO'])).toEqual(['OAUTH-STATE-ECHO']);
    const webhooks = expandSelection(['WEBHOOK-*']);
    expect(webhooks.length).toBeGreaterThan(3);
    expect(webhooks.every((id) => id.startsWith('WEBHOOK-'))).toBe(true);
    expect(expandSelection(['OAUTH-STATE-ECHO,REFRESH-SINGLE-USE'])).toHaveLength(2);
    expect(() => expandSelection(['NOPE-*'])).toThrow(SelectionError);
  });

  it.each([
    ['OAUTH-STATE-ECO', 'did you mean OAUTH-STATE-ECHO?'],
    ['oauth-state-eco', 'did you mean OAUTH-STATE-ECHO?'],
    ['WEBHOK-*', 'did you mean WEBHOOK-*?'],
  ])('a pattern that matches nothing, %s, is answered with the closest IDs or area', (pattern, hint) => {
    expect(() => expandSelection([pattern])).toThrow(`--only ${pattern}: no requirement matches: ${hint} (see --list)`);
  });

  it('builds a test-name filter that matches "<ID>:" after describe titles, and only that ID', () => {
    const re = new RegExp(testNamePattern(['REFRESH-SINGLE-USE', 'OAUTH-STATE-ECHO']));
    expect(re.test('Refresh token REFRESH-SINGLE-USE: a used refresh token is refused')).toBe(true);
    expect(re.test('OAUTH-STATE-ECHO: state comes back')).toBe(true);
    expect(re.test('X-REFRESH-SINGLE-USE: other')).toBe(false);
    expect(re.test('REFRESH-SINGLE-USE-TWO: other')).toBe(false);
  });

  it('finds conformance() declarations statically', () => {
    const src = `conformance('OAUTH-STATE-ECHO', 'state comes back', {}, async () => {});\n  conformance(\n "REFRESH-SINGLE-USE",\n "it\\"s refused", { needs: ['user-token'] }, fn)`;
    expect(scanSource(src, 'suites/x.test.ts')).toEqual([
      { id: 'OAUTH-STATE-ECHO', title: 'state comes back', file: 'suites/x.test.ts', runFile: 'suites/x.test.ts' },
      { id: 'REFRESH-SINGLE-USE', title: 'it"s refused', file: 'suites/x.test.ts', runFile: 'suites/x.test.ts' },
    ]);
  });

  it('finds the test file that runs a suite module (its side-effect import)', () => {
    const src = `/** doc */\nimport './webhooks/delivery.suite.js';\nimport "../events/lock-events.suite.js";\nimport { x } from './other.js';`;
    expect(suiteImports(src, '/p/suites/leased.test.ts')).toEqual(['/p/suites/webhooks/delivery.suite.ts', '/p/events/lock-events.suite.ts']);
  });

  it('runs every test of a leased suite module from suites/leased.test.ts, and every other test from its own file', async () => {
    const tests = await scanSuites(resolve(import.meta.dirname, '../..'));
    const delivery = tests.find((t) => t.id === 'DELIVERY-NO-RETRY')!;
    expect(delivery).toMatchObject({ file: 'suites/webhooks/delivery.suite.ts', runFile: 'suites/leased.test.ts' });
    expect(tests.find((t) => t.id === 'TOKEN-RESPONSE-JSON')).toMatchObject({ file: 'suites/token/token-endpoint.test.ts', runFile: 'suites/token/token-endpoint.test.ts' });
    expect(tests.filter((t) => t.file.endsWith('.suite.ts')).every((t) => t.runFile === 'suites/leased.test.ts')).toBe(true);
  });
});

describe('exit codes', () => {
  it('maps verdicts: conformant and partial 0, incomplete 1 (0 with --allow-incomplete), not conformant, interrupted and interfered 1, error or no verdict 2', () => {
    expect(exitCodeFor('conformant')).toBe(0);
    expect(exitCodeFor('partial')).toBe(0);
    expect(exitCodeFor('interrupted')).toBe(1);
    expect(exitCodeFor('interfered')).toBe(1);
    expect(exitCodeFor('interrupted', true)).toBe(1);
    expect(exitCodeFor('incomplete')).toBe(1);
    expect(exitCodeFor('incomplete', true)).toBe(0);
    expect(exitCodeFor('not-conformant')).toBe(1);
    expect(exitCodeFor('not-conformant', true)).toBe(1);
    expect(exitCodeFor('error')).toBe(2);
    expect(exitCodeFor(null)).toBe(2);
  });

  it('--help lists the exit codes and the environment variables; --strict is still accepted', async () => {
    const [r, strict] = await Promise.all([cli(['conformance', '--help']), cli(['conformance', '--strict', '--list', '--only', 'OAUTH-STATE-ECHO'])]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stdout).toMatch(/^ {2}2 {2}the run could not be carried out/m);
    expect(r.stdout).toContain('LOCKCONF_CLIENT_SECRET');
    expect(r.stdout).toContain('LOCKCONF_MOCK_OPTIONS');
    expect(r.stdout).toContain('--allow-incomplete');
    expect(strict.code).toBe(0);
  });
});

// Each test runs the command line in a child process with its own files: they run at the same time.
describe.concurrent('lockconf conformance (command line)', { timeout: 90_000 }, () => {
  it('--list prints the catalog and the tests without touching any target', async ({ expect }) => {
    const r = await cli(['conformance', '--list', '--only', 'OAUTH-*', '--target', '/nonexistent/profile.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\* OAUTH-STATE-ECHO\s+MUST/);
    expect(r.stdout).toMatch(/^ {2}REFRESH-SINGLE-USE\s+MUST/m);
    expect(r.stdout).toContain('Tests that would run');
  });

  it('a bad profile stops the run with exit 2, names the field and prints no secret', async ({ expect }) => {
    const secret = 'cs-very-secret-value-41f9';
    const apiKey = 'ak-very-secret-value-77c1';
    const file = join(dir, 'bad-profile.json');
    await writeFile(file, JSON.stringify({ authUrl: 'not a url', baseUrl: 'https://api.example.test', clientId: 'c', clientSecret: secret, apiKey, redirectUri: 'https://app.example.test/cb' }));
    const r = await cli(['conformance', '--target', file, '--out', join(dir, 'run'), '--no-allure']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('authUrl');
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stdout + r.stderr).not.toContain(apiKey);
  });

  it('a secret given through the environment with a bad field is not echoed either', async ({ expect }) => {
    const secret = 'env-secret-value-9d2e';
    const r = await cli(['conformance', '--out', join(dir, 'run2'), '--no-allure'], { LOCKCONF_CLIENT_SECRET: secret, LOCKCONF_BASE_URL: 'ftp://x' });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('an unreachable target ends the run with exit 2, says so, and prints no secret', async ({ expect }) => {
    // The run other files read too (test/support/shared-runs.ts): a --target with every address at 127.0.0.1:9 and three secrets.
    const r = await sharedRun('unreachable');
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('ERR_TARGET_UNREACHABLE');
    expect(r.stderr).toContain('could not be carried out');
    for (const v of Object.values(UNREACHABLE_SECRETS)) expect(r.stdout + r.stderr).not.toContain(v);
  });

  it('an --only pattern that matches nothing is refused with exit 2', async ({ expect }) => {
    const r = await cli(['conformance', '--only', 'NOPE-*', '--out', join(dir, 'run3'), '--no-allure']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('NOPE-*');
  });

  it('an --only ID with a typo: "did you mean" the closest IDs, exit 2, and the report files all the same', async ({ expect }) => {
    const out = join(dir, 'only-typo');
    const r = await cli(['conformance', '--only', 'OAUTH-STATE-ECO', '--out', out, '--no-allure']);
    expect(r.code).toBe(2);
    const errorLines = r.stderr.split('\n').filter((l) => l.includes('ERR_'));
    expect(errorLines).toEqual(['lockconf: ERR_USAGE: --only OAUTH-STATE-ECO: no requirement matches: did you mean OAUTH-STATE-ECHO? (see --list)']);
    const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
    expect(result).toMatchObject({ verdict: 'error', error: { code: 'ERR_USAGE' } });
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'junit.xml'))).toBe(true);
  });

  it('a profile field with a typo is named with the field it most likely meant, exit 2', async ({ expect }) => {
    const file = join(dir, 'typo-profile.json');
    await writeFile(file, JSON.stringify({
      authUrl: 'http://127.0.0.1:9/oauth', baseUrl: 'http://127.0.0.1:9/api', clientId: 'c', clientSecret: 'typo-secret-5e6f', apiKey: 'typo-key-7a8b',
      redirectUri: 'http://127.0.0.1:9/cb', controlURL: 'http://127.0.0.1:9/_control', controlToken: 'typo-ctl-9c0d',
    }));
    const r = await cli(['conformance', '--target', file, '--out', join(dir, 'typo-run'), '--no-allure']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown field controlURL: did you mean controlUrl? (target file ${file})`);
    expect(r.stderr).not.toContain('fixtures is required');
    for (const v of ['typo-secret-5e6f', 'typo-key-7a8b', 'typo-ctl-9c0d']) expect(r.stdout + r.stderr).not.toContain(v);
  });

  it('--version and -V print the version and the source it runs from', async ({ expect }) => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^lockconf ${pkg.version.replace(/\./g, '\\.')}\nsource: (git commit [0-9a-f]{12} |the installed package|.* \\(not a git clone\\))`));
      expect(r.stderr).toBe('');
    }
  });

  it('login without a target profile exits 2 and says what it needs', async ({ expect }) => {
    const r = await cli(['login']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('login needs a target profile');
  });
});
