/** The end of a run in the terminal: the table per spec area, and the lines that lead with the root causes and group what each blocked. */
import { AREAS } from '../catalog/index.js';
import type { RequirementStatus } from '../run/outcome.js';
import { COUNTED_HERE, type RequirementResult } from '../run/verdict.js';
import type { ConformanceResult } from './result-file.js';

/**
 * The root causes first, each with what it blocked: "failed: OAUTH-CODE-EXCHANGE (MUST),
 * blocking 75: …". A requirement a root blocked is named under it, not again on its own.
 * One that was blocked while nothing it rests on failed in the run (an --only run that left
 * them out) says so: its live line read "blocked", and the failure counts here.
 */
export function rootCauseLines(requirements: readonly RequirementResult[], max = 8): string[] {
  const lines: string[] = [];
  const list = (ids: readonly string[]) => `${ids.slice(0, max).join(', ')}${ids.length > max ? ` and ${ids.length - max} more` : ''}`;
  for (const r of requirements.filter((x) => (x.status === 'failed' && !x.expected) || x.status === 'warned')) {
    const blocks = r.blocks ?? [];
    const countedHere = r.reason.startsWith(COUNTED_HERE) ? `: ${r.reason.split('\n')[0]}` : '';
    lines.push(`  ${r.status}: ${r.id} (${r.level})${blocks.length ? `, blocking ${blocks.length}: ${list(blocks)}` : ''}${countedHere}`);
  }
  // Blocked by a known deviation (--expect) only: no line above names them.
  const shown = new Set(requirements.filter((x) => (x.status === 'failed' && !x.expected) || x.status === 'warned').map((x) => x.id));
  const orphans = requirements.filter((x) => x.status === 'blocked' && !(x.blockedBy ?? []).some((b) => shown.has(b)));
  if (orphans.length) lines.push(`  blocked by a known deviation (--expect): ${list(orphans.map((x) => x.id))}`);
  return lines;
}

/** The summary table per spec area printed at the end of a run. */
export function summaryTable(result: Pick<ConformanceResult, 'requirements'>): string {
  const cols: Array<[string, RequirementStatus]> = [
    ['passed', 'passed'],
    ['failed', 'failed'],
    ['warned', 'warned'],
    ['not tested', 'not-tested'],
    ['info', 'informational'],
  ];
  // The blocked column only when something was: a clean run's table stays as it was.
  if (result.requirements.some((r) => r.status === 'blocked')) cols.splice(3, 0, ['blocked', 'blocked']);
  const areas = [...AREAS.filter((a) => result.requirements.some((r) => r.area === a))];
  for (const r of result.requirements) if (!areas.includes(r.area as (typeof AREAS)[number])) areas.push(r.area as (typeof AREAS)[number]);
  const width = Math.max(9, ...areas.map((a) => a.length));
  const head = `${'spec area'.padEnd(width)}  ${cols.map(([l]) => l.padStart(12)).join('')}`;
  const lines = [head, '-'.repeat(head.length)];
  const total = cols.map(() => 0);
  for (const area of areas) {
    const rs = result.requirements.filter((r) => r.area === area);
    const ns = cols.map(([, s]) => rs.filter((r) => r.status === s).length);
    ns.forEach((n, i) => (total[i]! += n));
    lines.push(`${area.padEnd(width)}  ${ns.map((n) => String(n).padStart(12)).join('')}`);
  }
  lines.push('-'.repeat(head.length), `${'total'.padEnd(width)}  ${total.map((n) => String(n).padStart(12)).join('')}`);
  return lines.join('\n');
}
