/**
 * Relative paths on the command line mean the folder the user ran the command in,
 * also through `npm run conformance`, which starts the script in the package root
 * and names the user's folder in INIT_CWD: --target and --out are resolved there and
 * the messages name the resolved path; --out never lands in the repository unannounced.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedPath, userDir, userPath } from '../../harness/commands/user-paths.js';
import { ROOT, cli } from '../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTmpDir('user-paths');
});
afterAll(() => removeTmpDir(dir));

/** What npm gives a script run from `dir`: the package root as cwd, the user's folder in INIT_CWD. */
const npmRunFrom = (folder: string) => ({ INIT_CWD: folder, npm_lifecycle_event: 'conformance' });

describe('the folder a relative path means', () => {
  it('is the folder npm names in INIT_CWD when npm started the script in the package root', () => {
    expect(userDir(npmRunFrom('/home/me/app'), ROOT, ROOT)).toBe('/home/me/app');
    expect(userPath('my.json', npmRunFrom('/home/me/app'), ROOT, ROOT)).toBe('/home/me/app/my.json');
  });

  it('is the current directory otherwise (no npm, or a process npm did not move)', () => {
    expect(userDir({}, '/somewhere', ROOT)).toBe('/somewhere');
    expect(userDir(npmRunFrom('/home/me/app'), '/somewhere', ROOT)).toBe('/somewhere');
    expect(userDir({ INIT_CWD: '/home/me/app' }, ROOT, ROOT)).toBe(ROOT);
  });

  it('is named in messages beside the path as typed', () => {
    expect(namedPath('my.json', '/home/me/app/my.json')).toBe('my.json (/home/me/app/my.json)');
    expect(namedPath('/abs/my.json', '/abs/my.json')).toBe('/abs/my.json');
  });
});

describe('npm run conformance from a folder of the user', () => {
  it('looks for --target there, names the resolved path, and writes --out there (announced), not in the repository', async () => {
    const r = await cli(['conformance', '--target', 'missing-profile.json', '--out', 'rel-out', '--no-allure'], npmRunFrom(dir));
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout + r.stderr).toContain(`--target missing-profile.json (${join(dir, 'missing-profile.json')}): no such file`);
    expect(r.stdout).toContain(`--out rel-out (${join(dir, 'rel-out')}): the reports go there`);
    expect(existsSync(join(dir, 'rel-out', 'index.html'))).toBe(true);
    expect(existsSync(join(ROOT, 'rel-out'))).toBe(false);
  });
});
