/**
 * The first hour: what a user who got something wrong sees. Preflight proves the
 * profile before any test, and a run that cannot be carried out still writes its
 * four report files with the verdict "error", one message naming the variable to
 * fix, exit code 2, no stack trace and no colour.
 *
 * Each test runs the command line in a child process and writes its own output
 * directory; the tests without a time limit of their own run at the same time (with room
 * for a busy machine: four runs at once take longer each than one alone).
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CATALOG } from '../../harness/catalog/index.js';
import type { ConformanceResult } from '../../harness/report/result-file.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { cli } from '../support/cli.js';
import { sharedRun } from '../support/shared-runs.js';
import { targetEnv } from '../support/target-env.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let dir: string;
let mock: RunningMock;

beforeAll(async () => {
  dir = await makeTmpDir('cli-preflight');
  mock = await createMock({ control: false });
});
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});

const ANSI = /\x1b\[/;

/** The profile of the mock as LOCKCONF_* variables, with fixtures (no control). */
function env(overrides: Record<string, string> = {}): Record<string, string> {
  return { ...targetEnv(mock.profile), LOCKCONF_FIXTURES: JSON.stringify(mock.profile.fixtures), ...overrides };
}

async function readResult(out: string): Promise<ConformanceResult> {
  return JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
}

describe('preflight: the profile is proved before any test', () => {
  it('a wrong client secret exits 2 before any test runs, with one message naming LOCKCONF_CLIENT_SECRET', async () => {
    const out = join(dir, 'wrong-secret');
    // --no-allure: the Allure report of a run that could not be carried out costs a second of CPU; the unreachable target's test checks it.
    const r = await cli(['conformance', '--out', out, '--no-allure'], env({ LOCKCONF_CLIENT_SECRET: 'a-typo-in-the-secret-3f9' }));
    expect(r.code, r.stdout + r.stderr).toBe(2);
    // Found by the preflight, before vitest starts: no test ran (speed itself is bench/'s to judge, never a timed test).
    expect(r.stdout).not.toContain('lockconf: conformance run →');
    const errorLines = r.stderr.split('\n').filter((l) => l.includes('ERR_'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('ERR_CREDENTIALS_REFUSED');
    expect(errorLines[0]).toContain('LOCKCONF_CLIENT_SECRET');
    expect(r.stdout + r.stderr).not.toContain('a-typo-in-the-secret-3f9');
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stdout + r.stderr).not.toMatch(ANSI);
    expect(r.stdout).toContain('environment variables LOCKCONF_AUTH_URL');
    const result = await readResult(out);
    expect(result.verdict).toBe('error');
    expect(result.error?.code).toBe('ERR_CREDENTIALS_REFUSED');
    expect(result.counts.failed).toBe(0);
    expect(result.tests).toEqual([]);
    // Counted over a service run's requirements: never the receiver's or the client's, which a service run never has.
    expect(result.counts.notTested).toBe(SERVICE_CATALOG.length);
    expect(result.selection.total).toBe(SERVICE_CATALOG.length);
    expect(new Set(result.requirements.map((q) => q.area))).toEqual(new Set(SERVICE_CATALOG.map((q) => q.area)));
  });

  it.concurrent('a wrong API key exits 2 naming LOCKCONF_API_KEY', { timeout: 90_000 }, async ({ expect }) => {
    const out = join(dir, 'wrong-key');
    const r = await cli(['conformance', '--out', out, '--no-allure'], env({ LOCKCONF_API_KEY: 'not-the-key-81c2' }));
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('ERR_API_KEY_REFUSED');
    expect(r.stderr).toContain('LOCKCONF_API_KEY');
    expect(r.stdout + r.stderr).not.toContain('not-the-key-81c2');
  });

  it.concurrent('one exported variable without --target says the embedded mock is off and how to get it back', { timeout: 90_000 }, async ({ expect }) => {
    const out = join(dir, 'one-variable');
    const r = await cli(['conformance', '--out', out, '--no-allure'], { LOCKCONF_CLIENT_SECRET: 'exported-secret-55aa' });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('a LOCKCONF_* profile variable turns the embedded mock off');
    expect(r.stderr).toContain('instead of starting the embedded mock');
    expect(r.stderr).toContain('unset LOCKCONF_CLIENT_SECRET');
    expect(r.stdout + r.stderr).not.toContain('exported-secret-55aa');
    expect((await readResult(out)).error?.code).toBe('ERR_PROFILE_INVALID');
  });
});

describe('preflight: the control token', () => {
  it.concurrent('a wrong LOCKCONF_CONTROL_TOKEN exits 2 before any test, with one message naming it, and the report files', { timeout: 90_000 }, async ({ expect }) => {
    const controlled = await createMock();
    try {
      const out = join(dir, 'wrong-control-token');
      const r = await cli(['conformance', '--out', out, '--no-allure'], {
        ...targetEnv(controlled.profile),
        LOCKCONF_CONTROL_URL: controlled.profile.controlUrl!,
        LOCKCONF_CONTROL_TOKEN: 'not-the-control-token-4d1e',
      });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stdout).not.toContain('lockconf: conformance run →');
      const errorLines = r.stderr.split('\n').filter((l) => l.includes('ERR_'));
      expect(errorLines).toHaveLength(1);
      expect(errorLines[0]).toContain('ERR_CONTROL_TOKEN_REFUSED');
      expect(errorLines[0]).toContain('LOCKCONF_CONTROL_TOKEN');
      expect(r.stdout + r.stderr).not.toContain('not-the-control-token-4d1e');
      expect(r.stdout + r.stderr).not.toMatch(/would test \d+ of them/);
      const result = await readResult(out);
      expect(result).toMatchObject({ verdict: 'error', error: { code: 'ERR_CONTROL_TOKEN_REFUSED' } });
      expect(existsSync(join(out, 'index.html'))).toBe(true);
    } finally {
      await controlled.close();
    }
  });
});

