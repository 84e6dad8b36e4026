/**
 * What a verdict says, in words, the same in every report format: the terminal,
 * index.html, junit.xml properties and the Allure environment. A narrowed or
 * weakened run names its scope and its settings wherever its verdict appears.
 */
import type { ConformanceResult } from './result-file.js';
import { provenanceFacts } from './provenance-report.js';
import { NOT_SELECTED } from '../run/verdict.js';

type RunVerdict = ConformanceResult['verdict'];

export const VERDICT_TITLE: Record<RunVerdict, string> = {
  conformant: 'Conformant',
  partial: 'Partial',
  'not-conformant': 'Not conformant',
  incomplete: 'Incomplete',
  interrupted: 'Interrupted',
  interfered: 'Interfered',
  error: 'Could not run',
};

export const VERDICT_NOTE: Record<RunVerdict, string> = {
  conformant: 'Every MUST requirement that was tested passed.',
  partial: 'Everything in scope passed, but this run is no certificate: it was narrowed or weakened (below).',
  'not-conformant': 'At least one MUST requirement failed.',
  incomplete: 'No MUST requirement failed, but some were not tested.',
  interrupted: 'The run was stopped before it finished: only what ran is reported, nothing is certified.',
  interfered: 'Someone else acted on the target during this run (another run against the same target?): no result below can be trusted.',
  error: 'The run could not be carried out: nothing was judged.',
};

/** The terminal's verdict line. */
export const VERDICT_LINE: Record<RunVerdict, string> = {
  conformant: 'CONFORMANT',
  partial: 'PARTIAL (everything in scope passed; not a certificate)',
  'not-conformant': 'NOT CONFORMANT',
  incomplete: 'INCOMPLETE (no MUST failed; some MUST requirements were not tested)',
  interrupted: 'INTERRUPTED (stopped before the end; the reports hold what ran)',
  interfered: 'INTERFERED (the target was disturbed during the run; nothing can be trusted)',
  error: 'ERROR (the run could not be carried out)',
};

/** "3 of 114 requirements in scope (--only: …)", or null for a run of the whole catalog. */
export function scopeText(result: Pick<ConformanceResult, 'selection' | 'requirements'>): string | null {
  const only = result.selection.only;
  if (!only) return null;
  const total = result.selection.total ?? result.requirements.length;
  const inScope = result.selection.inScope ?? only.length;
  const shown = `${only.slice(0, 4).join(', ')}${only.length > 4 ? ` and ${only.length - 4} more` : ''}`;
  return `${inScope} of ${total} requirements in scope (--only: ${shown})`;
}

/**
 * How many not-tested requirements lie outside --only's scope: every one the selection left
 * out, an untestable one too (its reason is its own, not "not selected"). 0 without --only.
 */
export function notTestedOutsideScope(result: Pick<ConformanceResult, 'selection' | 'requirements'>): number {
  const only = result.selection.only;
  if (!only) return 0;
  // selection.only holds the expanded IDs; a result that kept patterns falls back on the reason.
  const selected = only.some((id) => id.includes('*')) ? null : new Set(only);
  return result.requirements.filter((r) => r.status === 'not-tested' && (selected ? !selected.has(r.id) : r.reason === NOT_SELECTED)).length;
}

/** "weakened by LOCKCONF_DELIVERY_WAIT_MS=3000 (an expected … instead of …)", or null. */
export function weakenedText(result: Pick<ConformanceResult, 'selection'>): string | null {
  const list = result.selection.weakenedBy ?? [];
  if (!list.length) return null;
  return `weakened by ${list.map((w) => `${w.setting}=${w.value} (${w.effect})`).join('; ')}`;
}

/** The scope and weakening facts as key/value pairs (junit properties, Allure environment). */
export function runFacts(result: ConformanceResult): Array<[string, string]> {
  const facts: Array<[string, string]> = [['lockconf.verdict', result.verdict]];
  const total = result.selection.total ?? result.requirements.length;
  facts.push(['lockconf.scope', `${result.selection.inScope ?? result.selection.only?.length ?? total} of ${total} requirements`]);
  if (result.selection.only) facts.push(['lockconf.only', result.selection.only.join(',')]);
  for (const w of result.selection.weakenedBy ?? []) facts.push([`lockconf.weakened.${w.setting}`, `${w.value} (${w.effect})`]);
  if (result.interference) facts.push(['lockconf.interference', result.interference]);
  facts.push(...provenanceFacts(result)); // what the run was (harness/provenance/), and its certificate
  return facts;
}
