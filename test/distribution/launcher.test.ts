/**
 * The launcher (bin/lockconf.js) runs the command line from prebuilt JavaScript
 * (bin/bundle.js), built when missing or when a source changed, and falls back to
 * tsx when no build can be had. Checked on a package of its own: the launcher and
 * the builder copied beside a small harness/cli.ts that says how it was started,
 * with this project's node_modules linked in (esbuild, tsx).
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDirOf, ensureBundle } from '../../bin/bundle.js';
import { ROOT } from '../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let work = '';
let pkg = '';

/** The fake CLI: prints how it was started and the value of harness/value.ts, exits with the code it is given. */
const CLI = `import { resolve } from 'node:path';
import { VALUE } from './value.js';
export function runCli(argv: string[]): void {
  process.stdout.write(JSON.stringify({ argv1: process.argv[1], args: argv.slice(2), value: VALUE, dirname: import.meta.dirname, filename: import.meta.filename, url: import.meta.url }) + '\\n');
  process.exit(Number(argv[2] ?? 0));
}
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) runCli(process.argv);
`;

interface Ran { code: number | null; stdout: string; stderr: string }

function launch(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(pkg, 'bin/lockconf.js'), ...args], { cwd: pkg, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** What the fake CLI printed. */
const said = (r: Ran) => JSON.parse(r.stdout) as { argv1: string; args: string[]; value: string; dirname: string; filename: string; url: string };

const setValue = (value: string) => writeFile(join(pkg, 'harness/value.ts'), `export const VALUE = '${value}';\n`);
const cacheEntries = async () => (await readdir(cacheDirOf(pkg))).sort();

beforeAll(async () => {
  work = await makeTmpDir('launcher');
  pkg = join(work, 'pkg');
  await mkdir(join(pkg, 'bin'), { recursive: true });
  await mkdir(join(pkg, 'harness'));
  await mkdir(join(pkg, 'node_modules'));
  for (const f of ['lockconf.js', 'bundle.js']) await copyFile(join(ROOT, 'bin', f), join(pkg, 'bin', f));
  await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'launcher-fixture', private: true, type: 'module' }));
  await writeFile(join(pkg, 'harness/cli.ts'), CLI);
  await setValue('one');
  for (const name of await readdir(join(ROOT, 'node_modules'))) {
    if (name !== '.bin' && name !== '.cache' && name !== '.package-lock.json') await symlink(join(ROOT, 'node_modules', name), join(pkg, 'node_modules', name));
  }
});
afterAll(() => removeTmpDir(work));

describe('the launcher (bin/lockconf.js)', () => {
  it('builds the CLI on the first launch and runs it in its own process, with the arguments and the exit code passed through', async () => {
    const r = await launch(['3', '--flag']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(said(r)).toMatchObject({ argv1: join(pkg, 'bin/lockconf.js'), args: ['3', '--flag'], value: 'one' });
    expect((await cacheEntries()).filter((e) => !e.startsWith('cli-'))).toEqual(['cli.json']);
  });

  it("keeps each module's import.meta: dirname, filename and url of its source file", async () => {
    expect(said(await launch([]))).toMatchObject({ dirname: join(pkg, 'harness'), filename: join(pkg, 'harness/cli.ts'), url: pathToFileURL(join(pkg, 'harness/cli.ts')).href });
  });

  it('does not build again while no source changed (a touched file with the same content included)', async () => {
    const before = await cacheEntries();
    await utimes(join(pkg, 'harness/value.ts'), new Date(), new Date(Date.now() + 5000));
    const r = await launch([]);
    expect(said(r).value).toBe('one');
    expect(await cacheEntries()).toEqual(before);
  });

  it('picks up a source edited since the last launch, even one of the same size', async () => {
    await setValue('two');
    const r = await launch([]);
    expect(said(r)).toMatchObject({ argv1: join(pkg, 'bin/lockconf.js'), value: 'two' });
  });

  it('launches started together after an edit all run the edited source, and leave one complete build behind them', async () => {
    await setValue('three');
    const runs = await Promise.all([1, 2, 3, 4].map(() => launch([])));
    for (const r of runs) expect({ code: r.code, stderr: r.stderr, value: said(r).value }).toEqual({ code: 0, stderr: '', value: 'three' });
    const entries = await cacheEntries();
    expect(entries.filter((e) => e.startsWith('.tmp-'))).toEqual([]);
    const record = JSON.parse(await readFile(join(cacheDirOf(pkg), 'cli.json'), 'utf8')) as { dir: string };
    expect(entries).toContain(record.dir);
  });

  it('runs through tsx when LOCKCONF_NO_BUILD=1', async () => {
    const r = await launch(['4'], { LOCKCONF_NO_BUILD: '1' });
    expect(r.code).toBe(4);
    expect(said(r)).toMatchObject({ argv1: join(pkg, 'harness/cli.ts'), args: ['4'], value: 'three' });
  });

  it('runs through tsx, without a word, when the cache cannot be written', async () => {
    await rm(join(pkg, 'node_modules/.cache'), { recursive: true, force: true });
    await writeFile(join(pkg, 'node_modules/.cache'), 'not a directory');
    try {
      const r = await launch([]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(said(r)).toMatchObject({ argv1: join(pkg, 'harness/cli.ts'), value: 'three' });
    } finally {
      await rm(join(pkg, 'node_modules/.cache'), { force: true });
    }
  });
});

describe('the build (bin/bundle.js)', () => {
  it('refuses a module using import.meta otherwise than for dirname, filename or url', async () => {
    await writeFile(join(pkg, 'harness/other.ts'), 'export const where = import.meta.resolve("./cli.js");\n');
    let error: unknown = null;
    const build = await ensureBundle({ root: pkg, name: 'other', entryPoints: ['harness/other.ts'], onError: (err) => { error = err; } });
    expect(build).toBeNull();
    expect(String(error)).toContain('import.meta.resolve');
  });

  it("builds this project's command line, and finds it current afterwards", async () => {
    const first = await ensureBundle({ root: ROOT, name: 'cli', entryPoints: ['harness/cli.ts'] });
    expect(first).not.toBeNull();
    const again = await ensureBundle({ root: ROOT, name: 'cli', entryPoints: ['harness/cli.ts'] });
    expect(again).toEqual({ ...first, built: false });
    const cli = (await import(pathToFileURL(again!.entries['harness/cli.ts']!).href)) as Record<string, unknown>;
    expect(typeof cli.runCli).toBe('function');
  });
});
