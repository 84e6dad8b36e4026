/**
 * The pieces of `npm run mutation` (the run itself is not part of `npm test`): the
 * kill logic on fake conformance.json files, the fault-switch ignorer on small
 * sources, the triage matching and the command line.
 */
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { describe, expect, it } from 'vitest';
import { FaultSwitchIgnorer } from './fault-switch-ignorer.mjs';
import { mutantVerdict } from './mutant-verdict.mjs';
import { FOLDERS } from './folders.mjs';
import { foldersOfMutate, mergeResults, mutatedBy, parseArgs, runsOf } from './run.mjs';
import { matchHangs, matchTriage, originalText, scoreOf, type ReportedMutant, type TriageEntry } from './triage.mjs';

const result = (verdict: string, statuses: string[]) =>
  JSON.stringify({ verdict, requirements: statuses.map((status, i) => ({ id: `REQ-${i}`, level: 'MUST', status })) });

describe('the kill logic (run-mutant.mjs)', () => {
  it('a run where every requirement passed, was informational or not tested as in the unmutated run: survived', () => {
    const reference = new Set(['REQ-1']);
    expect(mutantVerdict(result('conformant', ['passed', 'not-tested', 'informational']), reference).killed).toBe(false);
    expect(mutantVerdict(result('incomplete', ['passed', 'not-tested']), reference).killed).toBe(false);
  });

  it('a failed requirement kills', () => {
    const v = mutantVerdict(result('not-conformant', ['passed', 'failed']));
    expect(v).toEqual({ killed: true, reason: 'REQ-1 failed' });
  });

  it('a warned SHOULD kills, though the CLI exits 0 for it', () => {
    expect(mutantVerdict(result('conformant', ['passed', 'warned']))).toEqual({ killed: true, reason: 'REQ-1 warned' });
  });

  it('a run that could not be carried out kills', () => {
    expect(mutantVerdict(result('error', [])).killed).toBe(true);
  });

  it('a requirement of the scope left not tested kills, unless the unmutated run left it not tested too', () => {
    const run = JSON.stringify({
      verdict: 'incomplete',
      selection: { only: ['REQ-0', 'REQ-1', 'REQ-2'] },
      requirements: [
        { id: 'REQ-0', status: 'passed' },
        { id: 'REQ-1', status: 'not-tested' },
        { id: 'REQ-2', status: 'not-tested' },
        { id: 'REQ-3', status: 'not-tested' }, // outside the scope
      ],
    });
    expect(mutantVerdict(run, new Set(['REQ-1']))).toEqual({ killed: true, reason: 'not tested: REQ-2' });
    expect(mutantVerdict(run, new Set(['REQ-1', 'REQ-2'])).killed).toBe(false);
  });

  it('no conformance.json, or one that is not a verdict file, kills', () => {
    expect(mutantVerdict(undefined).killed).toBe(true);
    expect(mutantVerdict('{"verdict": "conform').killed).toBe(true);
    expect(mutantVerdict('{"verdict": "conformant"}').killed).toBe(true);
  });
});

/** The original text of every mutant the ignorer leaves out of `source`, and of every one it keeps. */
async function ignoredIn(source: string): Promise<{ ignored: string[]; kept: string[] }> {
  const quiet = { debug() {}, info() {}, warn() {}, error() {}, trace() {}, fatal() {}, isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, isWarnEnabled: () => false, isErrorEnabled: () => false, isFatalEnabled: () => false };
  const instrumenter = new Instrumenter(quiet as never);
  const { mutants } = await instrumenter.instrument([{ name: 'x.ts', mutate: true, content: source }], { plugins: null, excludedMutations: [], ignorers: [new FaultSwitchIgnorer()], noHeader: true } as never);
  // Stryker's API locations count lines and columns from 0; the report's from 1.
  const text = (m: (typeof mutants)[number]) => originalText(source, { start: { line: m.location.start.line + 1, column: m.location.start.column + 1 }, end: { line: m.location.end.line + 1, column: m.location.end.column + 1 } });
  return { ignored: mutants.filter((m) => m.status === 'Ignored').map(text), kept: mutants.filter((m) => m.status !== 'Ignored').map(text) };
}

