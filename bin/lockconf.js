#!/usr/bin/env node
/**
 * `npx lockconf …` / `lockconf …` from an installed package: the command line
 * (harness/cli.ts) run with tsx, in a child Node process that has the tsx
 * loader from its first line, so vitest's workers (which inherit the parent's
 * --import flags) load the TypeScript suites too. The exit code is passed
 * through; SIGTERM and SIGHUP are forwarded.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tsx = pathToFileURL(require.resolve('tsx')).href;
const child = spawn(process.execPath, ['--import', tsx, join(here, '..', 'harness', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl-C reaches the child from the terminal (same process group): the parent only waits for it.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
