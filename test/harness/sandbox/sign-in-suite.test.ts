/**
 * The sign-in suite (suites/oauth/sign-in-screens.test.ts) against the embedded
 * mock: one conformance run of its five requirements with Chromium, which passes
 * each of them and leaves no password or SMS code in any file it writes; and the
 * switch that leaves them out of a run (LOCKCONF_SIGN_IN=off, --no-sign-in).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../../harness/wire/redact.js';
import { harvestSecrets } from '../../../harness/wire/secret-harvest.js';
import { computeVerdict } from '../../../harness/run/verdict.js';
import { weakeningSettings } from '../../../harness/run/weakening.js';
import { SIGN_IN_LEFT_OUT, SIGN_IN_REQUIREMENTS } from '../../../harness/run/sign-in-switch.js';
import { CATALOG } from '../../../harness/catalog/index.js';
import { createWorld } from '../../../mock/world.js';
import { cli, type CliResult } from '../../support/cli.js';
import { ensureChromium } from '../../support/chromium.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

type Report = { verdict: string; requirements: Array<{ id: string; status: string; reason: string }> };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('the sign-in suite against the embedded mock', () => {
  let dir: string;
  let run: CliResult;
  let report: Report;
  beforeAll(async () => {
    ensureChromium();
    dir = await makeTmpDir('sign-in-suite');
    run = await cli(['conformance', '--no-allure', '--out', dir, '--only', SIGN_IN_REQUIREMENTS.join(',')], { LOCKCONF_SIGN_IN: 'on' });
    report = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8')) as Report;
  }, 120_000);
  afterAll(() => removeTmpDir(dir));

  it('passes every requirement of the sign-in screens', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const id of SIGN_IN_REQUIREMENTS) expect(report.requirements.find((r) => r.id === id), id).toMatchObject({ status: 'passed' });
  });

  it('writes neither the test account\'s password nor an SMS code anywhere (they are redacted)', async () => {
    const password = createWorld().users[0]!.password; // the mock's users have fixed passwords
    let labels = 0;
    for (const file of await filesUnder(dir)) {
      const text = await readFile(file, 'utf8');
      expect(text.includes(password), `${file} holds the password`).toBe(false);
      expect(text, `${file} holds an SMS code`).not.toMatch(/\\?"code\\?"\s*:\s*\\?"\d{6}\\?"/);
      labels += (text.match(/‹(password|code|sms_code)#/g) ?? []).length;
    }
    expect(labels, 'the password and the SMS codes were in the exchanges, redacted').toBeGreaterThan(0);
    expect(run.stdout + run.stderr).not.toContain(password);
  });
});

describe('the sign-in switch', () => {
  it('LOCKCONF_SIGN_IN=off weakens the run and leaves the five requirements out of its scope', () => {
    const weakenedBy = weakeningSettings({ LOCKCONF_SIGN_IN: 'off' }, { embeddedMock: true });
    expect(weakenedBy.map((w) => w.setting)).toEqual(['LOCKCONF_SIGN_IN']);
    const tests = CATALOG.filter((r) => r.level === 'MUST').map((r) => (SIGN_IN_REQUIREMENTS as readonly string[]).includes(r.id)
      ? { name: `${r.id}: x`, state: 'skipped' as const, note: SIGN_IN_LEFT_OUT }
      : { name: `${r.id}: x`, state: 'passed' as const });
    const verdict = computeVerdict({ catalog: CATALOG.filter((r) => r.level === 'MUST'), tests, weakenedBy });
    expect(verdict.verdict).toBe('partial');
    expect(verdict.scope.inScope).toBe(verdict.scope.total - SIGN_IN_REQUIREMENTS.length);
    expect(weakeningSettings({}, { embeddedMock: true })).toEqual([]);
  });

  it('the password of the control extension\'s answer is registered with the redactor', () => {
    const redactor = new Redactor();
    harvestSecrets({ json: { email: 'ada@example.test', password: 'analytical-engine' }, headers: {}, location: null }, redactor);
    harvestSecrets({ json: { code: '493021' }, headers: {}, location: null }, redactor);
    expect(redactor.redact('password=analytical-engine&code=493021')).not.toMatch(/analytical-engine|493021/);
  });
});
