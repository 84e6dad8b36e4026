/**
 * Child processes the bench starts, each in its own process group so that a
 * timeout or an interrupt ends it and everything it started (vitest workers,
 * the embedded mock) by its id, and nothing else.
 */
import { spawn } from 'node:child_process';

export interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The last few KiB of stdout and stderr, for a diagnosis (masked before printing). */
  tail: string;
}

const running = new Set<number>();
const TAIL_BYTES = 4096;
const GRACE_MS = 5_000;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Ends every child still running (on SIGINT/SIGTERM of the bench). */
export function killRunningChildren(): void {
  for (const pid of running) killGroup(pid, 'SIGKILL');
  running.clear();
}

export function runChild(command: string, args: string[], opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    let hardKill: NodeJS.Timeout | null = null;
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    const timer = setTimeout(() => {
      if (pid === undefined) return;
      timedOut = true;
      killGroup(pid, 'SIGTERM');
      hardKill = setTimeout(() => killGroup(pid, 'SIGKILL'), GRACE_MS);
    }, opts.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      if (pid !== undefined) running.delete(pid);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (hardKill) clearTimeout(hardKill);
      if (pid !== undefined) {
        // Whatever the CLI left behind in its group goes too.
        killGroup(pid, 'SIGKILL');
        running.delete(pid);
      }
      resolve({ code, signal, timedOut, tail });
    });
  });
}
