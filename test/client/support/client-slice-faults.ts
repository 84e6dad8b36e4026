/**
 * The example application's generated faults: one per declared slice of every
 * CLIENT- requirement (harness/catalog/slices/client.ts), `ID@dim=value`, each
 * switching on the example client's break point of that requirement
 * (examples/app/client-faults.ts CLIENT_SLICE_BREAKS) on that slice only.
 */
import { CLIENT_CATALOG } from '../../../harness/catalog/index.js';
import { CLIENT_SLICE_BREAKS, isClientFault } from '../../../examples/app/client-faults.js';
import { faultsFromDeclarations, lastOfFirstDimension, sliceTraceabilityProblemsOf, type FaultSource, type SliceFault } from '../../support/slice-faults.js';

export type ClientSliceFault = SliceFault;

/** The example application's side: every client slice is its fault (none has a noFault reason here: those are the mock's). */
const clientSource = (requirements: FaultSource['requirements'] = CLIENT_CATALOG.filter((r) => r.level !== 'INFO')): FaultSource => ({
  requirements,
  breaks: CLIENT_SLICE_BREAKS,
  covers: (id, dim, value) => isClientFault(`${id}@${dim}=${value}`),
  where: 'examples/app/client-faults.ts',
});

export function clientSliceFaults(): ClientSliceFault[] {
  return faultsFromDeclarations(clientSource());
}

/** Declared client slices without a break point in the example application, and break points over undeclared dimensions. */
export function clientSliceTraceabilityProblems(): string[] {
  return sliceTraceabilityProblemsOf(clientSource(CLIENT_CATALOG));
}

/**
 * The generated faults npm test runs: every one with LOCKCONF_CLIENT_FAULTS=all, else a
 * deterministic sample: per requirement and dimension, its last value (every requirement
 * and every dimension of it is broken at least once).
 */
export function clientFaultsToRun(all: readonly ClientSliceFault[] = clientSliceFaults(), env: NodeJS.ProcessEnv = process.env): ClientSliceFault[] {
  if (env.LOCKCONF_CLIENT_FAULTS === 'all') return [...all];
  return lastOfFirstDimension(all, (f) => `${f.requirement}@${f.dim}`);
}
