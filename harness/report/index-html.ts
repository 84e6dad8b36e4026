/**
 * index.html: the page a person reads first. One self-contained file (inline
 * CSS, no script, no request to anywhere), readable on screen and on paper.
 * Every value from the run is escaped; the evidence was redacted by the
 * harness before it reached the result file.
 */
import type { RunGuardKind } from '../run/run-guard.js';
import escapeHtml from 'escape-html';
import type { RequirementStatus } from '../run/outcome.js';
import { summariseNotTested } from './not-tested-summary.js';
import { PASSED_EVIDENCE_NOTE, commonResponseHeaders, evidenceHomes, linkToEvidence, renderCommonHeaders, renderTestEvidence } from './evidence-html.js';
import type { RequirementResult } from '../run/verdict.js';
import type { SliceResult } from '../run/slice-results.js';
import type { ConformanceResult, TestEvidence } from './result-file.js';
import { VERDICT_NOTE, VERDICT_TITLE as VERDICT_TEXT, scopeText, weakenedText } from './verdict-text.js';
import { lockconfCommand } from '../commands/command-style.js';
import { renderCertificate, renderProvenance } from './provenance-report.js';
import { untestedMusts } from '../certify/certified-summary.js';
import { isRequirementId, requirement } from '../catalog/index.js';

const e = (value: unknown): string => escapeHtml(value === undefined || value === null ? '' : String(value));

const STATUS_ORDER: RequirementStatus[] = ['failed', 'warned', 'blocked', 'not-tested', 'informational', 'passed'];
const STATUS_LABEL: Record<RequirementStatus, string> = {
  failed: 'failed',
  warned: 'warned',
  blocked: 'blocked',
  'not-tested': 'not tested',
  informational: 'informational',
  passed: 'passed',
};
export function requirementAnchor(id: string): string {
  return `req-${id}`;
}

function statusRank(r: RequirementResult): number {
  return STATUS_ORDER.indexOf(r.status);
}

function badge(status: RequirementStatus, expected?: boolean): string {
  const label = expected ? `${STATUS_LABEL[status]} (expected)` : STATUS_LABEL[status];
  return `<span class="badge s-${e(status)}${expected ? ' expected' : ''}">${e(label)}</span>`;
}

function renderObservations(r: RequirementResult): string {
  if (!r.observations.length) return '';
  const rows = r.observations
    .map((o) => `<tr><th>${e(o.label)}</th><td><code>${e(JSON.stringify(o.value, null, 2) ?? 'undefined')}</code></td></tr>`)
    .join('');
  return `<table class="obs"><caption>Observations</caption>${rows}</table>`;
}

/**
 * The requirement's slices (conformance.json `slices`, harness/run/slice-results.ts), kept short:
 * how many passed per dimension, and each slice that did not, with its status.
 */
function renderSlices(r: RequirementResult & { slices?: SliceResult[] }): string {
  if (!r.slices?.length) return '';
  const passed = new Map<string, number>();
  for (const s of r.slices) if (s.status === 'passed') { const dim = s.slice.split('=')[0]!; passed.set(dim, (passed.get(dim) ?? 0) + 1); }
  const others = r.slices.filter((s) => s.status !== 'passed')
    .map((s) => `<span class="mono">${e(s.slice)}</span> ${badge(s.status === 'missing' ? 'not-tested' : s.status)}${s.status === 'missing' ? ' no test exercised it' : ''}`);
  const counts = [...passed].map(([dim, n]) => `${e(dim)} ${n}`).join(', ');
  // A failed or warned requirement whose every slice held failed outside them: say so, not "3/3 passed" alone.
  const outside = !others.length && (r.status === 'failed' || r.status === 'warned') ? `; the ${r.status === 'failed' ? 'failure' : 'warning'} is outside the slices (the requirement as a whole, reason above)` : '';
  return `<p class="slices"><b>Slices</b> ${r.slices.length - others.length}/${r.slices.length} passed${counts ? ` (${counts})` : ''}${others.length ? `; ${others.join('; ')}` : ''}${outside}</p>`;
}

interface EvidenceContext {
  tests: Map<string, TestEvidence>;
  homes: Map<string, string>;
  common: ReadonlyMap<string, string>;
}

