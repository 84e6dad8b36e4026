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

/** The direct children of `pid` from /proc/<pid>/task/<tid>/children (Linux 3.5+), or null where the kernel has no such file. */
function childrenOf(pid: number): number[] | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone
  }
  const out: number[] = [];
  for (const tid of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (child.trim()) out.push(Number(child));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`/proc/${pid}/task/${tid}`)) return null; // no children file on this kernel
    }
  }
  return out;
}

/** Every process's children, from the parent field of each /proc/<pid>/stat (a scan of all processes). */
function childrenByScan(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const parent = parentOf(pid);
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  return children;
}

/**
 * The pid and its descendants' summed RSS, now. The tree is walked down through each
 * process's children file: a few reads per sample, where a scan of every process on a
 * busy machine (npm test's workers and their runs) cost a few milliseconds each time.
 */
export function treeRss(root: number): number {
  let scanned: Map<number, number[]> | null = null;
  let total = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop()!;
    total += rssBytes(pid);
    const direct = scanned ? null : childrenOf(pid);
    if (direct) queue.push(...direct);
    else queue.push(...((scanned ??= childrenByScan()).get(pid) ?? []));
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
