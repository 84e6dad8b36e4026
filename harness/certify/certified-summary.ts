/**
 * What a certified package certifies, for `verify` to print before its conclusion:
 * the suite (version, commit, clean work tree or not), the spec's and catalog's
 * digests, the target, the scope, the verdict, and every MUST the run never tested
 * (a certificate that says less than it seems to must say so in so many words).
 */
import type { ConformanceResult } from '../report/result-file.js';
import { NOT_SELECTED } from '../run/verdict.js';
import { describeDepth } from '../report/exploration-depth.js';

function suiteLine(result: ConformanceResult): string {
  const p = result.provenance;
  if (!p) return `lockconf ${result.tool?.version ?? '?'} (no provenance recorded)`;
  const s = p.suite.source;
  if (s.kind === 'git') {
    const tree = s.clean === true ? 'clean work tree' : s.clean === false ? 'work tree with uncommitted changes' : 'work tree state unknown';
    return `lockconf ${p.suite.version}, git commit ${s.commit}${s.branch ? ` (${s.branch})` : ''}, ${tree}`;
  }
  return `lockconf ${p.suite.version}, installed package${s.integrity ? ` ${s.integrity}` : ' (integrity unknown)'}`;
}

function targetLine(result: ConformanceResult): string {
  const t = result.provenance?.target;
  const where = t?.baseUrl ?? result.target?.baseUrl ?? '?';
  const mock = t?.mock ?? result.target?.mock ?? false;
  const receiver = t?.receiverUrl ? `, receiver ${t.receiverUrl}` : '';
  const which = result.provenance?.mode === 'client' ? ' (the grading mock, lockconf mock --grade)' : mock ? ' (the embedded reference mock)' : '';
  return `${where}${which}${receiver}${t?.clientId ? `, client ${t.clientId}` : ''}`;
}

function scopeLine(result: ConformanceResult): string {
  const total = result.selection.total ?? result.requirements.length;
  if (!result.selection.only) return `all ${total} requirements`;
  return `${result.selection.inScope ?? result.selection.only.length} of ${total} requirements (--only ${result.selection.only.join(',')})`;
}

/** The MUST requirements in the run's scope reported not tested (or blocked), with why. */
export function untestedMusts(result: Pick<ConformanceResult, 'requirements'>): Array<{ id: string; reason: string }> {
  return result.requirements
    .filter((r) => r.level === 'MUST' && (r.status === 'not-tested' || r.status === 'blocked') && r.reason !== NOT_SELECTED)
    .map((r) => ({ id: r.id, reason: r.reason }));
}

export function certifiedLines(result: ConformanceResult): string[] {
  const p = result.provenance;
  const untested = untestedMusts(result);
  return [
    'What was certified:',
    `  suite     ${suiteLine(result)}`,
    `  spec      ${p ? `${p.spec.path} sha256 ${p.spec.sha256}` : '?'}`,
    `  catalog   ${p ? `sha256 ${p.catalog.sha256} (${p.catalog.requirements} requirements)` : '?'}`,
    `  target    ${targetLine(result)}`,
    `  scope     ${scopeLine(result)}`,
    `  verdict   ${result.verdict}`,
    `  explored  ${describeDepth(result.exploration)}`,
    untested.length ? `  MUSTs not tested (${untested.length}): never passed, not covered by this certificate` : '  MUSTs not tested: none',
    ...untested.map((u) => `    ${u.id}: ${u.reason}`),
  ];
}
