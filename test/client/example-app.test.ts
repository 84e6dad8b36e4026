/**
 * The example application's OAuth client, graded by the mock: correct, it is
 * judged conformant with every rule and every declared slice exercised; each
 * named fault of examples/app/client-faults.ts, and each fault generated from a
 * declared slice (`ID@dim=value`, test/client/support/client-slice-faults.ts),
 * is caught by the requirement it breaks (generated ones: on that slice).
 * npm test runs a sample of the generated faults; `LOCKCONF_CLIENT_FAULTS=all npx vitest
 * run --project unit test/client/example-app.test.ts` runs every one.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_CATALOG } from '../../harness/catalog/index.js';
import { CLIENT_FAULTS, type ClientFault } from '../../examples/app/client-faults.js';
import { gradeExample, probesFor } from './support/example.js';
import { clientFaultsToRun, clientSliceTraceabilityProblems } from './support/client-slice-faults.js';
import { judgeConforming, judgeGeneratedFault, judgeNamedFault, judgeVariant, parseUntested } from './support/client-judge.js';
import { CLIENT_VARIANTS, type ClientVariant } from '../../examples/app/client-variants.js';
import type { ProbeReport } from '../../harness/client/judge.js';

describe('the example OAuth client, graded by the mock', () => {
  it('is conformant: every CLIENT- rule and every declared slice exercised and held, the probes all ran', async () => {
    const { judgements, probes } = await gradeExample();
    expect([probes.denial, probes.api401, probes.refreshRefused, probes.refreshInFlight, probes.reload]).toEqual([{ ran: true }, { ran: true }, { ran: true }, { ran: true, answers: [302, 302] }, { ran: true }]);
    expect(probes.state?.filter((p) => !p.ran)).toEqual([]);
    expect(probes.state).toHaveLength(32);
    expect(probes.cancellation?.filter((p) => !p.ran)).toEqual([]);
    expect(probes.browser).toEqual(expect.objectContaining({ ran: true, secretAt: [], apiKeyAt: [] }));
    expect(probes.api401Family?.filter((p) => !p.ran)).toEqual([]);
    expect(judgements.map((j) => j.id)).toEqual(CLIENT_CATALOG.map((r) => r.id));
    const verdict = judgeConforming(judgements);
    expect(verdict.ok, verdict.why).toBe(true);
  }, 120_000); // every probe family, some 80 flows: on a loaded 2-core machine well past the default 30 s

  /** The variants made for a legal refusal, and how the probe met it: a refusal no probe meets proves nothing. */
  const REFUSALS: Partial<Record<ClientVariant, (probes: ProbeReport) => void>> = {
    'host-allow-list': (p) => expect(p.reachedAs).toEqual({ ran: false, why: expect.stringContaining('answered 400') }),
    'refuses-concurrent-refresh': (p) => expect(p.refreshInFlight).toEqual({ ran: true, answers: expect.arrayContaining([409]) }),
  };

  // Legal variants: choices the spec leaves to the application; no MUST fails, only the SHOULDs each names may warn.
  it.concurrent.each(Object.entries(CLIENT_VARIANTS))('judges the legal variant %s conformant', async (name, variant) => {
    const { judgements, probes } = await gradeExample([], {}, [name]);
    const verdict = judgeVariant(judgements, variant.warns, variant.untested);
    REFUSALS[name as ClientVariant]?.(probes);
    expect(verdict.ok, `variant ${name}: ${verdict.why}`).toBe(true);
    for (const id of variant.warns) expect(judgements.find((j) => j.id === id)?.status, `${name} warns ${id}`).toBe('failed');
    for (const entry of variant.untested) {
      const { id, dim, value } = parseUntested(entry);
      const judged = judgements.find((j) => j.id === id);
      const at = dim ? judged?.slices?.find((s) => s.dim === dim && s.value === value) : judged;
      expect(at?.status, `${name} leaves ${entry} untested`).toBe('not-tested');
      if (dim) expect(judged?.status, `${name}: ${id} held on its other slices`).toBe('passed');
    }
  }, 120_000);

  const faults = Object.entries(CLIENT_FAULTS) as Array<[ClientFault, (typeof CLIENT_FAULTS)[ClientFault]]>;
  it('has a fault for every CLIENT- requirement, and a break point for every declared slice', () => {
    const covered = new Set<string>(faults.map(([, f]) => f.requirement));
    expect(CLIENT_CATALOG.filter((r) => !covered.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(clientSliceTraceabilityProblems()).toEqual([]);
  });

  // Each fault runs the probes that exercise its rule (probesFor), side by side: the time is the mock's and the app's latency.
  it.concurrent.each(faults)('catches %s by its requirement', async (name, fault) => {
    const { judgements } = await gradeExample([name], probesFor(fault.requirement));
    const verdict = judgeNamedFault(fault.requirement, judgements);
    expect(verdict.ok, `fault ${name}: ${verdict.why}`).toBe(true);
  });

  // A sample in npm test (the last value of each dimension of each requirement); LOCKCONF_CLIENT_FAULTS=all runs every one.
  it.concurrent.each(clientFaultsToRun().map((f) => [f.name, f] as const))('catches the generated fault %s by its requirement, on its slice', async (_name, fault) => {
    const { judgements } = await gradeExample([fault.name], probesFor(fault.requirement, fault.dim, fault.value));
    const verdict = judgeGeneratedFault(fault, judgements);
    expect(verdict.ok, `${fault.name}: ${verdict.why}`).toBe(true);
  });
});
