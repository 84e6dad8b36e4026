/**
 * Side by side: a loop run against the subject and against its reference in
 * alternating rounds, so that a busy machine slows both alike. Each side's rate
 * is taken from its fastest round (as timeit does): on a shared machine the
 * slower rounds are the ones other work interrupted, and that says nothing
 * about either side.
 */
import { performance } from 'node:perf_hooks';
import { runLoad } from './load.js';

export interface SideBySide {
  /** Operations per second in each side's fastest round. */
  subject: number;
  reference: number;
  /** Operations each side completed in all (a failed one throws). */
  count: number;
}

type Side = 'subject' | 'reference';

/** Which side goes first alternates: neither always gets the warmer machine. */
function orderOf(round: number): readonly Side[] {
  return round % 2 === 0 ? ['subject', 'reference'] : ['reference', 'subject'];
}

export async function sideBySide(opts: {
  rounds: number;
  perRound: number;
  concurrency: number;
  subject: (index: number, worker: number) => Promise<void>;
  reference: (index: number, worker: number) => Promise<void>;
}): Promise<SideBySide> {
  const best: Record<Side, number> = { subject: Infinity, reference: Infinity };
  for (let round = 0; round < opts.rounds; round++) {
    for (const side of orderOf(round)) {
      const done = await runLoad({ total: opts.perRound, concurrency: opts.concurrency, op: opts[side] });
      best[side] = Math.min(best[side], done.elapsedMs);
    }
  }
  return { subject: (opts.perRound * 1000) / best.subject, reference: (opts.perRound * 1000) / best.reference, count: opts.rounds * opts.perRound };
}

/** The same for a synchronous call: `perRound` calls timed in one go per round. */
export function sideBySideSync(opts: { rounds: number; perRound: number; subject: () => unknown; reference: () => unknown }): { subject: number; reference: number } {
  const best: Record<Side, number> = { subject: Infinity, reference: Infinity };
  for (let round = 0; round < opts.rounds; round++) {
    for (const side of orderOf(round)) {
      const fn = opts[side];
      const t0 = performance.now();
      for (let i = 0; i < opts.perRound; i++) fn();
      best[side] = Math.min(best[side], performance.now() - t0);
    }
  }
  return { subject: (opts.perRound * 1000) / best.subject, reference: (opts.perRound * 1000) / best.reference };
}
