/**
 * `conformance --client --browser` end to end: the example application's pages
 * variant (started before its callback was registered, which it then registers
 * through PUT /_control/redirect-uri) against a grading mock in this process,
 * the command line in a child process driving it with Chromium.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_CATALOG } from '../../harness/catalog/index.js';
import { cli } from '../support/cli.js';
import { ensureChromium } from '../support/chromium.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { startPagesExample } from './support/pages-example.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeTmpDir(d);
});

describe('conformance --client --browser', () => {
  it('grades an application with pages conformant through Chromium, says which driver ran, and writes no secret', async () => {
    ensureChromium(); // installs Debian's chromium when missing, or says how
    const example = await startPagesExample();
    try {
      const dir = await makeTmpDir('client-browser-run');
      dirs.push(dir);
      const target = join(dir, 'target.json');
      const { driver: _chosenByTheFlag, ...profile } = example.profile;
      await writeFile(target, JSON.stringify(profile), { mode: 0o600 });
      const out = join(dir, 'out');
      const run = await cli(['conformance', '--client', '--browser', '--target', target, '--out', out, '--no-allure']);
      expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(0);
      expect(run.stdout).toContain('driven by Chromium');
      const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as { verdict: string; requirements: Array<{ id: string; status: string; reason: string }> };
      expect(result.verdict).toBe('conformant');
      expect(result.requirements.map((r) => r.id)).toEqual(CLIENT_CATALOG.map((r) => r.id));
      expect(result.requirements.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
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
