/**
 * The deterministic sample of the matrix that npm test runs (the issue: "npm test may
 * run a deterministic sample that covers every requirement"): one fault for every
 * requirement that has any. A requirement with a generated fault in the session
 * (slice-faults.ts sampleFaults: a value of its first dimension, spread among the requirements that share it) is judged by
 * that one; every other requirement by its first catalogued fault (mock/faults.ts
 * order). The legal variants and the full-run scope checks are those of the whole
 * matrix (planMatrix plans them from every catalogued fault); the plain mock is judged
 * by test/harness/report/full-run.test.ts.
 *
 * `npm run matrix` runs every catalogued fault besides the generated sample, and
 * `npm run matrix -- --all` every fault; both exit non-zero on any miss.
 */
import { FAULTS, type FaultName } from '../../mock/faults.js';

/** The catalogued faults of the sample: the first of each requirement that no generated fault of `generated` names, in `faults` order. */
export function cataloguedSample(faults: readonly FaultName[], generated: ReadonlyArray<{ requirement: string }>): FaultName[] {
  const covered = new Set(generated.map((g) => g.requirement));
  return faults.filter((name) => {
    const id = FAULTS[name].requirement;
    if (covered.has(id)) return false;
    covered.add(id);
    return true;
  });
}
