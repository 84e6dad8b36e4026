/**
 * Running the command line as a person would (bin/lockconf.js: harness/cli.ts from
 * its prebuilt JavaScript), in a child process. The child gets this process's environment without LOCKCONF_* and
 * VITEST* variables, so neither the test's own settings nor vitest's leak into
 * the run under test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `lockconf <args>` from the repository root; resolves once the child has exited and its output is read. */
export function cli(args: string[], extraEnv: Record<string, string> = {}, opts: { onSpawn?: (pid: number) => void } = {}): Promise<CliResult> {
  const running = startCli(args, extraEnv);
  if (running.child.pid !== undefined) opts.onSpawn?.(running.child.pid);
  return running.done;
}

/** A running `lockconf <args>`: its process (to signal it), its output so far, and its end. */
export interface RunningCli {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  done: Promise<CliResult>;
}

export function startCli(args: string[], extraEnv: Record<string, string> = {}): RunningCli {
  const env: NodeJS.ProcessEnv = {};
  // npm's INIT_CWD and npm_lifecycle_event of `npm test` neither: they would move the child's relative paths (user-paths.ts).
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST') && k !== 'INIT_CWD' && k !== 'npm_lifecycle_event') env[k] = v;
  // The sign-in screens (Chromium) are left out unless a test asks for them: a browser per CLI run would cost more than the run.
  Object.assign(env, { LOCKCONF_SIGN_IN: 'off' }, extraEnv, { NO_COLOR: '1' });
  const child = spawn(process.execPath, [join(ROOT, 'bin/lockconf.js'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, output: () => stdout + stderr, done };
}
