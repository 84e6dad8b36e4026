/**
 * `npm run conformance -- --client` end to end: the example application against
 * a grading mock in this process, the command line in a child process. It writes
 * the four result files with the verdict, exits 0 / 1 / 2, and no secret of the
 * profile reaches any file it writes.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { declaredSlices, slicedRequirements } from '../../harness/catalog/slices/index.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { startGradedExample, writeProfile, type GradedExample } from './support/example.js';
import { textsUnder } from '../support/files.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeTmpDir(d);
});

async function gradeWithCli(example: GradedExample, extra: string[] = []) {
  const dir = await makeTmpDir('client-run');
  dirs.push(dir);
  const target = join(dir, 'target.json');
  await writeProfile(example, target);
  const out = join(dir, 'out');
  const run = await cli(['conformance', '--client', '--target', target, '--out', out, ...extra]);
  const result = existsSync(join(out, 'conformance.json'))
    ? (JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as { verdict: string; requirements: Array<{ id: string; status: string; reason: string; slices?: Array<{ slice: string; status: string; reason?: string }> }> })
    : null;
  return { run, out, result };
}

// Each test grades its own example application against its own grading mock: they run at the same time.
describe.concurrent('conformance --client', () => {
  it('certifies the example application: exit 0, conformant, nothing failed, warned or untested, the four result files, no secret', async ({ expect }) => {
    const example = await startGradedExample();
    try {
      const { run, out, result } = await gradeWithCli(example);
      expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(0);
      expect(result?.verdict).toBe('conformant');
      expect(result!.requirements.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
      expect(result!.requirements.every((r) => r.id.startsWith('CLIENT-'))).toBe(true);
      // Traceability: every declared slice of every CLIENT- requirement was exercised by an assertion, and held.
      for (const id of slicedRequirements().filter((i) => i.startsWith('CLIENT-'))) {
        const slices = result!.requirements.find((r) => r.id === id)?.slices ?? [];
        expect(slices.map((s) => s.slice), `${id} lists its declared slices`).toEqual(declaredSlices(id));
        expect(slices.filter((s) => s.status !== 'passed').map((s) => `${id} [${s.slice}] ${s.status}: ${s.reason ?? ''}`)).toEqual([]);
      }
      for (const file of ['index.html', 'junit.xml', 'conformance.json', 'allure-report/index.html']) expect(existsSync(join(out, file)), file).toBe(true);
      const p = example.mock.profile;
      for (const { file, text } of await textsUnder(out)) {
        for (const [secret, what] of [[p.clientSecret, 'client secret'], [p.apiKey, 'API key'], [p.controlToken!, 'control token']] as const) {
          expect(text.includes(secret), `${what} in ${file}`).toBe(false);
        }
      }
    } finally {
      await example.close();
    }
  }, 180_000);

  it('fails a client that breaks a MUST rule with exit 1, naming the rule and the request', async ({ expect }) => {
    const example = await startGradedExample(['secret-in-url']);
    try {
      const { run, result } = await gradeWithCli(example, ['--no-allure']);
      expect(run.code).toBe(1);
      expect(result?.verdict).toBe('not-conformant');
      const req = result!.requirements.find((r) => r.id === 'CLIENT-SECRET-ONLY-IN-FORM');
      expect(req?.status).toBe('failed');
      expect(req?.reason).toContain('the client secret was sent in: url');
      expect(run.stdout).not.toContain(example.mock.profile.clientSecret);
    } finally {
      await example.close();
    }
  }, 180_000);

  it('judges only its own grading: the fixed application, restarted beside the same mock, is conformant', async ({ expect }) => {
    const example = await startGradedExample(['secret-in-url']);
    try {
      const first = await gradeWithCli(example, ['--no-allure']);
      expect(first.run.code, first.run.stderr.slice(-2000)).toBe(1);
      await example.restartApp([]); // fixed, on its own port; the mock keeps the first grading's requests
      const second = await gradeWithCli(example, ['--no-allure']);
      expect(second.run.code, second.run.stdout.slice(-2000) + second.run.stderr.slice(-2000)).toBe(0);
      expect(second.result?.verdict).toBe('conformant');
      expect(second.result!.requirements.find((r) => r.id === 'CLIENT-SECRET-ONLY-IN-FORM')?.status).toBe('passed');
    } finally {
      await example.close();
    }
  }, 180_000);

  it('cannot grade without a grading mock: exit 2 with what to run', async ({ expect }) => {
    const example = await startGradedExample();
    await example.close();
    const { run } = await gradeWithCli(example, ['--no-allure']);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toMatch(/cannot be reached|grading mock|could not be graded/);
  }, 180_000);
});
