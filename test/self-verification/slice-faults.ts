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
import { CATALOG, SERVICE_CATALOG, requirement } from '../../harness/catalog/index.js';
import { DIMENSIONS, noFaultReason, slicedRequirements, slicesOf } from '../../harness/catalog/slices/index.js';
import { SLICE_BREAKS, type SliceBreak } from '../../mock/slice-faults.js';

export interface GeneratedFault {
  /** `ID@dim=value`: the mock's fault name. */
  name: string;
  requirement: string;
  dim: string;
  value: string;
  description: string;
}

const BREAKS = SLICE_BREAKS as Record<string, SliceBreak>;
const SERVICE_IDS = new Set(SERVICE_CATALOG.map((r) => r.id));

/** Every generated fault, in catalog order, then dimension and value order. */
export function generatedFaults(): GeneratedFault[] {
  const sliced = new Set(slicedRequirements());
  return CATALOG.filter((r) => sliced.has(r.id) && r.level !== 'INFO' && !r.untestable).flatMap((r) => slicesOf(r.id)
    .filter((s) => noFaultReason(r.id, s.dim, s.value) === null && BREAKS[r.id]?.dims.includes(s.dim))
    .map((s): GeneratedFault => ({
      name: `${r.id}@${s.dim}=${s.value}`,
      requirement: r.id,
      dim: s.dim,
      value: s.value,
      description: `${BREAKS[r.id]!.description} Slice: ${s.dim}=${s.value}.`,
    })));
}

/**
 * The deterministic sample npm test runs: one generated fault per requirement,
 * the last value of its first dimension (the first value is the one the suites
 * checked before slices; the last is the one most easily left out).
 */
export function sampleFaults(all: readonly GeneratedFault[] = generatedFaults()): GeneratedFault[] {
  const firstDim = new Map<string, string>();
  const last = new Map<string, GeneratedFault>();
  for (const f of all) {
    if (!firstDim.has(f.requirement)) firstDim.set(f.requirement, f.dim);
    if (firstDim.get(f.requirement) === f.dim) last.set(f.requirement, f);
  }
  return all.filter((f) => last.get(f.requirement) === f);
}

/** Declared slices of MUST/SHOULD requirements with neither a break point nor a noFault reason; break points that name no declared dimension. */
export function sliceTraceabilityProblems(): string[] {
  const problems: string[] = [];
  for (const id of slicedRequirements()) {
    const req = requirement(id);
    // The receiver's slices are broken by the example receiver (test/receiver/receiver-slice-faults.ts), not the mock.
    if (req.level === 'INFO' || req.untestable || !SERVICE_IDS.has(id)) continue;
    for (const s of slicesOf(id)) {
      if (noFaultReason(id, s.dim, s.value) !== null) continue;
      if (!BREAKS[id]?.dims.includes(s.dim)) problems.push(`${id}@${s.dim}=${s.value}: no break point in mock/slice-faults.ts and no noFault reason`);
    }
  }
  for (const [id, point] of Object.entries(BREAKS)) {
    for (const dim of point.dims) {
      if (!DIMENSIONS.has(dim)) problems.push(`mock/slice-faults.ts: ${id} breaks over ${dim}, a dimension harness/catalog/slices does not know`);
      else if (!slicesOf(id).some((s) => s.dim === dim)) problems.push(`mock/slice-faults.ts: ${id} breaks over ${dim}, but the catalog declares no ${dim} slice for it`);
    }
  }
  return problems;
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
