/**
 * test/mutation/close-stale.mjs: the triage entries no survivor matches any more,
 * settled once the mutants have run again: a gap killed by a new test is closed with
 * the requirements that killed it, every other stale entry is dropped.
 */
import { describe, expect, it } from 'vitest';
import { killedByText, killersOf, settleInto, staleFates } from './close-stale.mjs';
import { readFileSync } from 'node:fs';
import { outdatedFiles, type ReportedMutant, type TriageEntry } from './triage.mjs';

const m = (over: Partial<ReportedMutant>): ReportedMutant => ({ file: 'mock/a.ts', line: 3, mutator: 'StringLiteral', replacement: '""', original: "'x'", status: 'Killed', ...over });
const entry = (over: Partial<TriageEntry>): TriageEntry => ({ file: 'mock/a.ts', line: 3, mutator: 'StringLiteral', replacement: '""', original: "'x'", class: 'gap', why: 'no one can sign in.', test: 'open', ...over });

describe('stale triage entries (close-stale.mjs)', () => {
  it('reads the killing requirements from Stryker\'s status reason, failed and warned alike', () => {
    expect(killersOf('mutant 4: killed (OAUTH-SIGN-IN-SMS failed, OAUTH-CODE-SINGLE-USE warned, OAUTH-SIGN-IN-SMS failed)')).toEqual(['OAUTH-SIGN-IN-SMS', 'OAUTH-CODE-SINGLE-USE']);
    expect(killersOf('mutant 9: timed out')).toEqual([]);
    expect(killedByText([])).toBe('a timeout (the run never ended)');
    expect(killedByText(['A-B', 'C-D', 'E-F', 'G-H', 'I-J', 'K-L'])).toBe('A-B, C-D, E-F, G-H and 2 more');
  });

  it('a gap whose mutant is killed now is closed; an equivalent or legal one killed now, or one whose mutant is gone, is dropped', () => {
    const fates = staleFates(
      [m({ line: 3 }), m({ line: 7, original: "'y'" }), m({ line: 9, original: "'z'", status: 'Survived' })],
      [entry({}), entry({ line: 7, original: "'y'", class: 'equivalent' }), entry({ line: 20, original: "'gone'" })],
    );
    expect(fates.map((f) => f.fate)).toEqual(['closed', 'dropped', 'dropped']);
  });

  it('keeps the entries of a file the results do not hold (it has not run)', () => {
    expect(staleFates([m({})], [entry({ file: 'mock/b.ts' })]).map((f) => f.fate)).toEqual(['kept']);
  });

  it('a survivor is never taken as proof: two same mutants, one killed, close one gap only', () => {
    const fates = staleFates([m({ line: 3 }), m({ line: 4, status: 'Survived' })], [entry({ line: 3 }), entry({ line: 4 })]);
    expect(fates.map((f) => f.fate)).toEqual(['closed', 'dropped']);
  });

  it('moves a closed gap to `closed` with its killers and the proof in `why`, removes the dropped ones, keeps the rest', () => {
    const gap = entry({});
    const other = entry({ line: 8, original: "'w'", class: 'legal', spec: 's' });
    const kept = entry({ line: 12, original: "'k'", class: 'equivalent' });
    const file = { survivors: [gap, other, kept], closed: [] as TriageEntry[] };
    const out = settleInto(file, [
      { entry: gap, fate: 'closed', mutant: m({ reason: 'mutant 1: killed (OAUTH-SIGN-IN-PASSWORD failed)' }) },
      { entry: other, fate: 'dropped' },
    ]);
    expect(out.survivors).toEqual([kept]);
    expect(out.closed).toEqual([{ ...gap, test: 'OAUTH-SIGN-IN-PASSWORD', why: 'no one can sign in. Proved: killed by OAUTH-SIGN-IN-PASSWORD in a Stryker run of mock/a.ts.' }]);
  });
});

describe('results out of date (triage.mjs outdatedFiles)', () => {
  it('names the files whose recorded source is not their current text, or that are gone', () => {
    const current = readFileSync('mock/clock.ts', 'utf8');
    const report = { files: { 'mock/clock.ts': { source: current, mutants: [] }, 'mock/world.ts': { source: 'an older text', mutants: [] }, 'mock/gone.ts': { source: '', mutants: [] } } };
    expect(outdatedFiles(report)).toEqual(['mock/world.ts', 'mock/gone.ts']);
  });
});
