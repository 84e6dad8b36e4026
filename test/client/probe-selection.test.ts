/**
 * LOCKCONF_CLIENT_PROBES (harness/client/probe-selection.ts): which probe families
 * a client run drives; a family left out leaves its rules not tested with that
 * reason, and the run is weakened by it.
 */
import { describe, expect, it } from 'vitest';
import { PROBE_FAMILIES, probeSelection, probeWeakening } from '../../harness/client/probe-selection.js';
import { runProbes } from '../../harness/client/probes.js';
import { judgeClient } from '../../harness/client/judge.js';

describe('LOCKCONF_CLIENT_PROBES', () => {
  it('unset or empty drives every family and weakens nothing', () => {
    for (const text of [undefined, '', '  ']) {
      expect(probeSelection(text)).toEqual({});
      expect(probeWeakening(text)).toEqual([]);
    }
    expect(probeWeakening(PROBE_FAMILIES.join(','))).toEqual([]);
  });

  it('names families, comma- or space-separated; api-401 is the page 401 and the 401 family', () => {
    expect(probeSelection('session, denial')).toEqual({ session: true, answers: true, refreshInFlight: true, reload: true, reachedAs: true, state: false, cancellation: false, denial: true, api401: false, api401Family: false, api401Points: false, refreshRefused: false, failedCheck: false, tokenErrors: false });
    expect(probeSelection('api-401')).toMatchObject({ api401: true, api401Family: true, session: false });
    expect(probeWeakening('session,denial')).toEqual([expect.objectContaining({ setting: 'LOCKCONF_CLIENT_PROBES', value: 'session,denial' })]);
  });

  it('refuses a name that is no family, naming the families', () => {
    expect(() => probeSelection('session,sesion')).toThrow(/names no probe family sesion: use session, state, denial, api-401, refresh-refused/);
  });

  it('a family left out leaves its rules not tested, "left out of this run\'s probe selection"', async () => {
    const none = { session: false, refreshInFlight: false, reload: false, state: false, cancellation: false, denial: false, api401: false, api401Family: false, api401Points: false, refreshRefused: false, failedCheck: false, tokenErrors: false };
    const target = {} as Parameters<typeof runProbes>[0]; // nothing runs: no request is made
    const judged = judgeClient([], 'client', await runProbes(target, none));
    for (const id of ['CLIENT-STATE-CHECKED', 'CLIENT-CANCELLATION-STATE-CHECKED', 'CLIENT-STATE-ONE-USE', 'CLIENT-REFRESH-NO-RETRY', 'CLIENT-REAUTHORIZE-ON-401', 'CLIENT-CODE-FROM-REDIRECT']) {
      const j = judged.find((x) => x.id === id)!;
      expect(j.status, id).toBe('not-tested');
      expect(j.reason, id).toContain('left out of this run\'s probe selection');
    }
    const reauth = judged.find((x) => x.id === 'CLIENT-REAUTHORIZE-ON-401')!;
    expect(reauth.slices!.every((s) => s.status === 'not-tested' && s.reason.includes('left out of this run\'s probe selection'))).toBe(true);
  });
});
