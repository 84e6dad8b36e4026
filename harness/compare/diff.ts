/**
 * What changed between two runs A and B, requirement by requirement. Pure.
 *
 * A requirement's status is "judged" unless it is not-tested (not selected by
 * --only included). Judged outcomes rank passed = informational < warned <
 * blocked < failed:
 *   regressed         judged in both, worse in B (passed → failed, warned → failed, passed → warned…)
 *   fixed             judged in both, better in B
 *   newly-tested      not tested (or not in the catalog) in A, judged in B
 *   newly-not-tested  judged in A, not tested (or not in the catalog) in B
 *   changed           judged in both, same rank, other status (informational ↔ passed)
 *   unchanged         same status, or not tested in both
 * Slices (requirements[].slices) are compared for requirements judged in both:
 * a slice passed → failed is a regression even when the requirement failed in both.
 * `regression` (exit 1 of compare): any requirement or slice regressed.
 */
import type { ExplorationDepth } from '../report/exploration-depth.js';
import type { LoadedRun } from './load.js';
import { identityWarnings } from './identity.js';
import { headline } from '../report/reporter.js';

export type Category = 'regressed' | 'fixed' | 'newly-tested' | 'newly-not-tested' | 'changed' | 'unchanged';
export const CATEGORIES: readonly Category[] = ['regressed', 'fixed', 'newly-tested', 'newly-not-tested', 'changed', 'unchanged'];
export const CATEGORY_TITLE: Record<Category, string> = {
  regressed: 'regressed',
  fixed: 'fixed',
  'newly-tested': 'newly tested',
  'newly-not-tested': 'newly not tested',
  changed: 'changed',
  unchanged: 'unchanged',
};

export interface SliceChange {
  slice: string;
  /** Slice status in A / B; null when the slice is not listed there. */
  before: string | null;
  after: string | null;
  kind: Exclude<Category, 'unchanged'>;
}

export interface RequirementChange {
  id: string;
  level: string;
  /** A's level when the catalog changed it. */
  levelBefore?: string;
  section: string | null;
  category: Category;
  /** Status in A / B; null when the requirement is not in that run's catalog. */
  before: string | null;
  after: string | null;
  /** First line of B's reason (why it failed, warned or is not tested now); null when B passed. */
  reason: string | null;
  slices: SliceChange[];
}

export interface RunSummary {
  path: string;
  verdict: string;
  seed: number | null;
  startedAt: string | null;
  version: string;
}

export interface InputsComparison {
  /** identical: same digest; different: some test's inputs differ; not-recorded: a run has no `inputs` (older file). */
  state: 'identical' | 'different' | 'not-recorded';
  tests: number;
  values: number;
  /** Test names whose inputs differ or that drew inputs in one run only. */
  differing: string[];
}

export interface Comparison {
  schema: 1;
  a: RunSummary;
  b: RunSummary;
  verdict: { before: string; after: string; changed: boolean };
  /** Differences that make the comparison less meaningful (suite, spec, catalog, target, settings, scope), first line of the report. */
  warnings: string[];
  counts: Record<Category, number>;
  /** Slice regressions inside requirements counted unchanged or in another category. */
  sliceRegressions: number;
  /** Every requirement that is not unchanged, plus unchanged ones with slice changes; regressions first. */
  requirements: RequirementChange[];
  inputs: InputsComparison;
  /** How deep each run explored (additive; null: not recorded in that run). */
  exploration?: { a: ExplorationDepth | null; b: ExplorationDepth | null };
  regression: boolean;
}

type Req = LoadedRun['result']['requirements'][number];

const RANK: Record<string, number> = { passed: 0, informational: 0, warned: 1, blocked: 2, failed: 3 };

function judged(status: string | null): status is string {
  return status !== null && status !== 'not-tested';
}

/** The most telling line of a reason (the assertion, as the terminal summary shows it), with the slice it names. */
function firstLine(text: string | undefined | null): string | null {
  if (!text?.trim()) return null;
  const slice = /^\[[^\]]+\]/.exec(text.trim())?.[0];
  const line = headline(text.replace(/^\[[^\]]+\] /, '')).replace(/^assertion: /, '');
  return slice && !line.startsWith(slice) ? `${slice} ${line}` : line;
}

function categorise(before: string | null, after: string | null): Category {
  if (judged(before) && judged(after)) {
    const a = RANK[before] ?? 0;
    const b = RANK[after] ?? 0;
    if (b > a) return 'regressed';
    if (b < a) return 'fixed';
    return before === after ? 'unchanged' : 'changed';
  }
  if (judged(after)) return 'newly-tested';
  if (judged(before)) return 'newly-not-tested';
  return 'unchanged';
}

