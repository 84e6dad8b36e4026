/**
 * The example receiver's fault catalog covers the receiver requirements: every
 * MUST and SHOULD requirement is broken by some named fault (so the
 * self-verification proves its tests can fail), and every fault names
 * receiver requirements that exist. The generated faults (ID@dim=value) cover
 * every declared slice of the receiver catalog.
 */
import { describe, expect, it } from 'vitest';
import { RECEIVER_CATALOG, isRequirementId } from '../../harness/catalog/index.js';
import { RECEIVER_FAULTS } from '../../examples/app/receiver-faults.js';
import { ROW_REQUIREMENT, ReceiverSliceFaults, enumValuesOf, rowOf } from '../../examples/app/receiver-slice-faults.js';
import { ROW_SAMPLES, withEnumValue } from '../../suites/receiver/support/events.js';
import { declaredValues } from '../../harness/catalog/slices/index.js';
import { receiverGeneratedFaults, receiverSampleFaults, receiverSliceTraceabilityProblems } from './receiver-slice-faults.js';

const generated = receiverGeneratedFaults();
const broken: string[] = [...Object.values(RECEIVER_FAULTS).flatMap((f) => [f.requirement, ...f.also]), ...generated.map((f) => f.requirement)];

describe('the example receiver faults', () => {
  it('break every MUST and SHOULD receiver requirement', () => {
    const unbroken = RECEIVER_CATALOG.filter((r) => r.level !== 'INFO' && !broken.includes(r.id) && !r.noFault).map((r) => r.id);
    expect(unbroken).toEqual([]);
  });

  it('name receiver requirements of the catalog, never an INFO one', () => {
    expect(broken.filter((id) => !isRequirementId(id) || !id.startsWith('RECEIVER-'))).toEqual([]);
    expect(broken.filter((id) => RECEIVER_CATALOG.find((r) => r.id === id)?.level === 'INFO')).toEqual([]);
  });

  it('generate one fault per declared slice: every slice of a MUST or SHOULD requirement has a break point in the example receiver', () => {
    expect(receiverSliceTraceabilityProblems()).toEqual([]);
    expect(generated.length).toBeGreaterThan(0);
    expect(new Set(generated.map((f) => f.name)).size).toBe(generated.length);
    expect(() => new ReceiverSliceFaults(generated.map((f) => f.name))).not.toThrow();
    expect(() => new ReceiverSliceFaults(['RECEIVER-SIGNATURE-FORMS@row=bridge'])).toThrow(/breaks only over signature-form/);
    expect(() => new ReceiverSliceFaults(['RECEIVER-REPLAY@row=bridge'])).toThrow(/no slice break point/);
  });

  it('sample one generated fault per requirement for npm test', () => {
    const sample = receiverSampleFaults(generated);
    expect(sample.map((f) => f.requirement)).toEqual([...new Set(generated.map((f) => f.requirement))]);
  });

  it('break one slice alone: a fault on one value leaves the others', () => {
    const faults = new ReceiverSliceFaults(['RECEIVER-SIGNATURE-ENCODINGS@signature-form=v-base64']);
    expect(faults.breaks('RECEIVER-SIGNATURE-ENCODINGS', { 'signature-form': ['v-base64'] })).toBe(true);
    expect(faults.breaks('RECEIVER-SIGNATURE-ENCODINGS', { 'signature-form': ['plain'] })).toBe(false);
    expect(faults.on('RECEIVER-SIGNATURE-ENCODINGS', 'signature-form')).toEqual(['v-base64']);
    expect(faults.breaks('RECEIVER-REJECTS-STALE-T', { 'signature-form': ['v-base64'] })).toBe(false);
    expect(new ReceiverSliceFaults([]).any).toBe(false);
  });

  it('read each sample\'s row and values off the delivered payload as the suites build them', () => {
    for (const [row, build] of Object.entries(ROW_SAMPLES)) {
      expect(rowOf(build(0)), row).toBe(row);
      const id = ROW_REQUIREMENT[row]!;
      for (const value of declaredValues(id, 'enum-value')) expect(enumValuesOf(withEnumValue(build(0), value)), `${row} ${value}`).toContain(value);
    }
  });
});
