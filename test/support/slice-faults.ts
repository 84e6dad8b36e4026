/**
 * Faults from declarations (issue 19): the one generic derivation the three
 * self-verifications share (the mock's: test/self-verification/slice-faults.ts;
 * the example receiver's: test/receiver/receiver-slice-faults.ts; the example
 * application's: test/client/support/client-slice-faults.ts). For every declared
 * slice (harness/catalog/slices) of the requirements judged, that a break point
 * covers and that no `noFault` reason excuses, the fault `ID@dim=value`, expected
 * caught by ID; and the traceability rule: every declared slice has a break point
 * (or a reason), and every break point names a dimension declared for its requirement.
 */
import type { Requirement } from '../../harness/catalog/requirement.js';
import { slicesOf } from '../../harness/catalog/slices/index.js';

/** One generated fault: `ID@dim=value`, caught by ID. */
export interface SliceFault {
  name: string;
  requirement: string;
  dim: string;
  value: string;
}

/** Where a side's faults come from: its judged requirements and its break points. */
export interface FaultSource {
  /** The requirements whose slices give faults, in catalog order. */
  requirements: readonly Pick<Requirement, 'id'>[];
  /** One break point per requirement: the dimensions it breaks over. */
  breaks: Readonly<Record<string, { readonly dims: readonly string[] } | undefined>>;
  /** Does a break point cover the slice? Default: the requirement's break point lists the dimension. */
  covers?: (id: string, dim: string, value: string) => boolean;
  /** The slice's noFault reason (harness/catalog/slices), or null; default: none is excused. */
  excuse?: (id: string, dim: string, value: string) => string | null;
  /** The file of the break points, named in the traceability messages. */
  where: string;
}

function coversOf(src: FaultSource): (id: string, dim: string, value: string) => boolean {
  return src.covers ?? ((id, dim) => src.breaks[id]?.dims.includes(dim) ?? false);
}

/** Every generated fault, in the requirements' order, then dimension and value order; `extra` adds fields to each. */
export function faultsFromDeclarations<T extends SliceFault = SliceFault>(src: FaultSource, extra: (f: SliceFault) => T = (f) => f as T): T[] {
  const covers = coversOf(src);
  const excuse = src.excuse ?? (() => null);
  return src.requirements.flatMap((r) => slicesOf(r.id)
    .filter((s) => excuse(r.id, s.dim, s.value) === null && covers(r.id, s.dim, s.value))
    .map((s) => extra({ name: `${r.id}@${s.dim}=${s.value}`, requirement: r.id, dim: s.dim, value: s.value })));
}

/** The declared slices of `src.requirements` that no break point covers and no reason excuses; break points over dimensions not declared for their requirement. */
export function sliceTraceabilityProblemsOf(src: FaultSource, opts: { knownDimension?: (dim: string) => boolean } = {}): string[] {
  const covers = coversOf(src);
  const excuse = src.excuse ?? (() => null);
  const problems: string[] = [];
  for (const r of src.requirements) {
    for (const s of slicesOf(r.id)) {
      if (excuse(r.id, s.dim, s.value) !== null || covers(r.id, s.dim, s.value)) continue;
      problems.push(`${r.id}@${s.dim}=${s.value}: no break point in ${src.where}${src.excuse ? ' and no noFault reason' : ''}`);
    }
  }
  for (const [id, point] of Object.entries(src.breaks)) {
    for (const dim of point?.dims ?? []) {
      if (opts.knownDimension && !opts.knownDimension(dim)) problems.push(`${src.where}: ${id} breaks over ${dim}, a dimension harness/catalog/slices does not know`);
      else if (!slicesOf(id).some((s) => s.dim === dim)) problems.push(`${src.where}: ${id} breaks over ${dim}, but the catalog declares no ${dim} slice for it`);
    }
  }
  return problems;
}

/** Per key, the faults of the key's first dimension, in order (the dimension its first fault names). */
function firstDimensionFaults<T extends SliceFault>(all: readonly T[], key: (f: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const f of all) {
    const own = groups.get(key(f));
    if (!own) groups.set(key(f), [f]);
    else if (own[0]!.dim === f.dim) own.push(f);
  }
  return groups;
}

/**
 * A deterministic sample: per key, the last fault of the key's first dimension (key: the
 * requirement, as the receiver matrix samples; or requirement and dimension, as the
 * client's). The first value is the one the suites checked before slices; the last is
 * the one most easily left out.
 */
export function lastOfFirstDimension<T extends SliceFault>(all: readonly T[], key: (f: T) => string = (f) => f.requirement): T[] {
  const chosen = new Set([...firstDimensionFaults(all, key).values()].map((faults) => faults.at(-1)!));
  return all.filter((f) => chosen.has(f));
}

/**
 * A deterministic sample spread over the values: per requirement, one fault of its first
 * dimension. The requirements that share that dimension take its values in turn from the
 * last: the first of them the last value (the one most easily left out), the second the one
 * before, and so on round (GET /users/me for one header rule, the status check for another).
 * More slices are then broken end to end, and faults on different values of one dimension
 * (a different endpoint, row or grant) share a run with less to spill onto each other.
 */
export function spreadOverFirstDimension<T extends SliceFault>(all: readonly T[]): T[] {
  const turn = new Map<string, number>(); // dimension → how many requirements took a value of it
  const chosen = new Set<T>();
  for (const faults of firstDimensionFaults(all, (f) => f.requirement).values()) {
    const k = turn.get(faults[0]!.dim) ?? 0;
    turn.set(faults[0]!.dim, k + 1);
    chosen.add(faults[faults.length - 1 - (k % faults.length)]!);
  }
  return all.filter((f) => chosen.has(f));
}
