/** Which settings make a run no certificate (harness/run/weakening.ts): those that shorten a wait or skip the preflight. */
import { describe, expect, it } from 'vitest';
import { describeWeakenings, weakeningSettings } from '../../../harness/run/weakening.js';

const remote = { embeddedMock: false };
const embedded = { embeddedMock: true };

describe('weakening settings', () => {
  it('nothing set: nothing weakened', () => {
    expect(weakeningSettings({}, remote)).toEqual([]);
  });

  it('a delivery wait shorter than 15 s weakens; a longer one (a slow sandbox) does not', () => {
    expect(weakeningSettings({ LOCKCONF_DELIVERY_WAIT_MS: '3000' }, remote)).toEqual([
      { setting: 'LOCKCONF_DELIVERY_WAIT_MS', value: '3000', effect: expect.stringContaining('3000 ms instead of 15000 ms') },
    ]);
    expect(weakeningSettings({ LOCKCONF_DELIVERY_WAIT_MS: '30000' }, remote)).toEqual([]);
    expect(weakeningSettings({ LOCKCONF_DELIVERY_WAIT_MS: 'soon' }, remote)).toEqual([]);
  });

  it('a quiet window shorter than the target\'s default weakens (500 ms, 250 ms against the embedded mock)', () => {
    expect(weakeningSettings({ LOCKCONF_QUIET_WINDOW_MS: '250' }, remote).map((w) => w.setting)).toEqual(['LOCKCONF_QUIET_WINDOW_MS']);
    expect(weakeningSettings({ LOCKCONF_QUIET_WINDOW_MS: '250' }, embedded)).toEqual([]);
    expect(weakeningSettings({ LOCKCONF_QUIET_WINDOW_MS: '100' }, embedded)[0]?.effect).toContain('100 ms instead of 250 ms');
  });

  it('skipping the preflight weakens a run against a profile; the embedded mock has none to skip', () => {
    expect(weakeningSettings({ LOCKCONF_PREFLIGHT: '0' }, remote)).toEqual([expect.objectContaining({ setting: 'LOCKCONF_PREFLIGHT', value: '0' })]);
    expect(weakeningSettings({ LOCKCONF_PREFLIGHT: '0' }, embedded)).toEqual([]);
    expect(weakeningSettings({ LOCKCONF_PREFLIGHT: '1' }, remote)).toEqual([]);
  });

  it('names them as they were set', () => {
    const list = weakeningSettings({ LOCKCONF_DELIVERY_WAIT_MS: '3000', LOCKCONF_PREFLIGHT: '0' }, remote);
    expect(describeWeakenings(list)).toBe('LOCKCONF_DELIVERY_WAIT_MS=3000, LOCKCONF_PREFLIGHT=0');
  });
});
