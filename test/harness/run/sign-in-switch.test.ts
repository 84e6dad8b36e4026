/**
 * The switch that leaves the sign-in suite (suites/oauth/sign-in-screens.test.ts)
 * out of a run (LOCKCONF_SIGN_IN=off, --no-sign-in), and the redaction of what it
 * signs in with. The suite itself runs in npm test's one full run
 * (test/harness/report/full-run.test.ts: each requirement passed, no password or
 * SMS code in any file) and in the matrix runs of its faults.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../harness/wire/redact.js';
import { harvestSecrets } from '../../../harness/wire/secret-harvest.js';
import { computeVerdict } from '../../../harness/run/verdict.js';
import { weakeningSettings } from '../../../harness/run/weakening.js';
import { SIGN_IN_LEFT_OUT, SIGN_IN_REQUIREMENTS } from '../../../harness/run/sign-in-switch.js';
import { CATALOG } from '../../../harness/catalog/index.js';

describe('the sign-in switch', () => {
  it('LOCKCONF_SIGN_IN=off weakens the run and leaves the five requirements out of its scope', () => {
    const weakenedBy = weakeningSettings({ LOCKCONF_SIGN_IN: 'off' }, { embeddedMock: true });
    expect(weakenedBy.map((w) => w.setting)).toEqual(['LOCKCONF_SIGN_IN']);
    const tests = CATALOG.filter((r) => r.level === 'MUST').map((r) => (SIGN_IN_REQUIREMENTS as readonly string[]).includes(r.id)
      ? { name: `${r.id}: x`, state: 'skipped' as const, note: SIGN_IN_LEFT_OUT }
      : { name: `${r.id}: x`, state: 'passed' as const });
    const verdict = computeVerdict({ catalog: CATALOG.filter((r) => r.level === 'MUST'), tests, weakenedBy });
    expect(verdict.verdict).toBe('partial');
    expect(verdict.scope.inScope).toBe(verdict.scope.total - SIGN_IN_REQUIREMENTS.length);
    expect(weakeningSettings({}, { embeddedMock: true })).toEqual([]);
    expect(weakeningSettings({ LOCKCONF_SIGN_IN: 'on' }, { embeddedMock: true })).toEqual([]);
  });

  it('a --only scope without their requirements loses nothing by leaving them out', () => {
    expect(weakeningSettings({ LOCKCONF_SIGN_IN: 'off' }, { embeddedMock: true, selected: ['TOKEN-NO-STORE'] })).toEqual([]);
    expect(weakeningSettings({ LOCKCONF_SIGN_IN: 'off' }, { embeddedMock: true, selected: ['OAUTH-SIGN-IN-WRONG-SMS'] })).toHaveLength(1);
  });

  it('the password of the control extension\'s answer is registered with the redactor', () => {
    const redactor = new Redactor();
    harvestSecrets({ json: { email: 'ada@example.test', password: 'analytical-engine' }, headers: {}, location: null }, redactor);
    harvestSecrets({ json: { code: '493021' }, headers: {}, location: null }, redactor);
    expect(redactor.redact('password=analytical-engine&code=493021')).not.toMatch(/analytical-engine|493021/);
  });
});
