import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allureCli, generateAllureReport } from '../../../harness/report/allure.js';
import { startAllureGenerator } from '../../../harness/report/allure-generator.js';
import { PlainFileWriter } from '../../../harness/report/allure-vitest-reporter.js';

const ROOT = join(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function runDirWithOneResult(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lockconf-allure-generator-'));
  dirs.push(dir);
  await mkdir(join(dir, 'allure-results'));
  const now = Date.now();
  await writeFile(join(dir, 'allure-results', 'a-result.json'), JSON.stringify({
    uuid: 'a', historyId: 'a', name: 'TOKEN-RESPONSE-JSON: the token response is JSON', fullName: 'lockconf#a', status: 'passed', stage: 'finished',
    labels: [{ name: 'epic', value: 'Token endpoint' }, { name: 'story', value: 'TOKEN-RESPONSE-JSON' }], steps: [], attachments: [], parameters: [], links: [], start: now, stop: now,
  }));
  return dir;
}

describe('the Allure generator started ahead of time', () => {
  it('generates the report from allure-results/ when asked', async () => {
    const dir = await runDirWithOneResult();
    const generator = startAllureGenerator(dirname(allureCli(ROOT)));
    expect(generator).not.toBeNull();
    const config = join(dir, 'allurerc.json');
    await writeFile(config, JSON.stringify({ name: 'lockconf', plugins: { awesome: { options: { singleFile: false } } } }));
    await generator!.generate({ cwd: dir, config, resultsDir: join(dir, 'allure-results'), output: join(dir, 'direct') }, 60_000);
    expect(existsSync(join(dir, 'direct', 'index.html'))).toBe(true);
  }, 60_000);

  it('serves generateAllureReport, which strips requests to other hosts from the pages', async () => {
    const dir = await runDirWithOneResult();
    const index = await generateAllureReport({ runDir: dir, root: ROOT, generator: startAllureGenerator(dirname(allureCli(ROOT))) });
    expect(index).toBe(join(dir, 'allure-report', 'index.html'));
    expect(await readFile(index, 'utf8')).not.toMatch(/googletagmanager/);
  }, 60_000);

  it('says why when the report cannot be generated, and is used once', async () => {
    const dir = await runDirWithOneResult();
    const generator = startAllureGenerator(dirname(allureCli(ROOT)))!;
    const what = { cwd: dir, config: join(dir, 'no-such-allurerc.json'), resultsDir: join(dir, 'allure-results'), output: join(dir, 'out') };
    await expect(generator.generate(what, 60_000)).rejects.toThrow(/allure generate exited 1/);
    await expect(generator.generate(what, 60_000)).rejects.toThrow(/already used/);
  }, 60_000);

  it('cancelled, it writes nothing', async () => {
    const dir = await runDirWithOneResult();
    const generator = startAllureGenerator(dirname(allureCli(ROOT)))!;
    generator.cancel();
    await expect(generator.generate({ cwd: dir, config: 'x', resultsDir: dir, output: join(dir, 'out') }, 1_000)).rejects.toThrow(/already used/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('allure-results written without an fsync per file', () => {
  it('writes results, containers, attachments and categories where allure reads them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockconf-allure-writer-'));
    dirs.push(dir);
    const resultsDir = join(dir, 'allure-results');
    const writer = new PlainFileWriter({ resultsDir });
    writer.writeResult({ uuid: 'r1', name: 'x' } as never);
    writer.writeGroup({ uuid: 'g1', children: [] } as never);
    writer.writeAttachment('a1-attachment.json', Buffer.from('{"a":1}'));
    writer.writeCategoriesDefinitions([]);
    expect(JSON.parse(await readFile(join(resultsDir, 'r1-result.json'), 'utf8'))).toEqual({ uuid: 'r1', name: 'x' });
    expect(JSON.parse(await readFile(join(resultsDir, 'g1-container.json'), 'utf8'))).toEqual({ uuid: 'g1', children: [] });
    expect(await readFile(join(resultsDir, 'a1-attachment.json'), 'utf8')).toBe('{"a":1}');
    expect(await readFile(join(resultsDir, 'categories.json'), 'utf8')).toBe('[]');
  });
});
