/**
 * `npm ci` and `npm i` in a clone print no install-script warning: npm (11.19 on) runs a
 * dependency's install script only when package.json's allowScripts names it, and warns
 * about each one it does not. Every package of the lockfile with an install script is
 * named there (allowed or denied), by name or by name@version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

describe('install scripts', () => {
  it('package.json\'s allowScripts covers every package of the lockfile with an install script', () => {
    const allow = Object.keys((read('package.json').allowScripts ?? {}) as Record<string, boolean>);
    const packages = (read('package-lock.json').packages ?? {}) as Record<string, { version?: string; hasInstallScript?: boolean }>;
    const withScripts = Object.entries(packages).filter(([path, p]) => path && p.hasInstallScript)
      .map(([path, p]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), version: p.version }));
    expect(withScripts.length).toBeGreaterThan(0); // esbuild's postinstall
    const uncovered = withScripts.filter(({ name, version }) => !allow.includes(name) && !allow.includes(`${name}@${version}`));
    expect(uncovered).toEqual([]);
  });
});
