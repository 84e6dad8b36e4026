/**
 * The example application's OAuth client, graded by the mock: correct, it is
 * judged conformant with every rule exercised; each named fault of
 * examples/app/client-faults.ts is caught by the requirement it breaks.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_CATALOG } from '../../harness/catalog/index.js';
import { CLIENT_FAULTS, type ClientFault } from '../../examples/app/client-faults.js';
import { gradeExample } from './support/example.js';

describe('the example OAuth client, graded by the mock', () => {
  it('is conformant: every CLIENT- rule exercised and held, the probes all ran', async () => {
    const { judgements, probes } = await gradeExample();
    expect(probes).toEqual({
      tamperedState: { ran: true, codeFp: expect.any(String) },
      denial: { ran: true },
      api401: { ran: true },
      refreshRefused: { ran: true },
    });
    expect(judgements.map((j) => j.id)).toEqual(CLIENT_CATALOG.map((r) => r.id));
    expect(judgements.filter((j) => j.status !== 'passed').map((j) => `${j.id}: ${j.status}: ${j.reason}`)).toEqual([]);
  });

  const faults = Object.entries(CLIENT_FAULTS) as Array<[ClientFault, (typeof CLIENT_FAULTS)[ClientFault]]>;
  it('has a fault for every CLIENT- requirement', () => {
    const covered = new Set<string>(faults.map(([, f]) => f.requirement));
    expect(CLIENT_CATALOG.filter((r) => !covered.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it.each(faults)('catches %s by its requirement', async (name, fault) => {
    const { judgements } = await gradeExample([name]);
    const judged = judgements.find((j) => j.id === fault.requirement);
    expect(judged?.status, `${fault.requirement} for fault ${name}: ${judged?.reason}`).toBe('failed');
  });
});
