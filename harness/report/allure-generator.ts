/**
 * The Allure generator started ahead of time: a child process (allure-child.mjs)
 * that loads Allure's report core while the tests run, so that at the end of the
 * run only the report itself is left to make. Loading those modules took about
 * as long as generating the report (2 s each on a busy 2-core machine).
 *
 * The child never holds the run up: it is unreferenced until a report is asked
 * for, it exits when its stdin closes (cancel(), or this process ending), and a
 * generation that outlasts its time limit is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const CHILD = fileURLToPath(new URL('./allure-child.mjs', import.meta.url));
const STDERR_TAIL = 4096;

export interface AllureGeneration {
  /** Directory Allure resolves relative paths from. */
  cwd: string;
  /** The allurerc.json to read. */
  config: string;
  resultsDir: string;
  output: string;
}

export interface AllureGenerator {
  /** Generate the report; rejects with the child's last words when it fails or times out. Once per generator. */
  generate(what: AllureGeneration, timeoutMs: number): Promise<void>;
  /** No report after all: the child exits. */
  cancel(): void;
}

/** Start the child for the Allure CLI's package directory (where its package.json is); null when it cannot start. */
export function startAllureGenerator(allurePackageDir: string, env: NodeJS.ProcessEnv = process.env): AllureGenerator | null {
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [CHILD, join(allurePackageDir, 'package.json')], {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1' },
    });
  } catch {
    return null;
  }
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // Until a report is asked for, the child does not keep this process alive.
  child.unref();
  unrefStream(child.stdin);
  unrefStream(child.stderr);
  child.stdin?.on('error', () => {
    /* the child is gone: its exit says why */
  });
  let used = false;

  return {
    async generate(what, timeoutMs) {
      if (used) throw new Error('the Allure generator was already used');
      used = true;
      child.ref();
      refStream(child.stdin);
      refStream(child.stderr);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        child.stdin?.end(`${JSON.stringify(what)}\n`);
        const { code, signal, error } = await exited;
        if (error) throw error;
        if (code !== 0) {
          const why = signal === 'SIGKILL' ? `timed out after ${timeoutMs} ms` : `exited ${code ?? signal}`;
          throw new Error(`allure generate ${why}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`);
        }
      } finally {
        clearTimeout(timer);
      }
    },
    cancel() {
      if (used) return;
      used = true;
      child.stdin?.end();
    },
  };
}

function unrefStream(stream: unknown): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}

function refStream(stream: unknown): void {
  (stream as { ref?: () => void } | null)?.ref?.();
}
