/**
 * Heap figures that mean something: taken after a full garbage collection.
 * `npm run bench` runs without --expose-gc, so the collector is reached through
 * V8's flag at run time when it is not exposed; when neither works the figures
 * are reported as taken, with a note (they then include garbage).
 */
import { setImmediate as tick } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type GcMode = 'exposed' | 'v8-flag' | 'none';

export interface Gc {
  mode: GcMode;
  /** Collects (twice, a tick apart, so finalizers run); does nothing in mode none. */
  collect(): Promise<void>;
}

function locateGc(): { mode: GcMode; fn: (() => void) | null } {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return { mode: 'exposed', fn: exposed as () => void };
  try {
    setFlagsFromString('--expose-gc');
    const fn: unknown = runInNewContext('gc');
    if (typeof fn === 'function') return { mode: 'v8-flag', fn: fn as () => void };
  } catch {
    // fall through: no collector available
  }
  return { mode: 'none', fn: null };
}

export function obtainGc(): Gc {
  const { mode, fn } = locateGc();
  return {
    mode,
    async collect() {
      if (!fn) return;
      fn();
      await tick();
      fn();
    },
  };
}

export interface MemorySnapshot {
  rssMiB: number;
  heapUsedMiB: number;
}

const MIB = 1024 * 1024;

export async function snapshot(gc: Gc): Promise<MemorySnapshot> {
  await gc.collect();
  const m = process.memoryUsage();
  return { rssMiB: m.rss / MIB, heapUsedMiB: m.heapUsed / MIB };
}
