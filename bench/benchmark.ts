/** The shape of one benchmark and what the runner hands it. */
import type { Gc } from './memory.js';
import type { Metric } from './result.js';

export interface BenchContext {
  /** --quick: smaller loops, same goals where they still mean something. */
  quick: boolean;
  gc: Gc;
  /** Progress lines (stderr); never a secret. */
  log(line: string): void;
  /** The loop count for this mode. */
  size(full: number, quick: number): number;
}

export interface Benchmark {
  /** What --only takes. */
  name: string;
  /** One line: what is measured and how. */
  title: string;
  run(ctx: BenchContext): Promise<Metric[]>;
}
