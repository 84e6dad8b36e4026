/** What an incomplete run did not test, and the one thing that would test most of it. */
import { describe, expect, it } from 'vitest';
import { notTestedLines, summariseNotTested } from '../../../harness/report/not-tested-summary.js';
import { NOT_SELECTED, type RequirementResult } from '../../../harness/run/verdict.js';

const req = (id: string, reason: string, level: 'MUST' | 'SHOULD' | 'INFO' = 'MUST', status = 'not-tested'): RequirementResult =>
  ({ id, level, area: 'a', section: 's', source: 'x', rule: 'r', status, reason, tests: [], observations: [] }) as RequirementResult;

describe('not-tested summary', () => {
  it('names the not-tested requirements and the remedy that covers most of them', () => {
    const s = summariseNotTested([
      req('A', 'needs consent: needs control (the profile has no controlUrl)'),
      req('B', 'needs clock: needs control (the profile has no controlUrl)'),
      req('C', 'needs user-token: no control interface and no token cache'),
      req('D', 'needs capture: the target is not on this machine'),
      req('E', NOT_SELECTED),
      req('F', 'needs control: x', 'INFO'),
      req('G', '', 'MUST', 'passed'),
    ]);
    expect(s.ids).toEqual(['A', 'B', 'C', 'D']);
    expect(s.best).toEqual({ what: expect.stringContaining('a control URL'), count: 3 });
    // the list names what it holds (the counts line counts INFO and unselected ones too)
    expect(notTestedLines(s)).toEqual(['not tested, MUST and SHOULD in scope (4; INFO, untestable and unselected ones aside): A, B, C, D', expect.stringMatching(/^a control URL .* would test 3 of them$/)]);
  });

  it('with a control URL that is set but failed, the remedy is to make it work, never to set one', () => {
    const failing = 'needs control (the control interface at http://127.0.0.1:1/_control did not answer GET /fixtures: 401 unauthorized)';
    const s = summariseNotTested([req('A', `needs consent: ${failing}`), req('B', `needs clock: ${failing}`)]);
    const lines = notTestedLines(s);
    expect(lines[1]).toMatch(/^a working control interface \(controlUrl is set .*LOCKCONF_CONTROL_TOKEN\) would test 2 of them$/);
    expect(lines.join('\n')).not.toContain('a control URL');
  });

  it('leaves out untestable requirements', () => {
    expect(summariseNotTested([req('A', 'cannot cut a bridge off')], new Set(['A'])).ids).toEqual([]);
  });
});
