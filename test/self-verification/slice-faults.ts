/**
 * Generated faults (issue 19): derived from the slice catalog, never written one
 * by one. For every MUST or SHOULD requirement with declared slices
 * (harness/catalog/slices) and every declared (dimension, value), the fault
 * `ID@dim=value` switches on the mock's break point of that requirement
 * (mock/slice-faults.ts) on that slice only; the matrix expects that requirement
 * to fail (MUST) or warn (SHOULD).
 *
 * The traceability rule: every such slice has a break point (SLICE_BREAKS lists
 * its requirement and dimension) or a `noFault` reason in its declarations file.
 */
import { SERVICE_CATALOG, requirement } from '../../harness/catalog/index.js';
import { DIMENSIONS, noFaultReason, slicedRequirements } from '../../harness/catalog/slices/index.js';
import { SLICE_BREAKS, type SliceBreak } from '../../mock/slice-faults.js';
import { faultsFromDeclarations, spreadOverFirstDimension, sliceTraceabilityProblemsOf, type FaultSource, type SliceFault } from '../support/slice-faults.js';

export interface GeneratedFault extends SliceFault {
  description: string;
}

const BREAKS = SLICE_BREAKS as Record<string, SliceBreak>;

/** The mock's side: the judged service requirements with slices (the receiver's and the client's are broken by the example app). */
function mockSource(): FaultSource {
  const sliced = new Set(slicedRequirements());
  return {
    requirements: SERVICE_CATALOG.filter((r) => sliced.has(r.id) && r.level !== 'INFO' && !r.untestable),
    breaks: BREAKS,
    excuse: noFaultReason,
    where: 'mock/slice-faults.ts',
  };
}

/** Every generated fault, in catalog order, then dimension and value order. */
export function generatedFaults(): GeneratedFault[] {
  return faultsFromDeclarations(mockSource(), (f) => ({ ...f, description: `${BREAKS[f.requirement]!.description} Slice: ${f.dim}=${f.value}.` }));
}

/**
 * The deterministic sample npm test runs: one generated fault per requirement, a value
 * of its first dimension, spread over the values among the requirements that share the
 * dimension, from the last (spreadOverFirstDimension).
 */
export function sampleFaults(all: readonly GeneratedFault[] = generatedFaults()): GeneratedFault[] {
  return spreadOverFirstDimension(all);
}

/** Declared slices of MUST/SHOULD requirements with neither a break point nor a noFault reason; break points that name no declared dimension. */
export function sliceTraceabilityProblems(): string[] {
  return sliceTraceabilityProblemsOf(mockSource(), { knownDimension: (dim) => DIMENSIONS.has(dim) });
}

/**
 * The generated faults a LOCKCONF_MATRIX_FAULTS item selects: a fault name, a
 * requirement ID (all its slices), `ID@dim`, or a spec area (as in selectFaults).
 */
export function selectGenerated(spec: string | undefined, all: readonly GeneratedFault[] = generatedFaults()): GeneratedFault[] {
  const items = (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return all.filter((f) => items.some((item) => item === f.name || item === f.requirement || item === `${f.requirement}@${f.dim}`
    || key(requirement(f.requirement).area) === key(item)));
}