describe('the fault-switch ignorer', () => {
  it('leaves out the branch a fault switch guards and the switch itself, keeps the rest', async () => {
    const { ignored, kept } = await ignoredIn([
      'export function f(ctx: any, x: number) {',
      "  if (ctx.faults.has('a') && x > 1) { return 'faulty'; }",
      "  return x + 1;",
      '}',
    ].join('\n'));
    expect(ignored).toContain("{ return 'faulty'; }");
    expect(ignored).toContain("ctx.faults.has('a') && x > 1");
    expect(kept).toContain('x + 1');
    expect(kept).not.toContain("'faulty'");
  });

  it('under a negated switch, leaves out the else branch only', async () => {
    const { ignored, kept } = await ignoredIn([
      'export function f(faults: any, list: number[]) {',
      "  if (!faults.has('b')) { list.push(1); } else { list.push(2); }",
      '}',
    ].join('\n'));
    expect(kept).toContain('{ list.push(1); }');
    expect(ignored).toContain('{ list.push(2); }');
  });

  it('follows a const holding a switch, and the fault arm of a ?:', async () => {
    const { ignored, kept } = await ignoredIn([
      'export function f(env: any, n: number) {',
      "  const loose = env.faults.has('c');",
      "  const v = env.faults.has('d') ? n - 1 : n * 2;",
      "  if (loose) return n / 3;",
      '  return v;',
      '}',
    ].join('\n'));
    expect(ignored).toEqual(expect.arrayContaining(['n - 1', 'n / 3']));
    expect(kept).toContain('n * 2');
  });

  it('leaves out a helper and a const that only fault-only code uses', async () => {
    const { ignored, kept } = await ignoredIn([
      'function helper(n: number) { return n * 7; }',
      'export function f(ctx: any, h: string) {',
      "  const parsed = h.trim();",
      "  if (ctx.faults.has('e') && parsed) return helper(1);",
      '  return h.length > 2;',
      '}',
    ].join('\n'));
    expect(ignored).toEqual(expect.arrayContaining(['n * 7', 'h.trim()']));
    expect(kept).toContain('h.length > 2');
  });

  it('keeps code that merely mentions faults without calling them', async () => {
    const { ignored } = await ignoredIn("export const g = (ctx: any) => new Set(ctx.faults && [1 + 2]);");
    expect(ignored).toEqual([]);
  });
});

describe('the triage (triage.mjs)', () => {
  const m = (over: Partial<ReportedMutant>): ReportedMutant => ({ file: 'mock/a.ts', line: 3, mutator: 'StringLiteral', replacement: '""', original: "'x'", status: 'Survived', ...over });
  const entry = (over: Partial<TriageEntry>): TriageEntry => ({ file: 'mock/a.ts', line: 3, mutator: 'StringLiteral', replacement: '""', original: "'x'", class: 'equivalent', why: 'not on the wire', ...over });

  it('matches a survivor by file, mutator, replacement and original text, whatever its line now', () => {
    const { survivors, stale } = matchTriage([m({ line: 9 })], [entry({ line: 3 })]);
    expect(survivors[0]!.triage?.class).toBe('equivalent');
    expect(stale).toEqual([]);
  });

  it('leaves a survivor with other text untriaged, and reports the entry as stale', () => {
    const { survivors, stale } = matchTriage([m({ original: "'y'" })], [entry({})]);
    expect(survivors[0]!.triage).toBeUndefined();
    expect(stale).toHaveLength(1);
  });

  it('gives each of two same mutants on one line an entry of its own', () => {
    const { survivors, stale } = matchTriage([m({}), m({})], [entry({}), entry({})]);
    expect(stale).toHaveLength(0);
    expect(survivors.every((s) => s.triage)).toBe(true);
  });

  it('picks the entry of the nearest line when several share the text', () => {
    const { survivors } = matchTriage([m({ line: 40 })], [entry({ line: 3, class: 'gap' }), entry({ line: 41, class: 'legal', spec: 's' })]);
    expect(survivors[0]!.triage?.class).toBe('legal');
  });

  it('scores killed and timed-out mutants over all but the ignored', () => {
    const s = scoreOf([m({ status: 'Killed' }), m({ status: 'Timeout' }), m({ status: 'Survived' }), m({ status: 'Ignored' })]);
    expect(s.score).toBeCloseTo(200 / 3);
    expect(s.ignored).toBe(1);
  });

  it('explains a timeout only by a hangs entry of the same mutant; a timeout without one is unexplained, an entry without one stale', () => {
    const hang = { file: 'mock/a.ts', line: 3, mutator: 'UpdateOperator', replacement: 'i--', original: 'i++', why: 'the loop never ends' };
    const { timeouts, stale } = matchHangs(
      [m({ status: 'Timeout', mutator: 'UpdateOperator', replacement: 'i--', original: 'i++', line: 7 }), m({ status: 'Timeout' }), m({ status: 'Survived', mutator: 'UpdateOperator', replacement: 'i--', original: 'i++' })],
      [hang, { ...hang, original: 'j++' }],
    );
    expect(timeouts.map((t) => t.hang?.why ?? null)).toEqual(['the loop never ends', null]);
    expect(stale).toEqual([{ ...hang, original: 'j++' }]);
  });

  it('reads the original text of a mutant spanning lines', () => {
    expect(originalText('ab\ncdef\ngh', { start: { line: 1, column: 2 }, end: { line: 3, column: 2 } })).toBe('b\ncdef\ng');
  });
});