function renderRequirement(r: RequirementResult, ctx: EvidenceContext): string {
  const evidence = r.tests.map((name) => ctx.tests.get(name)).filter((t): t is TestEvidence => !!t);
  const shown = evidence.map((t) => (ctx.homes.get(t.name) === r.id ? renderTestEvidence(t, ctx.common, r.status !== 'passed' || t.state === 'failed') : linkToEvidence(t, ctx.homes.get(t.name) ?? '')));
  const expectNote = r.expected
    ? `<p class="note">Known deviation (--expect)${r.expectComment ? `: ${e(r.expectComment)}` : ''}. It does not fail the run.</p>`
    : r.stale
      ? `<p class="note">Listed in the expect file, but passes now: the entry is stale.</p>`
      : '';
  const blockedNote = r.status === 'blocked' && r.blockedBy?.length
    ? `<p class="blocked-by">Blocked by ${r.blockedBy.map(idLink).join(', ')}: the test could not reach its check because that requirement failed. It is judged there, not here.</p>`
    : '';
  const blocksNote = r.blocks?.length
    ? `<p class="blocks">Root cause: this failure kept ${e(r.blocks.length)} other requirement(s) from being checked: ${r.blocks.map(idLink).join(', ')}.</p>`
    : '';
  const confirmedNote = (r.confirmedAfterTimeout ?? []).map((c) => `<p class="note confirmed">${e(confirmationText(c))}</p>`).join('');
  return `<article class="req st-${e(r.status)}" id="${e(requirementAnchor(r.id))}">
<header><a class="id mono" href="#${e(requirementAnchor(r.id))}">${e(r.id)}</a> <span class="level l-${e(r.level)}">${e(r.level)}</span> ${badge(r.status, r.expected)}</header>
${confirmedNote}${blockedNote}${blocksNote}${r.reason ? `<pre class="reason">${e(tidyReason(r.reason))}</pre>` : ''}${expectNote}
<blockquote class="rule">${e(r.rule)}<footer>${e(r.source)} · ${e(r.section)}</footer></blockquote>
${renderReading(r)}${renderSlices(r)}${renderObservations(r)}
${shown.join('\n')}
</article>`;
}

/** For a failed or warned requirement: lockconf's reading of the quoted sentence, the one it was judged on. */
function renderReading(r: RequirementResult): string {
  if (r.status !== 'failed' && r.status !== 'warned') return '';
  const reading = isRequirementId(r.id) ? requirement(r.id).reading : undefined;
  if (!reading) return '';
  return `<p class="reading"><b>Judged on this reading</b> (lockconf's, kept apart from the spec's sentence above): ${e(reading)}</p>`;
}

/** Every MUST of the scope that was never tested, first under the verdict: none of them is passed, none certified. */
function renderUntestedMusts(result: ConformanceResult): string {
  if (result.verdict === 'error') return '';
  const untested = untestedMusts(result);
  if (!untested.length) return '';
  return `<section class="untested-musts" data-count="${e(untested.length)}"><h2>${e(untested.length)} MUST requirement(s) not tested: never passed</h2><ul>${untested
    .map((u) => `<li>${idLink(u.id)} <span class="muted">${e(u.reason)}</span></li>`).join('')}</ul></section>`;
}

function idLink(id: string): string {
  return `<a class="mono" href="#${e(requirementAnchor(id))}">${e(id)}</a>`;
}

/** "Confirmed after a timeout: …", with both durations (harness/commands/confirm-timeouts.ts). */
export function confirmationText(c: NonNullable<RequirementResult['confirmedAfterTimeout']>[number]): string {
  const s = (ms: number | null) => (ms === null ? '?' : `${(ms / 1000).toFixed(1)} s`);
  return c.finished
    ? `Confirmed after a timeout: its test did not finish in the run (${s(c.firstDurationMs)}); run again alone, timeouts × ${c.timeoutScale} and deliveries waited for ${c.deliveryWaitMs} ms, it finished in ${s(c.durationMs)}, and that run judged it.`
    : `Its test did not finish in the run (${s(c.firstDurationMs)}), nor when run again alone with timeouts × ${c.timeoutScale} and deliveries waited for ${c.deliveryWaitMs} ms (${s(c.durationMs)}): the reason says what the harness was waiting for.`;
}

/**
 * A reason as a reader needs it under its requirement: the rule is quoted right
 * below, so its line goes; "expected: true / observed: false" of a boolean
 * check says less than the assertion line above it, so it goes too.
 */
