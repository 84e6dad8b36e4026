/**
 * npm test's kill matrix runs a deterministic sample (sample.ts): it must still judge
 * every requirement that has a fault, catalogued or generated, with every legal variant
 * and every full-run scope check of the whole matrix; the rest runs in `npm run matrix`.
 */
import { describe, expect, test } from 'vitest';
import { FAULTS, FAULT_NAMES } from '../../mock/faults.js';
import { planMatrix, type MatrixEntry } from './matrix.js';
import { cataloguedSample } from './sample.js';
import { generatedFaults, sampleFaults } from './slice-faults.js';
import { spreadOverFirstDimension } from '../support/slice-faults.js';

const faultsOf = (plan: MatrixEntry[]) => plan.filter((e) => e.kind === 'fault');
const requirementsOf = (plan: MatrixEntry[]) => new Set(faultsOf(plan).map((e) => e.requirement));
const rest = (plan: MatrixEntry[]) => plan.filter((e) => e.kind !== 'fault');

describe("npm test's sample of the matrix", () => {
  // As kill-matrix.test.ts plans it (matrix-session.ts), and as `npm run matrix -- --all` does.
  const npmTest = planMatrix({ scope: 'area', generated: sampleFaults(), variants: 'touched', catalogued: 'sample' });
  const all = planMatrix({ scope: 'area', generated: generatedFaults(), variants: 'touched' });

  test('judges every requirement that has any fault, catalogued or generated, by one fault each', () => {
    expect(requirementsOf(npmTest)).toEqual(requirementsOf(all));
    expect(requirementsOf(npmTest)).toEqual(new Set([...FAULT_NAMES.map((n) => FAULTS[n].requirement), ...generatedFaults().map((g) => g.requirement)]));
    expect(faultsOf(npmTest)).toHaveLength(requirementsOf(all).size);
  });

  test('each requirement with generated faults by the generated sample, every other by its first catalogued fault', () => {
    const generated = new Map(sampleFaults().map((g) => [g.requirement, g.name]));
    const firstCatalogued = new Map<string, string>();
    for (const name of FAULT_NAMES) if (!firstCatalogued.has(FAULTS[name].requirement)) firstCatalogued.set(FAULTS[name].requirement, name);
    for (const e of faultsOf(npmTest)) expect(e.name, e.requirement).toBe(generated.get(e.requirement!) ?? firstCatalogued.get(e.requirement!));
  });

  test('every legal variant (packed) and every full-run scope check as in the whole matrix; the plain mock is full-run.test.ts\'s', () => {
    // full-run.test.ts judges the plain mock on every suite at the harness's own strictness (exit 0, nothing failed or warned).
    // The legal variants, hand-written and generated from the freedoms, run packed here (freedoms.test.ts), each alone in the whole matrix.
    const variant = (e: MatrixEntry) => e.kind === 'variant';
    expect(rest(npmTest).filter((e) => !variant(e))).toEqual(rest(all).filter((e) => e.kind !== 'conforming' && !variant(e)));
    expect(rest(npmTest).filter(variant).map((e) => e.name)).toEqual(['variants-packed-1', 'variants-packed-2']);
    expect(rest(all).filter((e) => e.kind === 'conforming')).toHaveLength(1);
    expect(rest(npmTest).some((e) => e.mockOptions.jitter)).toBe(true);
    expect(rest(npmTest).filter((e) => e.kind === 'scope-check').length).toBeGreaterThanOrEqual(8);
  });

  test('without generated faults, every requirement by its first catalogued fault; every catalogued fault by default', () => {
    const catalogued = new Set(FAULT_NAMES.map((n) => FAULTS[n].requirement));
    expect(new Set(cataloguedSample(FAULT_NAMES, []).map((n) => FAULTS[n].requirement))).toEqual(catalogued);
    expect(cataloguedSample(FAULT_NAMES, [])).toHaveLength(catalogued.size);
    expect(faultsOf(planMatrix({ scope: 'area' })).map((e) => e.name)).toEqual(FAULT_NAMES);
  });

  test('the generated sample spreads over the values: the requirements sharing a dimension take them in turn, the first the last value', () => {
    const f = (requirement: string, dim: string, value: string) => ({ name: `${requirement}@${dim}=${value}`, requirement, dim, value });
    const all = [
      f('A', 'endpoint', 'one'), f('A', 'endpoint', 'two'), f('A', 'endpoint', 'three'), f('A', 'grant', 'x'),
      f('B', 'endpoint', 'one'), f('B', 'endpoint', 'two'), f('B', 'endpoint', 'three'),
      f('C', 'grant', 'x'), f('C', 'grant', 'y'), f('C', 'endpoint', 'one'),
      f('D', 'endpoint', 'one'), f('D', 'endpoint', 'two'),
    ];
    expect(spreadOverFirstDimension(all).map((g) => g.name)).toEqual(['A@endpoint=three', 'B@endpoint=two', 'C@grant=y', 'D@endpoint=two']);
    // In npm test's sample: one fault per requirement, and the header rules break more than one endpoint.
    const sample = sampleFaults();
    expect(new Set(sample.map((g) => g.requirement)).size).toBe(sample.length);
    expect(new Set(sample.filter((g) => g.requirement.startsWith('HEADERS-') && g.dim === 'endpoint').map((g) => g.value)).size).toBeGreaterThan(5);
  });
});
