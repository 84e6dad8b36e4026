/**
 * The example receiver's generated faults: derived from the receiver catalog's
 * declared slices (harness/catalog/slices/receiver.ts), never written one by one.
 * For every MUST or SHOULD receiver requirement with slices and every declared
 * (dimension, value) its break point covers (examples/app/receiver-slice-faults.ts),
 * the fault `ID@dim=value`, expected caught by ID. The traceability rule: every
 * declared slice of such a requirement has a break point, or a noFault reason.
 */
import { RECEIVER_CATALOG } from '../../harness/catalog/index.js';
import { noFaultReason } from '../../harness/catalog/slices/index.js';
import { RECEIVER_SLICE_BREAKS, ROW_REQUIREMENT } from '../../examples/app/receiver-slice-faults.js';
import { faultsFromDeclarations, lastOfFirstDimension, sliceTraceabilityProblemsOf, type FaultSource, type SliceFault } from '../support/slice-faults.js';

export interface ReceiverGeneratedFault extends SliceFault {
  name: `RECEIVER-${string}@${string}=${string}`;
}

/** The example receiver's side: its judged requirements and break points. */
const receiverSource = (): FaultSource => ({
  requirements: RECEIVER_CATALOG.filter((r) => r.level !== 'INFO' && !r.untestable),
  breaks: RECEIVER_SLICE_BREAKS,
  excuse: noFaultReason,
  where: 'examples/app/receiver-slice-faults.ts',
});

/** Every generated fault, in catalog order, then dimension and value order. */
export function receiverGeneratedFaults(): ReceiverGeneratedFault[] {
  return faultsFromDeclarations(receiverSource(), (f) => f as ReceiverGeneratedFault);
}

/** One fault per requirement, the last value of its first dimension (the service matrix spreads its sample over the values; here each pack holds one fault per dimension, so a spread would run no fewer packs). */
export function receiverSampleFaults(all = receiverGeneratedFaults()): ReceiverGeneratedFault[] {
  return lastOfFirstDimension(all);
}

/** Declared slices of judged receiver requirements without a break point or a noFault reason; break points over undeclared dimensions. */
export function receiverSliceTraceabilityProblems(): string[] {
  return sliceTraceabilityProblemsOf(receiverSource());
}

/**
 * The runs of generated faults the receiver matrix makes, as LOCKCONF_RECEIVER_MATRIX_SLICES says:
 * `all`, every fault alone; `none`, no run; else (npm test) the sample, packed.
 */
export function receiverFaultRuns(mode = process.env.LOCKCONF_RECEIVER_MATRIX_SLICES): ReceiverGeneratedFault[][] {
  if (mode === 'none') return [];
  return mode === 'all' ? receiverGeneratedFaults().map((f) => [f]) : packGenerated(receiverSampleFaults());
}

const ROW_SCOPED = new Set(Object.values(ROW_REQUIREMENT));

/**
 * npm test's sample in packs (fewer runs): one fault per dimension in a pack, save the event rows' faults, whose break points
 * touch only the deliveries of their own row; each fault is then judged by its own
 * slice failing. LOCKCONF_RECEIVER_MATRIX_SLICES=all runs every fault alone.
 */
export function packGenerated(faults: readonly ReceiverGeneratedFault[]): ReceiverGeneratedFault[][] {
  const packs: Array<{ keys: Set<string>; faults: ReceiverGeneratedFault[] }> = [];
  for (const f of faults) {
    const key = ROW_SCOPED.has(f.requirement) ? `${f.dim}:${f.requirement}` : f.dim;
    let pack = packs.find((p) => !p.keys.has(key));
    if (!pack) packs.push((pack = { keys: new Set(), faults: [] }));
    pack.keys.add(key);
    pack.faults.push(f);
  }
  return packs.map((p) => p.faults);
}
