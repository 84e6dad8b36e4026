/**
 * compare.html: a comparison as a page in the style of index.html (its CSS,
 * escaping and status badges, harness/report/index-html.ts). Self-contained: no
 * script, no request to anywhere; every value escaped.
 */
import type { RequirementStatus } from '../run/outcome.js';
import { REPORT_CSS, escapeText as e, requirementAnchor, statusBadge } from '../report/index-html.js';
import { CATEGORIES, CATEGORY_TITLE, type Category, type Comparison, type RequirementChange } from './diff.js';
import { inputsLine } from './render-terminal.js';

const STATUSES: ReadonlySet<string> = new Set(['passed', 'failed', 'warned', 'not-tested', 'informational', 'blocked']);

/** A status badge; "missing" (a declared slice nobody exercised) reads as not tested; null as not in the catalog. */
function badgeOf(status: string | null): string {
  if (status === null) return '<span class="muted">not in catalog</span>';
  const s = status === 'missing' ? 'not-tested' : status;
  return STATUSES.has(s) ? statusBadge(s as RequirementStatus) : `<span class="mono">${e(status)}</span>`;
}

/** Which status colours a category's cards and count. */
const CATEGORY_STATUS: Record<Category, RequirementStatus> = {
  regressed: 'failed', fixed: 'passed', 'newly-tested': 'informational', 'newly-not-tested': 'not-tested', changed: 'warned', unchanged: 'not-tested',
};

const EXTRA_CSS = `
.warnings{list-style:none;padding:0;margin:0 0 16px}.warnings li{background:#fff8ec;border:1px solid #f0d9b0;border-left:5px solid var(--warned);border-radius:4px;padding:6px 10px;margin:4px 0}
.move{display:flex;gap:8px;align-items:center}.arrow{color:var(--muted)}
.slices-changed{margin:6px 0 0 0;padding-left:18px}.slices-changed li{margin:2px 0}
.inputs{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px}
.result{font-size:28px;font-weight:800;margin:4px 0}.result.r-regression{color:var(--failed)}.result.r-clean{color:var(--passed)}
`;

function renderRun(name: string, s: Comparison['a']): string {
  return `<tr><th>${e(name)}</th><td class="mono">${e(s.path)}</td><td>${e(s.verdict)}</td><td>${s.seed === null ? '—' : e(s.seed)}</td><td>${e(s.startedAt ?? '—')}</td><td>${e(s.version)}</td></tr>`;
}

/** `indexB`: B's index.html relative to the page, to link each requirement to its evidence; null: no links. */
function renderChange(r: RequirementChange, indexB: string | null): string {
  const level = r.levelBefore ? `${r.levelBefore}→${r.level}` : r.level;
  const slices = r.slices.length
    ? `<ul class="slices-changed">${r.slices.map((s) => `<li><span class="mono">${e(s.slice)}</span> ${badgeOf(s.before)} <span class="arrow">→</span> ${badgeOf(s.after)} <span class="muted">${e(CATEGORY_TITLE[s.kind])}</span></li>`).join('')}</ul>`
    : '';
  const status = CATEGORY_STATUS[r.category];
  return `<article class="req st-${e(status)}" data-category="${e(r.category)}" id="cmp-${e(r.id)}">
<header>${indexB && r.after !== null ? `<a class="id mono" href="${e(`${indexB}#${requirementAnchor(r.id)}`)}">${e(r.id)}</a>` : `<span class="id mono">${e(r.id)}</span>`} <span class="level l-${e(r.level)}">${e(level)}</span> <span class="move">${badgeOf(r.before)}<span class="arrow">→</span>${badgeOf(r.after)}</span>${r.section ? ` <span class="muted">${e(r.section)}</span>` : ''}</header>
${r.reason && r.category !== 'fixed' ? `<pre class="reason">${e(r.reason)}</pre>` : ''}${slices}
</article>`;
}

function renderCounts(c: Comparison): string {
  const items = CATEGORIES.map((cat) => `<li class="c-${e(CATEGORY_STATUS[cat])}" data-category="${e(cat)}"><span class="n">${e(c.counts[cat])}</span><span class="l">${e(CATEGORY_TITLE[cat])}</span></li>`);
  return `<ul class="counts">${items.join('')}</ul>`;
}

function renderGroups(c: Comparison, indexB: string | null): string {
  return CATEGORIES.map((cat) => {
    const rows = c.requirements.filter((r) => r.category === cat);
    if (!rows.length) return '';
    const title = cat === 'unchanged' ? 'Unchanged status, changed slices' : CATEGORY_TITLE[cat][0]!.toUpperCase() + CATEGORY_TITLE[cat].slice(1);
    return `<section id="cat-${e(cat)}"><h2>${e(title)} (${e(rows.length)})</h2>${rows.map((r) => renderChange(r, indexB)).join('\n')}</section>`;
  }).join('\n');
}

export function renderCompareHtml(c: Comparison, indexB: string | null = null): string {
  const regressions = c.counts.regressed + c.sliceRegressions;
  const headline = c.regression ? `${regressions} regression(s)` : 'No regression';
  const inputs = c.inputs.differing.length
    ? `<ul>${c.inputs.differing.map((n) => `<li class="mono">${e(n)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>lockconf compare: ${e(headline)}</title>
<style>${REPORT_CSS}${EXTRA_CSS}</style></head>
<body><main>
<h1>Lock Access Service conformance: comparison of two runs</h1>
<p class="result ${c.regression ? 'r-regression' : 'r-clean'}" data-regression="${c.regression ? 'true' : 'false'}">${e(headline)}</p>
<p class="verdict-note">Verdict ${c.verdict.changed ? `${e(c.verdict.before)} → ${e(c.verdict.after)}` : `${e(c.verdict.after)} (unchanged)`}</p>
${c.warnings.length ? `<ul class="warnings">${c.warnings.map((w) => `<li>${e(w)}</li>`).join('')}</ul>` : ''}
<table class="details"><thead><tr><th></th><th>Run</th><th>Verdict</th><th>Seed</th><th>Started</th><th>lockconf</th></tr></thead><tbody>${renderRun('A', c.a)}${renderRun('B', c.b)}</tbody></table>
<h2>Requirements</h2>
${renderCounts(c)}
${renderGroups(c, indexB)}
<h2>Generated inputs</h2>
<div class="inputs" data-inputs="${e(c.inputs.state)}"><p>${e(inputsLine(c))}</p>${inputs}</div>
<footer class="page">lockconf compare · A ${e(c.a.path)} · B ${e(c.b.path)}</footer>
</main></body></html>
`;
}
