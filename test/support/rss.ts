/**
 * The peak resident memory of a process and all its descendants (a CLI run
 * forks vitest workers), sampled from /proc while it runs. Linux only:
 * `available` is false elsewhere and the peak stays 0.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export const available = existsSync('/proc/self/status');

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number | null {
  try {
    // The command name (field 2) may hold spaces: the parent is the 2nd field after its closing ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The pid and its descendants' summed RSS, now. */
export function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const parent = parentOf(pid);
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop()!;
    total += rssBytes(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples the tree every `everyMs` until stop(); stop() gives the peak seen, in bytes. */
export function watchPeakRss(root: number, everyMs = 100): { stop(): number } {
  let peak = 0;
  const sample = () => {
    if (available) peak = Math.max(peak, treeRss(root));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
