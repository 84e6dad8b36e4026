/**
 * The example receiver's fault catalog covers the receiver requirements: every
 * MUST and SHOULD requirement is broken by some named fault (so the
 * self-verification proves its tests can fail), and every fault names
 * receiver requirements that exist.
 */
import { describe, expect, it } from 'vitest';
import { RECEIVER_CATALOG, isRequirementId } from '../../harness/catalog/index.js';
import { RECEIVER_FAULTS } from '../../examples/app/receiver-faults.js';

const broken: string[] = Object.values(RECEIVER_FAULTS).flatMap((f) => [f.requirement, ...f.also]);

describe('the example receiver faults', () => {
  it('break every MUST and SHOULD receiver requirement', () => {
    const unbroken = RECEIVER_CATALOG.filter((r) => r.level !== 'INFO' && !broken.includes(r.id) && !r.noFault).map((r) => r.id);
    expect(unbroken).toEqual([]);
  });

  it('name receiver requirements of the catalog, never an INFO one', () => {
    expect(broken.filter((id) => !isRequirementId(id) || !id.startsWith('RECEIVER-'))).toEqual([]);
    expect(broken.filter((id) => RECEIVER_CATALOG.find((r) => r.id === id)?.level === 'INFO')).toEqual([]);
  });
});
