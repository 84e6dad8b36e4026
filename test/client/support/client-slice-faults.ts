/**
 * The example application's generated faults: one per declared slice of every
 * CLIENT- requirement (harness/catalog/slices/client.ts), `ID@dim=value`, each
 * switching on the example client's break point of that requirement
 * (examples/app/client-faults.ts CLIENT_SLICE_BREAKS) on that slice only.
 */
import { CLIENT_CATALOG } from '../../../harness/catalog/index.js';
import { slicesOf } from '../../../harness/catalog/slices/index.js';
import { CLIENT_SLICE_BREAKS, isClientFault } from '../../../examples/app/client-faults.js';

export interface ClientSliceFault {
  name: string;
  requirement: string;
  dim: string;
  value: string;
}

export function clientSliceFaults(): ClientSliceFault[] {
  return CLIENT_CATALOG.filter((r) => r.level !== 'INFO').flatMap((r) => slicesOf(r.id)
    .filter((s) => isClientFault(`${r.id}@${s.dim}=${s.value}`))
    .map((s) => ({ name: `${r.id}@${s.dim}=${s.value}`, requirement: r.id, dim: s.dim, value: s.value })));
}

/** Declared client slices without a break point in the example application, and break points over undeclared dimensions. */
export function clientSliceTraceabilityProblems(): string[] {
  const problems: string[] = [];
  for (const r of CLIENT_CATALOG) {
    for (const s of slicesOf(r.id)) if (!isClientFault(`${r.id}@${s.dim}=${s.value}`)) problems.push(`${r.id}@${s.dim}=${s.value}: no break point in examples/app/client-faults.ts`);
  }
  for (const [id, point] of Object.entries(CLIENT_SLICE_BREAKS)) {
    for (const dim of point.dims) if (!slicesOf(id).some((s) => s.dim === dim)) problems.push(`examples/app/client-faults.ts: ${id} breaks over ${dim}, which the catalog does not declare for it`);
  }
  return problems;
}

/**
 * The generated faults npm test runs: every one with LOCKCONF_CLIENT_FAULTS=all, else a
 * deterministic sample: per requirement and dimension, its last value (every requirement
 * and every dimension of it is broken at least once).
 */
export function clientFaultsToRun(all: readonly ClientSliceFault[] = clientSliceFaults(), env: NodeJS.ProcessEnv = process.env): ClientSliceFault[] {
  if (env.LOCKCONF_CLIENT_FAULTS === 'all') return [...all];
  const last = new Map<string, ClientSliceFault>();
  for (const f of all) last.set(`${f.requirement}@${f.dim}`, f);
  return all.filter((f) => last.get(`${f.requirement}@${f.dim}`) === f);
}