describe('a run that cannot be carried out still reports', () => {
  it.concurrent('a global setup that fails (a capture address that cannot be bound) gives one message and the verdict error', { timeout: 90_000 }, async ({ expect }) => {
    const out = join(dir, 'setup-fails');
    const r = await cli(['conformance', '--out', out, '--no-allure', '--only', 'OAUTH-STATE-ECHO'], env({ LOCKCONF_CAPTURE: JSON.stringify({ listen: '192.0.2.1:0' }) }));
    expect(r.code).toBe(2);
    const errorLines = r.stderr.split('\n').filter((l) => l.includes('ERR_'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('EADDRNOTAVAIL');
    expect(r.stdout + r.stderr).not.toMatch(/Unhandled Error|\n\s+at /);
    expect((await readResult(out)).error?.message).toContain('EADDRNOTAVAIL');
    expect(existsSync(join(out, 'junit.xml'))).toBe(true);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });

  it.concurrent('an unreachable target writes all four report files with the verdict error', { timeout: 90_000 }, async ({ expect }) => {
    // The run other files read too (test/support/shared-runs.ts): every address of its --target is 127.0.0.1:9, the Allure report on.
    const r = await sharedRun('unreachable');
    const out = r.dir;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ERR_TARGET_UNREACHABLE');
    expect(r.stderr).toContain('authUrl');
    expect(r.stdout + r.stderr).not.toMatch(ANSI);
    expect(r.stdout + r.stderr).not.toMatch(/Unhandled Error|\n\s+at /);
    const result = await readResult(out);
    expect(result).toMatchObject({ verdict: 'error', error: { code: 'ERR_TARGET_UNREACHABLE' } });
    const html = await readFile(join(out, 'index.html'), 'utf8');
    expect(html).toContain('data-verdict="error"');
    expect(html).toContain('ERR_TARGET_UNREACHABLE');
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<error message="[^"]*" type="ERR_TARGET_UNREACHABLE"/);
    expect(junit).toMatch(/<testsuites [^>]*errors="1"/);
    const allureResults = await readdir(join(out, 'allure-results'));
    expect(allureResults.some((f) => f.endsWith('-result.json'))).toBe(true);
    expect(existsSync(join(out, 'allure-report', 'index.html'))).toBe(true);
  });
});
