/**
 * Every message and page names commands that exist where lockconf runs: `npm run …`
 * only in the repository, `npx lockconf …` in an installed package. The code says a
 * command through lockconfCommand() (harness/commands/command-style.ts) or the mock's
 * commandLine(); no string of the harness or the mock spells `npm run` itself.
 * (test/distribution/pack.test.ts checks the installed package's banner and pages.)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandStyleOf, lockconfCommand } from '../../harness/commands/command-style.js';
import { ROOT } from '../support/cli.js';

/** Files that speak to the repository's developers only: generated docs say how they were generated. */
const REPOSITORY_ONLY = new Set(['mock/commands.ts', 'harness/report/coverage-doc.ts', 'harness/report/slices-doc.ts', 'harness/report/requirements-doc.ts', 'harness/report/freedoms-doc.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The text without comments (block comments, and line comments after whitespace: not the // of a URL). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

describe('commands named in messages', () => {
  it('no string of the harness or the mock spells `npm run`: they say it through lockconfCommand()', () => {
    const offenders = ['harness', 'mock']
      .flatMap((d) => sources(join(ROOT, d)))
      .map((f) => relative(ROOT, f).split('\\').join('/'))
      .filter((f) => !REPOSITORY_ONLY.has(f))
      .flatMap((f) => withoutComments(readFileSync(join(ROOT, f), 'utf8')).split('\n').filter((l) => /npm run /.test(l)).map((l) => `${f}: ${l.trim()}`));
    expect(offenders).toEqual([]);
  });

  it('in the repository a message says npm run; in an installed package npx lockconf', () => {
    expect(commandStyleOf(ROOT)).toBe('npm');
    expect(lockconfCommand('login', '--target FILE')).toBe('npm run login -- --target FILE');
    expect(commandStyleOf(join(ROOT, 'node_modules', 'lockconf'))).toBe('npx');
  });
});