describe('npm run mutation (run.mjs)', () => {
  it('takes folder names apart from the options it passes to Stryker', () => {
    expect(parseArgs(['oauth', '--concurrency', '1', 'events'])).toEqual({ folders: ['oauth', 'events'], passthrough: ['--concurrency', '1'], mutate: [] });
  });

  it('runs the folders a --mutate pattern names', () => {
    const { mutate } = parseArgs(['--mutate', 'mock/oauth/codes.ts,mock/events/**/*.ts']);
    expect(foldersOfMutate(mutate)).toEqual(['oauth', 'events']);
  });

  it('runs each scope of a folder apart, and the rest of the folder with its own scope', () => {
    const runs = runsOf('api');
    const scoped = FOLDERS.api.scopes.flatMap((s) => s.files);
    expect(runs.slice(0, -1)).toEqual(FOLDERS.api.scopes.map((s) => ({ only: s.only, mutate: s.files })));
    expect(runs.at(-1)).toEqual({ only: FOLDERS.api.only, mutate: [FOLDERS.api.mutate, ...scoped.map((f) => `!${f}`)] });
  });

  it('gives a --mutate file of a scope that scope, any other pattern the folder\'s', () => {
    const runs = runsOf('oauth', ['mock/oauth/pages.ts', 'mock/oauth/codes.ts']);
    expect(runs[0]).toEqual({ only: 'OAUTH-*', mutate: ['mock/oauth/pages.ts'] });
    expect(runs[1]!.only).toBe(FOLDERS.oauth.only);
    expect(runs[1]!.mutate[0]).toBe('mock/oauth/codes.ts');
    expect(runsOf('oauth', ['mock/api/users.ts'])).toEqual([]);
    expect(runsOf('api', ['mock/api/users.ts:28-29'])).toEqual([{ only: FOLDERS.api.scopes.find((s) => s.files.includes('mock/api/users.ts'))!.only, mutate: ['mock/api/users.ts:28-29'] }]);
  });

  it('merges a scope\'s results into the folder\'s file by file, keeping the other files', () => {
    const tests = { '': { tests: [{ id: '0', name: 'All tests' }] } };
    const committed = { schemaVersion: '1.0', files: { 'a.ts': { mutants: [1] }, 'b.ts': { mutants: [2] } }, testFiles: tests };
    const partial = { schemaVersion: '1.0', files: { 'b.ts': { mutants: [3] }, 'c.ts': { mutants: [4] } }, testFiles: tests };
    const merged = mergeResults(committed, partial);
    expect(merged.files).toEqual({ 'a.ts': { mutants: [1] }, 'b.ts': { mutants: [3] }, 'c.ts': { mutants: [4] } });
    expect(merged.testFiles).toEqual(tests);
    expect(mergeResults(null, partial)).toEqual(partial);
  });

  it('takes only the files the run mutated (Stryker\'s report carries the others, with stale locations)', () => {
    const committed = { files: { 'mock/x/a.ts': { mutants: [1] } } };
    const partial = { files: { 'mock/x/a.ts': { mutants: [9] }, 'mock/x/b.ts': { mutants: [2] } } };
    expect(mergeResults(committed, partial, ['mock/x/b.ts:3-4']).files).toEqual({ 'mock/x/a.ts': { mutants: [1] }, 'mock/x/b.ts': { mutants: [2] } });
    expect(mutatedBy('mock/x/a.ts', ['mock/x/**/*.ts', '!mock/x/b.ts'])).toBe(true);
    expect(mutatedBy('mock/x/b.ts', ['mock/x/**/*.ts', '!mock/x/b.ts'])).toBe(false);
    expect(mutatedBy('mock/y/a.ts', ['mock/x/**/*.ts'])).toBe(false);
  });

  it('keeps the mutants of a file\'s other lines when a run took some lines of an unchanged source', () => {
    const at = (line: number) => ({ mutatorName: 'StringLiteral', replacement: '""', location: { start: { line, column: 1 }, end: { line, column: 5 } } });
    const committed = { files: { 'a.ts': { source: 'x', mutants: [{ ...at(1), status: 'Survived' }, { ...at(2), status: 'Survived' }] } } };
    const partial = { files: { 'a.ts': { source: 'x', mutants: [{ ...at(2), status: 'Killed' }] } } };
    expect(mergeResults(committed, partial).files['a.ts']).toEqual({ source: 'x', mutants: [{ ...at(1), status: 'Survived' }, { ...at(2), status: 'Killed' }] });
    const changed = { files: { 'a.ts': { source: 'y', mutants: [{ ...at(2), status: 'Killed' }] } } };
    expect(mergeResults(committed, changed).files['a.ts']).toEqual(changed.files['a.ts']);
  });
});
