/**
 * A comparison in the terminal: short and grouped, regressions first. The
 * warnings (suite, spec, catalog, target, settings, scope) come before anything
 * else; long groups other than regressions and fixes are cut with a count (the
 * --json and --html output list everything).
 */
import { describeDepth } from '../report/exploration-depth.js';
import { CATEGORIES, CATEGORY_TITLE, type Category, type Comparison, type RequirementChange } from './diff.js';

const LIMIT: Record<Category, number> = { regressed: 60, fixed: 60, 'newly-tested': 12, 'newly-not-tested': 12, changed: 12, unchanged: 12 };

/** "not tested" rather than "not-tested"; "—" when not in the catalog. */
export function statusText(status: string | null): string {
  return status === null ? '(not in catalog)' : status.replace('-', ' ');
}

function row(r: RequirementChange): string[] {
  const level = r.levelBefore ? `${r.levelBefore}→${r.level}` : r.level;
  const move = r.category === 'unchanged' ? statusText(r.after) : `${statusText(r.before)} → ${statusText(r.after)}`;
  const reason = r.reason && (r.category !== 'fixed' && r.category !== 'unchanged') ? `  ${r.reason.length > 100 ? `${r.reason.slice(0, 100)}…` : r.reason}` : '';
  const lines = [`  ${level.padEnd(7)} ${r.id.padEnd(36)} ${move}${reason}`];
  const SLICES = 6;
  for (const s of r.slices.slice(0, SLICES)) lines.push(`  ${''.padEnd(7)}   slice ${s.slice.padEnd(28)} ${statusText(s.before)} → ${statusText(s.after)} (${CATEGORY_TITLE[s.kind]})`);
  if (r.slices.length > SLICES) lines.push(`  ${''.padEnd(7)}   … and ${r.slices.length - SLICES} more slice change(s)`);
  return lines;
}

function runLine(name: string, s: Comparison['a']): string {
  return `${name}: ${s.path} (${s.verdict}${s.seed === null ? '' : `, seed ${s.seed}`}${s.startedAt ? `, ${s.startedAt}` : ''})`;
}

export function inputsLine(c: Comparison): string {
  const i = c.inputs;
  if (i.state === 'not-recorded') return 'generated inputs: not recorded in both runs (a file from an older lockconf): cannot tell whether they match';
  if (i.state === 'identical') return i.tests ? `generated inputs: identical (${i.tests} property test(s), ${i.values} values)` : 'generated inputs: none in either run (no property test ran)';
  return `generated inputs: differ in ${i.differing.length} of ${i.tests} property test(s): ${i.differing.map((n) => n.split(':')[0]).join(', ')}`;
}

/** How deep A and B explored: the same sequences (same seed and depth) or not. */
export function explorationLine(c: Comparison): string {
  const e = c.exploration!;
  const same = e.a && e.b && e.a.seed === e.b.seed && e.a.sequences === e.b.sequences && e.a.commands === e.b.commands && e.a.hookSequences === e.b.hookSequences;
  return same ? `exploration: the same in both (${describeDepth(e.b)})` : `exploration: A ${describeDepth(e.a)}; B ${describeDepth(e.b)}`;
}

/** `result`: end with the compare's own result line and exit code (replay says its own). */
export function renderTerminal(c: Comparison, opts: { result?: boolean } = {}): string {
  const out: string[] = [runLine('A', c.a), runLine('B', c.b)];
  for (const w of c.warnings) out.push(`warning: ${w}`);
  out.push(c.verdict.changed ? `verdict: ${c.verdict.before} → ${c.verdict.after}` : `verdict: ${c.verdict.after} (unchanged)`);
  for (const category of CATEGORIES) {
    const rows = c.requirements.filter((r) => r.category === category);
    if (category === 'unchanged') {
      const withSlices = rows.length;
      out.push('', `unchanged: ${c.counts.unchanged} requirement(s)${withSlices ? `, ${withSlices} of them with slice changes:` : ''}`);
    } else {
      if (!rows.length) continue;
      out.push('', `${CATEGORY_TITLE[category]} (${rows.length})`);
    }
    const limit = LIMIT[category];
    for (const r of rows.slice(0, limit)) out.push(...row(r));
    if (rows.length > limit) out.push(`  … and ${rows.length - limit} more (--json or --html list them all)`);
  }
  out.push('', inputsLine(c));
  if (c.exploration) out.push(explorationLine(c));
  if (opts.result === false) return `${out.join('\n')}\n`;
  const regressions = c.counts.regressed + c.sliceRegressions;
  out.push(c.regression
    ? `result: ${regressions} regression(s)${c.sliceRegressions ? ` (${c.sliceRegressions} of them slices)` : ''}: exit 1`
    : `result: no regression (${c.counts.fixed} fixed, ${c.counts['newly-tested']} newly tested, ${c.counts['newly-not-tested']} newly not tested): exit 0`);
  return `${out.join('\n')}\n`;
}