export function tidyReason(reason: string): string {
  const lines = reason.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^rule \((MUST|SHOULD|INFO)\b/.test(line)) continue;
    if (/^expected: (true|false)$/.test(line) && /^observed: (true|false)$/.test(lines[i + 1] ?? '')) {
      i++;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** For an incomplete run: how many requirements were not tested, and the one thing that would test most. */
function renderNotTestedHint(result: ConformanceResult): string {
  if (result.verdict !== 'incomplete') return '';
  const summary = summariseNotTested(result.requirements);
  if (!summary.ids.length) return '';
  return `<p class="note">${e(summary.ids.length)} requirement(s) not tested${summary.best ? `; ${e(summary.best.what)} would test ${e(summary.best.count)} of them` : ''}.</p>`;
}

const GUARD_WORDS: Record<RunGuardKind, string> = {
  'control-lease': "the target's run lease",
  'reset-count': "the target's reset count",
  'local-lease': "this machine's lease on the target",
};

/** Which guards the run had against another run on its target (none said only for a target not the run's own). */
export function guardText(result: Pick<ConformanceResult, 'guards'>): string | null {
  if (!result.guards) return null;
  if (!result.guards.length) return 'Guarded against another run on the target by: nothing (another run at the same time would go unnoticed).';
  return `Guarded against another run on the target by: ${result.guards.map((g) => GUARD_WORDS[g]).join(', ')}.`;
}

/** The scope and the weakening settings of a narrowed or weakened run, and what showed interference, under the verdict. */
function renderScope(result: ConformanceResult): string {
  const lines = [scopeText(result), weakenedText(result), result.interference ?? null, guardText(result)].filter((l): l is string => !!l);
  if (!lines.length) return '';
  return `<p class="scope" data-partial="${result.selection.partial ? 'true' : 'false'}">${lines.map(e).join('<br>')}</p>`;
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

function worst(rs: readonly RequirementResult[]): number {
  return Math.min(...rs.map(statusRank));
}

function renderAreaTable(result: ConformanceResult): string {
  const areas = groupBy(result.requirements, (r) => r.area);
  // The blocked column only when something was: a clean run's table stays as it was.
  const columns = STATUS_ORDER.filter((s) => s !== 'blocked' || result.requirements.some((r) => r.status === 'blocked'));
  const rows = [...areas].map(([area, rs]) => {
    const cell = (s: RequirementStatus) => {
      const n = rs.filter((r) => r.status === s).length;
      return `<td class="${n ? `c-${s}` : 'zero'}">${n}</td>`;
    };
    return `<tr><th><a href="#area-${e(slug(area))}">${e(area)}</a></th>${columns.map(cell).join('')}</tr>`;
  });
  return `<table class="areas"><thead><tr><th>Spec area</th>${columns.map((s) => `<th>${e(STATUS_LABEL[s])}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function fmtDuration(startedAt: string, finishedAt: string): string {
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * When the run started and ended, said once: the command's span (provenance, from the command
 * line to the last report) when the CLI wrote it, else the test run's.
 */
function runSpan(result: ConformanceResult): { startedAt: string; finishedAt: string } {
  const p = result.provenance;
  return p ? { startedAt: p.startedAt, finishedAt: p.finishedAt } : { startedAt: result.startedAt, finishedAt: result.finishedAt };
}

/** A client grading's target: the grading mock the user started, never the run's embedded one. */
const GRADING_MOCK = "the grading mock (lockconf mock --grade), grading an application's OAuth client";

function renderDetails(result: ConformanceResult): string {
  const t = result.target;
  const rows: Array<[string, string]> = [
    ['Target', result.provenance?.mode === 'client' ? GRADING_MOCK : t.mock ? 'embedded reference mock' : 'remote implementation'],
    ['Auth URL', t.authUrl ?? '—'],
    ['API base URL', t.baseUrl ?? '—'],
    ['Started', runSpan(result).startedAt],
    ['Finished', `${runSpan(result).finishedAt} (${fmtDuration(runSpan(result).startedAt, runSpan(result).finishedAt)})`],
    ['Seed', result.seed === null ? '—' : String(result.seed)],
    ['Tool', `${result.tool.name} ${result.tool.version}`],
  ];
  if (t.receiverUrl) rows.splice(1, 0, ['Webhook receiver', t.receiverUrl]);
  const scope = scopeText(result);
  if (scope) rows.push(['Scope', scope]);
  for (const w of result.selection.weakenedBy ?? []) rows.push(['Weakened by', `${w.setting}=${w.value}: ${w.effect}`]);
  if (result.expect) rows.push(['Known deviations', `${result.expect.file}${result.expect.stale.length ? ` (stale: ${result.expect.stale.join(', ')})` : ''}`]);
  if (t.missing && Object.keys(t.missing).length) {
    rows.push(['Missing capabilities', Object.entries(t.missing).map(([k, v]) => `${k}: ${v}`).join('; ')]);
  }
  return `<table class="details">${rows.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`;
}

function renderCounts(result: ConformanceResult): string {
  const c = result.counts;
  const items: Array<[RequirementStatus, number]> = [
    ['passed', c.passed],
    ['failed', c.failed],
    ['warned', c.warned],
    ['not-tested', c.notTested],
    ['informational', c.informational],
  ];
  if (c.blocked) items.splice(3, 0, ['blocked', c.blocked]);
  return `<ul class="counts">${items
    .map(([s, n]) => `<li class="c-${e(s)}" data-status="${e(s)}"><span class="n">${e(n)}</span><span class="l">${e(STATUS_LABEL[s])}</span></li>`)
    .join('')}</ul>${c.expectedFailures ? `<p class="note">${e(c.expectedFailures)} of the failures are known deviations listed with --expect.</p>` : ''}`;
}

/** The root causes first (failed and warned), each with what it blocked beneath it. */
function renderAttention(result: ConformanceResult): string {
  const bad = result.requirements.filter((r) => r.status === 'failed' || r.status === 'warned').sort((a, b) => statusRank(a) - statusRank(b));
  if (!bad.length) return '';
  const shown = new Set(bad.map((r) => r.id));
  const orphans = result.requirements.filter((r) => r.status === 'blocked' && !(r.blockedBy ?? []).some((b) => shown.has(b)));
  const blocked = result.requirements.filter((r) => r.status === 'blocked').length;
  const item = (r: RequirementResult) => `<li>${badge(r.status, r.expected)} ${idLink(r.id)} <span class="muted">${e(r.level)} · ${e(r.section)}</span>${r.blocks?.length
    ? `<details class="blocked-list"><summary>blocked ${e(r.blocks.length)} other requirement(s)</summary>${r.blocks.map(idLink).join(' ')}</details>`
    : ''}</li>`;
  return `<section class="attention"><h2>${blocked ? 'Root causes (failed and warned) and what they blocked' : 'Failed and warned'}</h2><ul>${bad.map(item).join('')}${orphans.length
    ? `<li>${badge('blocked')} by a known deviation (--expect): ${orphans.map((r) => idLink(r.id)).join(' ')}</li>`
    : ''}</ul></section>`;
}

function renderRequirements(result: ConformanceResult, common: ReadonlyMap<string, string>): string {
  const ctx: EvidenceContext = { tests: new Map(result.tests.map((t) => [t.name, t])), homes: evidenceHomes(result), common };
  const areas = [...groupBy(result.requirements, (r) => r.area)].sort((a, b) => worst(a[1]) - worst(b[1]));
  return areas
    .map(([area, rs]) => {
      const sections = [...groupBy(rs, (r) => r.section)].sort((a, b) => worst(a[1]) - worst(b[1]));
      return `<section class="area" id="area-${e(slug(area))}"><h2>${e(area)}</h2>${sections
        .map(([section, items]) => `<h3>${e(section)}</h3>${[...items].sort((a, b) => statusRank(a) - statusRank(b)).map((r) => renderRequirement(r, ctx)).join('\n')}`)
        .join('\n')}</section>`;
    })
    .join('\n');
}

const CSS = `
:root{--fg:#1d2330;--muted:#5d6678;--bg:#f6f7f9;--card:#fff;--line:#dde1e8;
--passed:#1a7f37;--failed:#c62828;--warned:#b26a00;--not-tested:#57606a;--informational:#1f5fb8;--partial:#4a5568;--blocked:#7a4fb5}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:15px;font-weight:600;color:var(--muted);margin:0 0 8px;text-transform:uppercase;letter-spacing:.08em}
h2{font-size:22px;margin:32px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:16px;margin:20px 0 8px;color:var(--muted)}
a{color:#1f5fb8}
.mono,code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px}
.muted{color:var(--muted)}
.verdict{font-size:56px;font-weight:800;line-height:1.1;margin:4px 0}
.verdict.v-conformant{color:var(--passed)}.verdict.v-not-conformant{color:var(--failed)}.verdict.v-incomplete{color:var(--warned)}.verdict.v-error{color:var(--failed)}
.verdict.v-partial{color:var(--partial)}.verdict.v-interrupted,.verdict.v-interfered{color:var(--warned)}
.scope{font-size:15px;margin:0 0 12px;padding:6px 10px;border-left:5px solid var(--partial);background:var(--card)}
.run-error{white-space:pre-wrap;background:#fff4f4;border:1px solid #f3caca;border-left:5px solid var(--failed);border-radius:4px;padding:10px;margin:8px 0 16px;font-size:15px}
.verdict-note{font-size:17px;margin:0 0 16px}
.top{display:grid;grid-template-columns:1fr 1fr;gap:24px;align-items:start}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:top}
.details th{width:11em;color:var(--muted);font-weight:500}
.counts{list-style:none;display:flex;gap:10px;padding:0;margin:0;flex-wrap:wrap}
.counts li{background:var(--card);border:1px solid var(--line);border-top:5px solid var(--line);border-radius:6px;padding:6px 12px;min-width:84px}
.counts .n{display:block;font-size:28px;font-weight:700}.counts .l{color:var(--muted);font-size:13px}
.counts li.c-passed{border-top-color:var(--passed)}.counts li.c-failed{border-top-color:var(--failed)}.counts li.c-warned{border-top-color:var(--warned)}
.counts li.c-not-tested{border-top-color:var(--not-tested)}.counts li.c-blocked{border-top-color:var(--blocked)}.counts li.c-informational{border-top-color:var(--informational)}
.areas td{text-align:center;width:11%}.areas td.zero{color:#b0b6c0}
.areas td.c-failed{color:var(--failed);font-weight:700}.areas td.c-blocked{color:var(--blocked);font-weight:700}.areas td.c-warned{color:var(--warned);font-weight:700}.areas td.c-passed{color:var(--passed)}
.links a{margin-right:16px}
.badge{display:inline-block;border-radius:10px;padding:0 9px;font-size:12px;font-weight:700;color:#fff;text-transform:uppercase;letter-spacing:.03em}
.badge.s-passed{background:var(--passed)}.badge.s-failed{background:var(--failed)}.badge.s-warned{background:var(--warned)}
.badge.s-not-tested{background:var(--not-tested)}.badge.s-blocked{background:var(--blocked)}.badge.s-informational{background:var(--informational)}.badge.expected{opacity:.7}
.level{font-size:12px;font-weight:700;border:1px solid var(--line);border-radius:4px;padding:0 6px;color:var(--muted)}
.level.l-MUST{color:var(--fg)}
.req{overflow-wrap:anywhere;background:var(--card);border:1px solid var(--line);border-left:5px solid var(--not-tested);border-radius:6px;padding:10px 14px;margin:10px 0;break-inside:avoid}
.req.st-passed{border-left-color:var(--passed)}.req.st-failed{border-left-color:var(--failed)}.req.st-warned{border-left-color:var(--warned)}.req.st-informational{border-left-color:var(--informational)}.req.st-blocked{border-left-color:var(--blocked)}
.blocked-by,.blocks{margin:6px 0}.blocked-list{margin:2px 0 6px 16px}.blocked-list summary{cursor:pointer;color:var(--muted)}.blocked-list a{margin-right:8px}
.req header{display:flex;gap:10px;align-items:center}.req .id{font-weight:700;font-size:15px;color:var(--fg);text-decoration:none}
.reason{white-space:pre-wrap;background:#fff4f4;border:1px solid #f3caca;border-radius:4px;padding:8px;margin:8px 0}
.st-warned .reason{background:#fff8ec;border-color:#f0d9b0}.st-blocked .reason,.st-not-tested .reason,.st-informational .reason{background:#f3f4f6;border-color:var(--line)}
.rule{margin:8px 0;padding:4px 12px;border-left:3px solid var(--line);color:#3a4150;font-style:italic}
.rule footer{font-style:normal;font-size:12px;color:var(--muted)}
.obs{margin:8px 0;width:100%;table-layout:fixed}.obs th{width:13em}.obs caption{text-align:left;font-weight:600;color:var(--muted);font-size:13px}
.obs code{white-space:pre-wrap;overflow-wrap:anywhere;display:block;max-height:240px;overflow:auto}
.evidence{margin:6px 0}.xlist{margin:4px 0 4px 16px;padding-left:24px}.xlist li{overflow-wrap:anywhere}.common-headers{margin:16px 0}.common-headers>summary{cursor:pointer;color:var(--muted)}.evidence>summary{cursor:pointer;color:var(--muted)}
.exchange{margin:4px 0 4px 16px}.exchange summary{cursor:pointer;overflow-wrap:anywhere}.evidence>summary{word-break:break-word}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:8px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f4f6;border:1px solid var(--line);border-radius:4px;padding:8px;margin:4px 0;max-height:420px;overflow:auto}
h5{margin:4px 0;font-size:12px;color:var(--muted)}
.note{color:var(--warned);margin:6px 0}
.attention ul{list-style:none;padding:0}.attention li{margin:3px 0}
footer.page{margin:40px 0 0;color:var(--muted);font-size:13px}
@media (max-width:760px){.top,.pair{grid-template-columns:1fr}.verdict{font-size:40px}}
@media print{body{background:#fff;font-size:11pt}main{max-width:none;padding:0}
.links,.evidence{display:none}.req{border:1px solid #999;border-left-width:5px}
a{color:inherit;text-decoration:none}pre{max-height:none}h2{break-after:avoid}h3{break-after:avoid}
.badge{-webkit-print-color-adjust:exact;print-color-adjust:exact}.counts li{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

/** The Allure report loads its data over HTTP: opened from disk it spins forever. How to serve it. */
function allureServeNote(): string {
  return `<span class="muted" data-testid="allure-serve">(needs to be served over HTTP: opened from disk it keeps loading. `
    + `<code>${e(lockconfCommand('report:serve'))}</code> serves reports/ at http://127.0.0.1:4020/, this run at /latest/allure-report/ when it is the latest; `
    + 'or serve this folder with any static web server)</span>';
}

export function renderIndexHtml(result: ConformanceResult): string {
  const common = commonResponseHeaders(result);
  const links = [
    result.links.allure ? `<a href="${e(result.links.allure)}">Allure report (drill-down)</a> ${allureServeNote()}` : '',
    `<a href="${e(result.links.junit)}">junit.xml</a>`,
    `<a href="conformance.json">conformance.json</a>`,
  ].filter(Boolean);
  const runError = result.verdict === 'error' && result.error
    ? `<p class="run-error" data-error-code="${e(result.error.code)}"><b>${e(result.error.code)}</b><br>${e(result.error.message)}</p>`
    : '';
  const otherErrors = result.verdict === 'error' ? result.errors.slice(1) : result.errors;
  const errors = otherErrors.length
    ? `<section><h2>Errors outside the tests</h2>${otherErrors.map((m) => `<pre class="reason">${e(m)}</pre>`).join('')}</section>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>lockconf: ${e(VERDICT_TEXT[result.verdict])} · ${e(result.target.baseUrl ?? 'target')}</title>
<style>${CSS}</style></head>
<body><main>
<h1>Lock Access Service conformance report</h1>
<div class="top"><div>
<p class="verdict v-${e(result.verdict)}" data-verdict="${e(result.verdict)}">${e(VERDICT_TEXT[result.verdict])}</p>
<p class="verdict-note">${e(VERDICT_NOTE[result.verdict])}</p>
${renderScope(result)}${runError}${renderUntestedMusts(result)}${renderNotTestedHint(result)}${renderCounts(result)}
<p class="links">${links.join('')}</p>
</div><div>${renderDetails(result)}</div></div>
${renderCertificate(result)}
<h2>By spec area</h2>
${renderAreaTable(result)}
${renderAttention(result)}
${errors}
${renderCommonHeaders(common)}
<p class="muted">${e(PASSED_EVIDENCE_NOTE)}</p>
${renderRequirements(result, common)}
${renderProvenance(result)}
<footer class="page">${e(result.tool.name)} ${e(result.tool.version)} · ${e(result.requirements.length)} requirements · finished ${e(result.finishedAt)}</footer>
</main></body></html>
`;
}

/** The page's style and helpers, for other pages of a run folder (compare.html) to look the same. */
export { CSS as REPORT_CSS, e as escapeText, badge as statusBadge };
