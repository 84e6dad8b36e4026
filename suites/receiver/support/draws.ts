/**
 * The run's seed as the receiver probes draw from it, and the record of what they drew (the
 * observation and the inputs digest a replay must reproduce).
 */
import type { ReceiverContext } from '../../../harness/receiver/conformance.js';
import { INPUTS_LABEL, InputsDigest } from '../../../harness/run/generated-inputs.js';

export function runSeed(t: ReceiverContext): number {
  const seed = t.target.setup.seed;
  return Number.isSafeInteger(seed) ? seed : 0;
}

/** Records what the seed drew (the observation and the digest a replay must reproduce). */
export function recordDraws(t: ReceiverContext, draws: Array<Record<string, unknown>>): void {
  const seed = runSeed(t);
  const inputs = new InputsDigest();
  for (const d of draws) inputs.add(d);
  t.observe('probe draws', { seed, replay: `--seed ${seed}`, draws });
  t.observe(INPUTS_LABEL, inputs.result());
}
