/**
 * The domain of states the client probes send back (harness/client/probes/state.ts):
 * named edges, values drawn from the run's seed (the same seed, the same probe: a run
 * is replayed), and each value differing from the real state the way its name says, as
 * the example application's faults read it (examples/app/client-faults.ts stateDifference).
 */
import { describe, expect, it } from 'vitest';
import { DOMAIN_TAMPERS, stateProbePlan, tamperState } from '../../harness/client/probes/state.js';
import { CANCELLATION_TAMPERS } from '../../harness/client/probes/cancellation.js';
import { stateDifference } from '../../examples/app/client-faults.js';
import { CLIENT_SLICES } from '../../harness/catalog/slices/client.js';

const BASE64URL = 'q7Xz_0-ab9KLmn3PqrsTUVwx12yZAbCd';
const HEX = '0123456789abcdef0123456789abcdef';

describe('the state domain', () => {
  it('changes one character at the named edges and at a position drawn inside, the same for the same seed', () => {
    expect(tamperState(BASE64URL, 'altered-first')).toMatchObject({ position: 0 });
    expect(tamperState(BASE64URL, 'altered-last')).toMatchObject({ position: BASE64URL.length - 1 });
    const drawn = tamperState(BASE64URL, 'altered-drawn', 41)!;
    expect(drawn.position).toBeGreaterThan(0);
    expect(drawn.position).toBeLessThan(BASE64URL.length - 1);
    expect(tamperState(BASE64URL, 'altered-drawn', 41)).toEqual(drawn);
    const positions = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => tamperState(BASE64URL, 'altered-drawn', seed)!.position));
    expect(positions.size).toBeGreaterThan(1);
  });

  it('changes a character to another of its class, so a comparison blind to letter case still sees it', () => {
    for (const state of [BASE64URL, HEX, 'ZZZZ', '9999', '----']) {
      for (const tamper of ['altered-first', 'altered-drawn', 'altered-last']) {
        const out = tamperState(state, tamper, 7)!;
        expect(out.state.toLowerCase(), `${state} ${tamper}`).not.toBe(state.toLowerCase());
        expect(out.state).toHaveLength(state.length);
      }
    }
  });

  it('forges a value of the same length and alphabet, drawn from the seed', () => {
    const forged = tamperState(HEX, 'forged', 3)!.state;
    expect(forged).toMatch(/^[0-9a-f]{32}$/);
    expect(forged).not.toBe(HEX);
    expect(tamperState(HEX, 'forged', 3)!.state).toBe(forged);
    expect(tamperState(HEX, 'forged', 4)!.state).not.toBe(forged);
    expect(tamperState(BASE64URL, 'forged', 3)!.state).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('each value of the domain differs from the real state the way its name says', () => {
    for (const state of [BASE64URL, HEX]) {
      for (const tamper of DOMAIN_TAMPERS) {
        const got = tamper === 'missing' ? null : tamperState(state, tamper, 11)!.state;
        expect(stateDifference(state, got), `${tamper} of ${state}`).toBe(tamper);
      }
    }
  });

  it('is declared as slices: every state of the domain is a state-tamper value, the cancellation family probes them all', () => {
    const values = CLIENT_SLICES.dimensions.find((d) => d.id === 'state-tamper')!.values;
    for (const t of DOMAIN_TAMPERS) expect(values).toContain(t);
    expect(CLIENT_SLICES.slices['CLIENT-CANCELLATION-STATE-CHECKED']).toEqual({ 'state-tamper': [...CANCELLATION_TAMPERS] });
  });

  it('plans the domain in a browser without the cookie on approval only, beside every tamper in the flow\'s browser', () => {
    const plan = stateProbePlan();
    expect(plan.filter((p) => p.arrivesIn === 'no-cookie').map((p) => p.tamper)).toEqual([...DOMAIN_TAMPERS]);
    expect(plan.filter((p) => p.arrivesIn === 'no-cookie').every((p) => p.flowEnd === 'approval')).toBe(true);
    expect(plan.filter((p) => p.arrivesIn === 'flow-browser' && p.flowEnd === 'cancellation').map((p) => p.tamper)).not.toContain('no-cookie');
  });
});
