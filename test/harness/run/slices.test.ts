/**
 * t.slice(): each declared slice is its own soft check of the requirement, named
 * in the failure; a slice that asserts nothing is a suite error; a slice that
 * cannot be carried out is not tested and never passes the requirement alone.
 */
import { describe, expect, test } from 'vitest';
import { r, type Requirement } from '../../../harness/catalog/requirement.js';
import { OutcomeRecorder } from '../../../harness/run/outcome-recorder.js';
import { NO_ASSERTION, SliceRunner } from '../../../harness/run/slices.js';

const REQ: Requirement = r('X-RULE', 'MUST', 'Token endpoint', 'Section', 'The rule.');
const declared = (_id: string, dim: string) => (dim === 'grant' ? ['a', 'b', 'c'] : []);

function runner() {
  const recorder = new OutcomeRecorder(REQ, { lookup: () => REQ, redact: (s) => s });
  const slices = new SliceRunner({
    recorder,
    current: () => REQ.id,
    notTestedReason: (err) => (err instanceof Error && err.message.startsWith('NT:') ? err.message.slice(3) : null),
    redact: (s) => s,
    evidence: () => null,
    declared,
  });
  return { recorder, slices, check: slices.counting(expect) };
}

describe('t.slice', () => {
  test('runs every slice; a failing one is recorded with its slice and does not stop the next', async () => {
    const { recorder, slices, check } = runner();
    await slices.each('grant', (g) => { check(g, `grant ${g}`).not.toBe('b'); });
    expect(slices.records().map((s) => `${s.slice}:${s.status}`)).toEqual(['grant=a:passed', 'grant=b:failed', 'grant=c:passed']);
    const outcome = recorder.outcomes()[0]!;
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/^\[grant=b\] rule \(MUST/);
  });

  test('a slice that made no assertion fails as a suite error', async () => {
    const { recorder, slices } = runner();
    await slices.slice({ grant: 'a' }, () => {});
    expect(slices.records()[0]).toMatchObject({ status: 'failed' });
    expect(recorder.outcomes()[0]!.reason).toContain(NO_ASSERTION);
  });

  test('a slice not declared for the requirement is a suite error', async () => {
    const { slices } = runner();
    await expect(slices.slice({ grant: 'z' }, () => {})).rejects.toThrow(/declares no slice grant=z/);
    expect(() => slices.values('endpoint')).toThrow(/declares no slices over endpoint/);
  });

  test('a slice that cannot be carried out is not tested; only such slices make the requirement not tested', async () => {
    const { slices, check } = runner();
    await slices.slice({ grant: 'a' }, () => { throw new Error('NT:needs consent'); });
    expect(slices.records()[0]).toMatchObject({ status: 'not-tested', reason: 'needs consent' });
    expect(slices.onlyNotTested(REQ.id)).toBe('needs consent');
    await slices.slice({ grant: 'b' }, () => { check(1).toBe(1); });
    expect(slices.onlyNotTested(REQ.id)).toBeNull();
  });
});
