/**
 * test/mutation/pending.mjs: triage written ahead (a triage file's `pending` list) for
 * mutants not run yet; what it becomes once they have run, and how triage.mjs counts it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptInto, checkPending, matchPending } from './pending.mjs';
import { adoptPending, printSummary, triageOf, type ReportedMutant, type TriageEntry } from './triage.mjs';

const m = (over: Partial<ReportedMutant>): ReportedMutant => ({ file: 'mock/a.ts', line: 3, mutator: 'StringLiteral', replacement: '""', original: "'x'", status: 'Survived', ...over });
const entry = (over: Partial<TriageEntry>): TriageEntry => ({ file: 'mock/a.ts', line: 3, mutator: 'StringLiteral', replacement: '""', original: "'x'", class: 'equivalent', why: 'not on the wire', ...over });

describe('triage written ahead (pending.mjs)', () => {
  it('triages the survivor of its own line, and is marked as written ahead', () => {
    const { mutants, fates } = matchPending([m({ line: 3 })], [entry({ line: 3 })]);
    expect(mutants[0]!.triage).toMatchObject({ class: 'equivalent', pending: true });
    expect(fates.map((f) => f.fate)).toEqual(['survived']);
  });

  it('never takes a same-looking mutant of another line: its own has not run, it waits', () => {
    const { mutants, fates } = matchPending([m({ line: 9 })], [entry({ line: 3 })]);
    expect(mutants[0]!.triage).toBeUndefined();
    expect(fates.map((f) => f.fate)).toEqual(['waiting']);
  });

  it('names a killed or timed-out mutant: killed; a survivor triaged already: duplicate', () => {
    const triaged = { ...m({ line: 5 }), triage: entry({ line: 5, class: 'legal', spec: 's' }) };
    const { fates } = matchPending([m({ status: 'Killed' }), m({ line: 4, status: 'Timeout' }), triaged], [entry({}), entry({ line: 4 }), entry({ line: 5 })]);
    expect(fates.map((f) => f.fate)).toEqual(['killed', 'killed', 'duplicate']);
  });

  it('takes a survivor a same-looking entry of another line triaged (survivors match by the nearest line)', () => {
    const borrowed = { ...m({ line: 9 }), triage: entry({ line: 4, why: 'the reading of line 4' }) };
    const { mutants, fates } = matchPending([borrowed], [entry({ line: 9, why: 'the reading of line 9' })]);
    expect(fates.map((f) => f.fate)).toEqual(['survived']);
    expect(mutants[0]!.triage?.why).toBe('the reading of line 9');
  });

  it('gives each of two same mutants on one line an entry of its own, an untriaged survivor first', () => {
    const { fates } = matchPending([m({ status: 'Killed' }), m({})], [entry({}), entry({ class: 'legal', spec: 's' })]);
    expect(fates.map((f) => f.fate)).toEqual(['survived', 'killed']);
  });

  it('comes after the survivors entries: triageOf uses a pending entry only for a survivor they leave untriaged (or triage from another line)', () => {
    const { survivors, fates } = triageOf([m({}), m({ line: 7, original: "'y'" })], [entry({ line: 3 })], [entry({ class: 'legal', spec: 's' }), entry({ line: 7, original: "'y'", class: 'gap', test: 'open' })]);
    expect(survivors.map((s) => s.triage?.class)).toEqual(['equivalent', 'gap']);
    expect(fates.map((f) => f.fate)).toEqual(['duplicate', 'survived']);
  });

  it('adoption moves the survivors\' entries, drops the killed and duplicate ones, keeps the waiting', () => {
    const file = { $comment: 'c', survivors: [entry({ line: 1 })], pending: [entry({ line: 2 }), entry({ line: 3 }), entry({ line: 4 })] };
    const fates = [
      { entry: { ...file.pending[0]!, source: 'x' }, fate: 'survived' as const },
      { entry: { ...file.pending[1]!, source: 'x' }, fate: 'killed' as const },
      { entry: { ...file.pending[2]!, source: 'x' }, fate: 'waiting' as const },
    ];
    expect(adoptInto(file, fates)).toEqual({ $comment: 'c', survivors: [entry({ line: 1 }), entry({ line: 2 })], pending: [entry({ line: 4 })] });
  });

  it('adoption keeps a killed gap written ahead with the test that closes it under closed (an open gap killed, or any other class, is dropped)', () => {
    const closes = entry({ line: 2, class: 'gap', test: 'OAUTH-SIGN-IN-STEP' });
    const open = entry({ line: 3, class: 'gap', test: 'open' });
    const file = { survivors: [], closed: [entry({ line: 9, class: 'gap', test: 'X' })], pending: [closes, open, entry({ line: 4 })] };
    const fates = file.pending.map((e) => ({ entry: e, fate: 'killed' as const }));
    expect(adoptInto(file, fates)).toEqual({ survivors: [], closed: [entry({ line: 9, class: 'gap', test: 'X' }), closes], pending: [] });
  });

  it('finds the entries that name no mutant of the current source, with the lines their mutant moved to', () => {
    const current = [m({ line: 3 }), m({ line: 8, original: "'y'" })];
    const lost = checkPending(current, [entry({}), entry({ line: 7, original: "'y'" }), entry({ original: "'z'" })]);
    expect(lost.map((l) => [l.entry.line, l.lines])).toEqual([[7, [8]], [3, []]]);
  });
});

describe('npm run mutation:triage with pending entries (triage.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lockconf-pending-'));
  const at = (line: number, status: string) => ({ mutatorName: 'StringLiteral', replacement: '""', status, location: { start: { line, column: 1 }, end: { line, column: 4 } } });
  const source = ["'x'", "'x'", "'x'"].join('\n');
  writeFileSync(join(dir, 'oauth.json'), JSON.stringify({ files: { 'mock/a.ts': { source, mutants: [at(1, 'Survived'), at(2, 'Killed')] } } }));
  const fileOf = (folder: string) => join(dir, `${folder}.json`);
  const triageFile = join(dir, 'triage-oauth.json');
  writeFileSync(triageFile, JSON.stringify({ survivors: [], pending: [1, 2, 3].map((line) => entry({ line })) }));

  it('counts the entries written ahead as triage, and moves them on --adopt-pending', () => {
    let out = '';
    // 0 untriaged, and 1 file whose results are out of date: mock/a.ts is no file of the project.
    expect(printSummary({ folders: ['oauth'], write: (s) => (out += s), fileOf, triageFiles: [triageFile] })).toBe(1);
    expect(out).toMatch(/survivors: 1; triaged 1 \(equivalent 1/);
    expect(out).toMatch(/results older than their source .*: mock\/a\.ts\n/);
    expect(out).toMatch(/pending\): 3 entries: 1 triage a survivor, 1 name a killed mutant, 0 .*, 1 wait/);
    adoptPending({ files: [triageFile], write: () => {}, fileOf });
    const after = JSON.parse(readFileSync(triageFile, 'utf8'));
    expect(after.survivors.map((e: TriageEntry) => e.line)).toEqual([1]);
    expect(after.pending.map((e: TriageEntry) => e.line)).toEqual([3]);
  });
});
