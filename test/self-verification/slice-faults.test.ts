/**
 * The generated faults (issue 19) are derived from the slice catalog and every
 * declared slice can be broken: the traceability rule of slice-faults.ts.
 */
import { describe, expect, test } from 'vitest';
import { requirement } from '../../harness/catalog/index.js';
import { DIMENSIONS, slicedRequirements, slicesOf } from '../../harness/catalog/slices/index.js';
import { FaultSet } from '../../mock/faults.js';
import { generatedFaults, sampleFaults, selectGenerated, sliceTraceabilityProblems } from './slice-faults.js';
import { planMatrix } from './matrix.js';
import { shardEntries } from './matrix-session.js';

describe('generated slice faults', () => {
  test('every declared slice of a MUST or SHOULD requirement has a break point in the mock, or a reason why none can exist', () => {
    expect(sliceTraceabilityProblems()).toEqual([]);
  });

  test('one fault per declared (dimension, value), each a fault the mock accepts', () => {
    const all = generatedFaults();
    expect(all.length).toBeGreaterThan(0);
    expect(new Set(all.map((f) => f.name)).size).toBe(all.length);
    for (const f of all) {
      expect(slicesOf(f.requirement)).toContainEqual({ dim: f.dim, value: f.value });
      expect(requirement(f.requirement).level).not.toBe('INFO');
      expect(() => new FaultSet([f.name]), f.name).not.toThrow();
    }
    for (const dim of DIMENSIONS.values()) expect(dim.values.every((v) => !v.includes(',') && !v.includes('@')), dim.id).toBe(true);
  });

  test('a slice fault breaks only its slice (FaultSet.breaks)', () => {
    const faults = new FaultSet(['TOKEN-BASIC-IGNORED@grant=refresh_token']);
    expect(faults.breaks('TOKEN-BASIC-IGNORED', { grant: 'refresh_token' })).toBe(true);
    expect(faults.breaks('TOKEN-BASIC-IGNORED', { grant: ['authorization_code', 'refresh_token'] })).toBe(true);
    expect(faults.breaks('TOKEN-BASIC-IGNORED', { grant: 'authorization_code' })).toBe(false);
    expect(faults.breaks('TOKEN-BASIC-IGNORED', { grant: undefined })).toBe(false);
    expect(new FaultSet([]).breaks('TOKEN-BASIC-IGNORED', { grant: 'refresh_token' })).toBe(false);
    expect(faults.list()).toEqual(['TOKEN-BASIC-IGNORED@grant=refresh_token']);
    expect(() => new FaultSet(['TOKEN-BASIC-IGNORED@endpoint=GET /users/me'])).toThrow(/breaks only over grant/);
    expect(() => new FaultSet(['NO-SUCH-RULE@grant=refresh_token'])).toThrow(/no slice break point/);
  });

  test('the sample of npm test covers every requirement with generated faults, one fault each', () => {
    const all = generatedFaults();
    const sample = sampleFaults(all);
    expect(new Set(sample.map((f) => f.requirement))).toEqual(new Set(all.map((f) => f.requirement)));
    expect(sample.length).toBe(new Set(all.map((f) => f.requirement)).size);
    for (const id of slicedRequirements()) {
      const mine = sample.find((f) => f.requirement === id);
      if (mine) expect(mine.dim).toBe(slicesOf(id)[0]!.dim);
    }
  });

  test('selections and shards', () => {
    expect(selectGenerated('TOKEN-BASIC-IGNORED').map((f) => f.name)).toEqual(generatedFaults().filter((f) => f.requirement === 'TOKEN-BASIC-IGNORED').map((f) => f.name));
    expect(selectGenerated('TOKEN-BASIC-IGNORED@grant=refresh_token').map((f) => f.name)).toEqual(['TOKEN-BASIC-IGNORED@grant=refresh_token']);
    const plan = planMatrix({ scope: 'area', generated: generatedFaults() });
    const parts = [1, 2, 3].map((i) => shardEntries(plan, i, 3));
    expect(parts.flat().map((e) => e.name).sort()).toEqual(plan.map((e) => e.name).sort());
    expect(parts[1]!.some((e) => e.kind === 'conforming')).toBe(false);
    expect(() => shardEntries(plan, 4, 3)).toThrow(/--shard/);
    // Many shards: every part holds faults, the sizes differ by one at most.
    const faults = (part: typeof plan) => part.filter((e) => e.kind !== 'conforming' && e.kind !== 'variant').length;
    const sizes = Array.from({ length: 40 }, (_, i) => faults(shardEntries(plan, i + 1, 40)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(faults(plan));
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });
});