function sliceJudged(status: string | null): status is string {
  return status === 'passed' || status === 'failed';
}

function sliceChanges(a: Req, b: Req): SliceChange[] {
  const before = new Map((a.slices ?? []).map((s) => [s.slice, s.status]));
  const after = new Map((b.slices ?? []).map((s) => [s.slice, s.status]));
  const out: SliceChange[] = [];
  for (const slice of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(slice) ?? null;
    const y = after.get(slice) ?? null;
    if (x === y) continue;
    let kind: SliceChange['kind'];
    if (sliceJudged(x) && sliceJudged(y)) kind = y === 'failed' ? 'regressed' : 'fixed';
    else if (sliceJudged(y)) kind = 'newly-tested';
    else if (sliceJudged(x)) kind = 'newly-not-tested';
    else continue; // not-tested ↔ missing ↔ absent: nothing was judged either way
    out.push({ slice, before: x, after: y, kind });
  }
  return out;
}

function change(a: Req | undefined, b: Req | undefined): RequirementChange {
  const r = (b ?? a)!;
  const before = a?.status ?? null;
  const after = b?.status ?? null;
  const category = categorise(before, after);
  const slices = a && b && judged(before) && judged(after) ? sliceChanges(a, b) : [];
  const reasonOf = (x: Req | undefined) => (x && x.status !== 'passed' ? firstLine(x.reason) : null);
  return {
    id: r.id,
    level: r.level,
    ...(a && b && a.level !== b.level ? { levelBefore: a.level } : {}),
    section: (r as { section?: string }).section ?? null,
    category,
    before,
    after,
    reason: reasonOf(b),
    slices,
  };
}

function compareInputs(a: LoadedRun, b: LoadedRun): InputsComparison {
  if (!a.inputs || !b.inputs) return { state: 'not-recorded', tests: 0, values: 0, differing: [] };
  const names = [...new Set([...Object.keys(a.inputs.perTest), ...Object.keys(b.inputs.perTest)])].sort();
  const differing = names.filter((n) => a.inputs!.perTest[n]?.sha256 !== b.inputs!.perTest[n]?.sha256);
  return {
    state: a.inputs.digest === b.inputs.digest && differing.length === 0 ? 'identical' : 'different',
    tests: names.length,
    values: b.inputs.values,
    differing,
  };
}

function summary(run: LoadedRun): RunSummary {
  return { path: run.label, verdict: run.result.verdict, seed: run.provenance?.seed ?? run.result.seed ?? null, startedAt: run.result.startedAt ?? null, version: run.result.tool.version };
}

const ORDER: Record<Category, number> = { regressed: 0, fixed: 1, 'newly-tested': 2, 'newly-not-tested': 3, changed: 4, unchanged: 5 };

export function compareRuns(a: LoadedRun, b: LoadedRun): Comparison {
  const byIdA = new Map(a.result.requirements.map((r) => [r.id, r]));
  const byIdB = new Map(b.result.requirements.map((r) => [r.id, r]));
  const ids = [...new Set([...byIdB.keys(), ...byIdA.keys()])];
  const all = ids.map((id) => change(byIdA.get(id), byIdB.get(id)));
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, all.filter((x) => x.category === c).length])) as Record<Category, number>;
  const shown = all
    .filter((x) => x.category !== 'unchanged' || x.slices.length > 0)
    .sort((x, y) => ORDER[x.category] - ORDER[y.category] || Number(y.slices.some((s) => s.kind === 'regressed')) - Number(x.slices.some((s) => s.kind === 'regressed')));
  const sliceRegressions = all.filter((x) => x.category !== 'regressed').reduce((n, x) => n + x.slices.filter((s) => s.kind === 'regressed').length, 0);
  return {
    schema: 1,
    a: summary(a),
    b: summary(b),
    verdict: { before: a.result.verdict, after: b.result.verdict, changed: a.result.verdict !== b.result.verdict },
    warnings: identityWarnings(a, b),
    counts,
    sliceRegressions,
    requirements: shown,
    inputs: compareInputs(a, b),
    exploration: { a: a.result.exploration ?? null, b: b.result.exploration ?? null },
    regression: counts.regressed > 0 || sliceRegressions > 0,
  };
}

/** Whether B reproduces A: same verdict, every requirement and slice unchanged, the same generated inputs (when both recorded them). */
export function reproduces(c: Comparison): boolean {
  return !c.verdict.changed && c.requirements.length === 0 && c.inputs.state !== 'different';
}
