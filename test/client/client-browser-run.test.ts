/**
 * `conformance --client --browser` end to end: the example application's pages
 * variant (started before its callback was registered, which it then registers
 * through PUT /_control/redirect-uri) against a grading mock in this process,
 * the command line in a child process driving it with Chromium.
 *
 * The probe families themselves are proven through the plain HTTP driver
 * (client-run.test.ts, example-app.test.ts); here the wiring is: the driver chosen,
 * the pages driven, the verdict on what it ran. So the run drives two families
 * (LOCKCONF_CLIENT_PROBES=session,denial, a few browser sessions instead of ~30):
 * every rule they exercise passes, the rules of the families left out are not
 * tested with that reason, and the run says so: incomplete, never conformant.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_CATALOG } from '../../harness/catalog/index.js';
import { exitCodeFor } from '../../harness/commands/common.js';
import { cli } from '../support/cli.js';
import { ensureChromium } from '../support/chromium.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { startPagesExample } from './support/pages-example.js';

const dirs: string[] = [];
/** The families this run drives, and the rules only the families left out exercise. */
const PROBES = 'session,denial';
/** Rules the session family exercises only through a refreshUrl (the double submit GETs it twice at once): the pages example presses a button. */
const NEEDS_REFRESH_URL = ['CLIENT-REFRESH-IN-FLIGHT'];
const LEFT_OUT_RULES = ['CLIENT-STATE-CHECKED', 'CLIENT-STATE-SESSION-BOUND', 'CLIENT-STATE-ONE-USE', 'CLIENT-CANCELLATION-STATE-CHECKED', 'CLIENT-REFRESH-NO-RETRY', 'CLIENT-REAUTHORIZE-ON-401'];

afterAll(async () => {
  for (const d of dirs) await removeTmpDir(d);
});

describe('conformance --client --browser', () => {
  it('grades an application with pages through Chromium: every rule its probes exercised passes, the rest are not tested as left out, and no secret is written', async () => {
    ensureChromium(); // installs Debian's chromium when missing, or says how
    const example = await startPagesExample();
    try {
      const dir = await makeTmpDir('client-browser-run');
      dirs.push(dir);
      const target = join(dir, 'target.json');
      const { driver: _chosenByTheFlag, ...profile } = example.profile;
      await writeFile(target, JSON.stringify(profile), { mode: 0o600 });
      const out = join(dir, 'out');
      const run = await cli(['conformance', '--client', '--browser', '--target', target, '--out', out, '--no-allure'], { LOCKCONF_CLIENT_PROBES: PROBES });
      expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(exitCodeFor('incomplete'));
      expect(run.stdout).toContain('driven by Chromium');
      // A line as each probe family starts and ends, not minutes of silence.
      expect(run.stdout).toMatch(/^lockconf: probes: session started$/m);
      expect(run.stdout).toMatch(/^lockconf: probes: denial ended, ran \(\d+\.\d s\)$/m);
      const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as {
        verdict: string; selection: { weakenedBy: Array<{ setting: string; value: string }> }; requirements: Array<{ id: string; status: string; reason: string }>;
      };
      expect(result.verdict).toBe('incomplete');
      expect(result.selection.weakenedBy).toContainEqual(expect.objectContaining({ setting: 'LOCKCONF_CLIENT_PROBES', value: PROBES }));
      expect(result.requirements.map((r) => r.id)).toEqual(CLIENT_CATALOG.map((r) => r.id));
      const exercised = result.requirements.filter((r) => !LEFT_OUT_RULES.includes(r.id) && !NEEDS_REFRESH_URL.includes(r.id));
      for (const r of result.requirements.filter((x) => NEEDS_REFRESH_URL.includes(x.id))) expect(`${r.id} ${r.status}: ${r.reason}`).toMatch(/not-tested: .*refreshUrl/);
      expect(exercised.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
      const leftOut = result.requirements.filter((r) => LEFT_OUT_RULES.includes(r.id));
      expect(leftOut.map((r) => r.status)).toEqual(LEFT_OUT_RULES.map(() => 'not-tested'));
      for (const r of leftOut) expect(r.reason, r.id).toContain('left out of this run\'s probe selection');
      const context = JSON.parse(await readFile(join(out, 'run-context.json'), 'utf8')) as { application: { driver: string } };
      expect(context.application.driver).toBe('chromium');
      expect(existsSync(join(out, 'index.html'))).toBe(true);
      const p = example.mock.profile;
      for (const file of ['index.html', 'conformance.json', 'junit.xml', 'run-context.json']) {
        const text = await readFile(join(out, file), 'utf8');
        for (const [secret, what] of [[p.clientSecret, 'client secret'], [p.apiKey, 'API key'], [p.controlToken!, 'control token']] as const) {
          expect(text.includes(secret), `${what} in ${file}`).toBe(false);
        }
      }
      expect(run.stdout + run.stderr).not.toContain(p.clientSecret);
    } finally {
      await example.close();
    }
  }, 400_000);

  it('is refused without --client, exit 2 with one line', async () => {
    const run = await cli(['conformance', '--browser']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--browser drives an application\'s pages: it goes with --client');
  });
});
