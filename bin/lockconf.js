#!/usr/bin/env node
/**
 * `lockconf …` (`npm run conformance`, `npx lockconf` from an installed package):
 * the command line (harness/cli.ts) run from its prebuilt JavaScript (bin/bundle.js:
 * built on the first launch and whenever a source changed, then imported straight
 * from node_modules/.cache/lockconf/), in this process. Nothing pays tsx's module
 * hooks: neither the CLI's imports nor vitest's, nor its workers'.
 *
 * Where the build cannot be had (esbuild missing, a cache that cannot be written),
 * or with LOCKCONF_NO_BUILD=1, it runs as before: harness/cli.ts with tsx, in a
 * child Node process that has the tsx loader from its first line (so vitest's
 * workers, which inherit the parent's --import flags, load TypeScript too); the
 * exit code is passed through, SIGTERM and SIGHUP are forwarded.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBundle } from './bundle.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'harness/cli.ts';

/** The prebuilt CLI's module (its runCli), or null: run through tsx. */
async function prebuilt() {
  const build = await ensureBundle({ root: ROOT, name: 'cli', entryPoints: [ENTRY] });
  if (!build) return null;
  try {
    const cli = await import(pathToFileURL(build.entries[ENTRY]).href);
    return typeof cli.runCli === 'function' ? cli : null;
  } catch {
    return null; // run through tsx, which reports a genuine error of the sources itself
  }
}

function throughTsx() {
  const require = createRequire(import.meta.url);
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(ROOT, ENTRY), ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal (same process group): the parent only waits for it.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const cli = await prebuilt();
if (cli) cli.runCli(process.argv);
else throughTsx();
