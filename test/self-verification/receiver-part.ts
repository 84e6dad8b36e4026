/**
 * The receiver side of `npm run matrix -- --all`: the receiver matrix
 * (test/receiver/receiver-matrix.ts) with every generated receiver fault alone, the
 * conforming example receiver, its variant and every named fault; npm test runs the
 * same matrix with its sample of generated faults (receiver-self-verification.test.ts).
 * Under --shard i/n it takes the i-th of n parts (shard.ts), as the service matrix does.
 */
import { planReceiverMatrix, receiverNamedFaults, receiverVariantRuns, runReceiverMatrix, type ReceiverEntry, type ReceiverOutcome } from '../receiver/receiver-matrix.js';
import { receiverFaultRuns } from '../receiver/receiver-slice-faults.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { partOf, type Shard } from './shard.js';

export interface ReceiverPart {
  outcomes: ReceiverOutcome[];
  missed: ReceiverOutcome[];
  /** The figures, one line each, for the matrix's closing summary. */
  lines: string[];
}

/** Figures of the receiver part: generated faults (their requirements), catalogued faults, the conforming entries. */
export function receiverFigures(outcomes: readonly ReceiverOutcome[], wallMs: number): string[] {
  const generated = outcomes.filter((o) => o.entry.catches);
  const catalogued = outcomes.filter((o) => o.entry.kind === 'fault' && !o.entry.catches);
  const conforming = outcomes.filter((o) => o.entry.kind !== 'fault');
  const requirements = new Set(generated.flatMap((o) => o.entry.catches!.map((c) => c.requirement)));
  const caught = (list: readonly ReceiverOutcome[]) => list.filter((o) => o.ok).length;
  return [
    `receiver: generated slice faults: ${generated.length} over ${requirements.size} requirements, ${caught(generated)} caught on their own slice, ${generated.length - caught(generated)} missed`,
    `receiver: catalogued faults: ${catalogued.length}, ${caught(catalogued)} caught; conforming example and its legal variants: ${conforming.length - caught(conforming)} judged wrongly of ${conforming.length}`,
    `receiver: time: ${(wallMs / 1000).toFixed(1)} s wall, ${outcomes.length} runs`,
  ];
}

export async function runReceiverPart(opts: {
  shard?: Shard;
  children?: number;
  onOutcome?: (o: ReceiverOutcome) => void;
}): Promise<ReceiverPart> {
  const entries: ReceiverEntry[] = partOf(planReceiverMatrix(receiverFaultRuns('all'), receiverVariantRuns('all'), receiverNamedFaults([], 'all')), opts.shard);
  const work = await makeTmpDir('matrix-receiver');
  const started = Date.now();
  try {
    const outcomes = await runReceiverMatrix(entries, work, opts.children ?? 2);
    for (const o of outcomes) opts.onOutcome?.(o);
    return { outcomes, missed: outcomes.filter((o) => !o.ok), lines: receiverFigures(outcomes, Date.now() - started) };
  } finally {
    await removeTmpDir(work);
  }
}
