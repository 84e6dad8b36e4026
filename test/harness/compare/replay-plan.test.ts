/**
 * `lockconf replay`: what a replay takes over from the original's conformance.json
 * (harness/replay/plan.ts): mode, scope, seed, behaviour-changing settings, the
 * expect file's content; what it cannot replay, named.
 */
import { describe, expect, it } from 'vitest';
import { CannotReplay, describePlan, planReplay, type ReplayContext } from '../../../harness/replay/plan.js';
import { provenance, run } from './runs.js';

const ctx = (over: Partial<ReplayContext> = {}): ReplayContext => ({
  env: {},
  profileGiven: false,
  profileVariables: ['LOCKCONF_BASE_URL', 'LOCKCONF_CLIENT_SECRET'],
  running: { version: '0.1.0', commit: 'a'.repeat(40), specSha256: '1'.repeat(64) },
  ...over,
});
const setting = (name: string, value: string | null, changed: boolean, source = 'env') => ({ name, value, default: null, changed, source });

describe('What a replay takes over', () => {
  it('the seed, the scope and the mode from provenance', () => {
    const plan = planReplay(run({}, { seed: 1, provenance: provenance({ seed: 7, scope: { only: ['A-1', 'B-2'], partial: true } }) }), ctx());
    expect(plan).toMatchObject({ mode: 'service', seed: 7, only: ['A-1', 'B-2'], mock: true, warnings: [] });
    expect(describePlan(plan)).toBe('service run on the embedded mock, seed 7, 2 requirement(s) (--only), no changed settings');
  });

  it('every changed setting, and unsets one the original left at its default', () => {
    const plan = planReplay(run({}, {
      provenance: provenance({
        settings: [
          setting('LOCKCONF_DELIVERY_WAIT_MS', '100', true),
          setting('LOCKCONF_QUIET_WINDOW_MS', null, false),
          setting('LOCKCONF_PREFLIGHT', null, false),
          setting('--seed', '7', true, 'option'),
        ],
      }),
    }), ctx({ env: { LOCKCONF_QUIET_WINDOW_MS: '1' } }));
    expect(plan.env).toEqual({ LOCKCONF_DELIVERY_WAIT_MS: '100', LOCKCONF_QUIET_WINDOW_MS: null });
    expect(plan.applied).toEqual(['LOCKCONF_DELIVERY_WAIT_MS=100', 'LOCKCONF_QUIET_WINDOW_MS unset (the original ran with its default)']);
  });

  it('never a secret ("(set)"), a profile variable or the run\'s own plumbing; a missing secret is named', () => {
    const plan = planReplay(run({}, {
      provenance: provenance({
        settings: [
          setting('LOCKCONF_WEBHOOK_TOKEN', '(set)', true),
          setting('LOCKCONF_BASE_URL', 'https://x.example', true),
          setting('LOCKCONF_RUN_DIR', '/tmp/x', true),
          setting('--frobnicate', '1', true, 'option'),
        ],
      }),
    }), ctx());
    expect(plan.env).toEqual({});
    expect(plan.warnings).toEqual([
      'LOCKCONF_WEBHOOK_TOKEN was set for the original (a secret: not recorded); set it again for a faithful replay',
      'the option --frobnicate=1 is not replayed',
    ]);
  });

  it('the signing key is no run setting: a certified original replays without a word about it', () => {
    const plan = planReplay(run({}, { provenance: provenance({ settings: [setting('LOCKCONF_SIGNING_KEY', '(set)', true)] }) }), ctx());
    expect(plan.env).toEqual({});
    expect(plan.warnings).toEqual([]);
  });

  it('the expect file\'s recorded content', () => {
    const plan = planReplay(run({}, { provenance: provenance({ expectations: { file: '/x/expect.json', sha256: 'h', content: '{"A-1":"known"}' } }) }), ctx());
    expect(plan.expectContent).toEqual({ file: '/x/expect.json', content: '{"A-1":"known"}' });
  });

  it('an older file: the seed, the selection and the settings that weakened it, with a warning', () => {
    const original = run({}, { seed: 5, only: ['A-1'] });
    original.result.selection.weakenedBy = [{ setting: 'LOCKCONF_DELIVERY_WAIT_MS', value: '100', effect: '' }, { setting: '--expect', value: 'x.json', effect: '' }];
    const plan = planReplay(original, ctx());
    expect(plan).toMatchObject({ seed: 5, only: ['A-1'] });
    expect(plan.env).toEqual({ LOCKCONF_DELIVERY_WAIT_MS: '100' });
    expect(plan.warnings[0]).toMatch(/records no provenance/);
  });

  it('a receiver run replays against its receiver URL', () => {
    const plan = planReplay(run({}, { provenance: provenance({ mode: 'receiver', target: { receiverUrl: 'http://127.0.0.1:9/hook', mock: false } }) }), ctx());
    expect(plan).toMatchObject({ mode: 'receiver', receiverUrl: 'http://127.0.0.1:9/hook' });
  });
});

describe('The suite that replays', () => {
  it('warns when its source or the spec text differs from the recorded ones', () => {
    const plan = planReplay(run({}, { provenance: provenance() }), ctx({ running: { version: '0.1.0', commit: 'c'.repeat(40), specSha256: '9'.repeat(64) } }));
    expect(plan.warnings).toEqual([
      'the suite\'s source differs: the original ran git commit aaaaaaaaaaaa (branch main), this is git commit cccccccccccc',
      'the spec text differs from the one the original was judged against (sha256 111111111111… recorded, 999999999999… here)',
    ]);
  });
});

describe('What cannot be replayed', () => {
  it('no seed: says what is missing', () => {
    expect(() => planReplay(run({}, { seed: null }), ctx())).toThrow(new CannotReplay('/runs/x/conformance.json: cannot replay: it records no seed (no provenance and seed is null)'));
  });

  it('a target other than the embedded mock, without its profile', () => {
    const remote = run({}, { mock: false, provenance: provenance({ target: { baseUrl: 'https://sandbox.example/api', mock: false } }) });
    expect(() => planReplay(remote, ctx())).toThrow(/the original judged https:\/\/sandbox.example\/api, not the embedded mock; give its profile again with --target FILE/);
    expect(planReplay(remote, ctx({ profileGiven: true })).mock).toBe(false);
  });

  it('a receiver run without its URL', () => {
    expect(() => planReplay(run({}, { provenance: provenance({ mode: 'receiver', target: { mock: false } }) }), ctx())).toThrow(/records no receiver URL/);
  });
});
