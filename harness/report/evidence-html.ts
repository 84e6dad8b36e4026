/**
 * The evidence part of index.html: each test's HTTP exchanges and captured
 * deliveries, written so a passing run stays small and a failing one readable.
 * - A test's evidence is rendered once, under the requirement it is declared
 *   for; other requirements it checked link to it.
 * - JSON bodies are pretty-printed; HTML pages (sign-in, consent, error pages)
 *   are elided to their title and size: they are the target's pages, not
 *   evidence of a rule, and they repeat in every sign-in.
 * - Response headers that every response of the run shares are listed once at
 *   the top of the evidence; each exchange shows only its own (and always
 *   content-type, location and x-access-token).
 * - Text inside <pre> only escapes &, < and >.
 */
import escapeHtml from 'escape-html';
import type { Exchange } from '../contracts.js';
import type { DeliveryEvidence } from '../run/outcome.js';
import type { ConformanceResult, TestEvidence } from './result-file.js';

const e = (value: unknown): string => escapeHtml(value === undefined || value === null ? '' : String(value));
/** Escape for element text: quotes stay as they are. */
const text = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const BODY_LIMIT = 8000;
const ALWAYS_SHOWN = new Set(['content-type', 'location', 'x-access-token', 'x-signature']);
/** Transport headers that say nothing about a rule of the spec. */
const TRANSPORT = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);

function clip(body: string): string {
  return body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}\n… (${body.length - BODY_LIMIT} more characters)` : body;
}

function contentType(headers: Record<string, string> | undefined): string {
  const found = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type');
  return (found?.[1] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A body as a reader wants it: JSON indented, an HTML page reduced to its title. */
export function presentBody(body: string, headers: Record<string, string> | undefined): string {
  if (!body) return '';
  const type = contentType(headers);
  const trimmed = body.trimStart();
  if (type === 'text/html' || /^<!doctype html|^<html/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim();
    return `(an HTML page of ${body.length} bytes${title ? `: "${title}"` : ''}; body not shown)`;
  }
  if (type.endsWith('json') || /^[[{]/.test(trimmed)) {
    try {
      return clip(JSON.stringify(JSON.parse(body), null, 2));
    } catch {
      /* not JSON after all */
    }
  }
  return clip(body);
}

/** Response headers (name: value) that every response of the run carries. */
export function commonResponseHeaders(result: Pick<ConformanceResult, 'tests'>): Map<string, string> {
  const responses = result.tests.flatMap((t) => t.exchanges).map((x) => x.response).filter((r): r is NonNullable<Exchange['response']> => !!r);
  if (responses.length < 2) return new Map();
  const common = new Map<string, string>(Object.entries(responses[0]!.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const res of responses.slice(1)) {
    const own = new Map(Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    for (const [k, v] of common) if (own.get(k) !== v) common.delete(k);
  }
  for (const k of ALWAYS_SHOWN) common.delete(k);
  return common;
}

function headerLines(headers: Record<string, string> | undefined, common: ReadonlyMap<string, string> = new Map()): string {
  const entries = Object.entries(headers ?? {}).filter(([k]) => !TRANSPORT.has(k.toLowerCase()));
  const own = entries.filter(([k, v]) => common.get(k.toLowerCase()) !== v);
  const hidden = entries.length - own.length;
  return [...own.map(([k, v]) => `${k}: ${v}`), ...(hidden ? [`(+ ${hidden} headers every response carries)`] : [])].join('\n');
}

function renderExchange(x: Exchange, n: number, common: ReadonlyMap<string, string>): string {
  const reqBody = presentBody(x.request.body, x.request.headers);
  const req = `${x.request.method} ${x.request.url}\n${headerLines(x.request.headers)}${reqBody ? `\n\n${reqBody}` : ''}`;
  const resBody = x.response ? presentBody(x.response.body, x.response.headers) : '';
  const res = x.response
    ? `${x.response.status}\n${headerLines(x.response.headers, common)}${resBody ? `\n\n${resBody}` : ''}`
    : `no response${x.error ? `: ${x.error}` : ''}`;
  const status = x.response ? String(x.response.status) : 'error';
  return `<details class="exchange"><summary><span class="mono">#${n} ${e(x.request.method)} ${e(shortUrl(x.request.url))}</span> → <b>${e(status)}</b> <span class="muted">${e(Math.round(x.durationMs))} ms</span></summary>
<div class="pair"><div><h5>Request</h5><pre>${text(req)}</pre></div><div><h5>Response</h5><pre>${text(res)}</pre></div></div></details>`;
}

function renderDelivery(d: DeliveryEvidence, n: number): string {
  const body = `${d.method} ${d.url}\n${headerLines(d.headers)}\n\n${presentBody(d.body, d.headers)}`;
  return `<details class="exchange"><summary><span class="mono">delivery #${n} ${e(d.method)} ${e(d.url)}</span> → answered <b>${e(d.answeredStatus)}</b> <span class="muted">inbox ${e(d.inbox)}</span></summary><pre>${text(body)}</pre></details>`;
}

/** The path (and query) of a URL, for one-line lists. */
function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** The path of a URL without its query, for one-line lists of passed tests (the query is in the full evidence). */
function pathOnly(url: string): string {
  const short = shortUrl(url);
  const q = short.indexOf('?');
  return q < 0 ? short : `${short.slice(0, q)}?…`;
}

/** Said once above the requirements (index-html.ts), not under each passed test: the page stays small. */
export const PASSED_EVIDENCE_NOTE = 'The evidence of a passed test lists one line per exchange; the exchanges in full are in conformance.json and the Allure report.';

/** One line per distinct exchange and delivery, repeats counted: what a passed requirement needs to show. */
function renderCompact(t: TestEvidence): string {
  const lines = [
    ...t.exchanges.map((x) => `${x.request.method} ${pathOnly(x.request.url)} → ${x.response ? x.response.status : 'no response'}`),
    ...t.deliveries.map((d) => `delivery ${d.method} ${pathOnly(d.url)} → answered ${d.answeredStatus}`),
  ];
  if (lines.length > GROUPED_ABOVE) return renderGrouped(lines);
  const items: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    while (j < lines.length && lines[j] === lines[i]) j++;
    items.push(`<li>${e(lines[i]!)}${j - i > 1 ? ` <span class="muted">×${j - i}</span>` : ''}</li>`);
    i = j;
  }
  return items.length
    ? `<ol class="xlist mono">${items.join('')}</ol>` // the page says once where the exchanges are in full (PASSED_EVIDENCE_NOTE)
    : '<p class="muted">No exchange or delivery was recorded.</p>';
}

/**
 * A passed test longer than this many lines (exploration makes hundreds of exchanges) lists each
 * distinct line once with its count, in the order each first came: the page stays small, and the
 * exchanges in order are in conformance.json.
 */
export const GROUPED_ABOVE = 60;

function renderGrouped(lines: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  const items = [...counts].map(([line, n]) => `<li>${e(line)}${n > 1 ? ` <span class="muted">×${n}</span>` : ''}</li>`);
  return `<p class="muted">${lines.length} lines, each distinct one once with its count, in the order each first came (in order: conformance.json).</p><ul class="xlist mono">${items.join('')}</ul>`;
}

/** A test's evidence: in full (failed, warned, informational, not tested), or one line per exchange (passed). */
export function renderTestEvidence(t: TestEvidence, common: ReadonlyMap<string, string>, full = true): string {
  if (!full) {
    const counts = `${t.exchanges.length} exchange${t.exchanges.length === 1 ? '' : 's'}, ${t.deliveries.length} deliver${t.deliveries.length === 1 ? 'y' : 'ies'}`;
    return `<details class="evidence" id="${e(t.anchor)}"><summary>Evidence: <span class="mono">${e(t.name)}</span> <span class="muted">(${e(t.state)}; ${e(counts)}${t.file ? `; ${e(t.file)}` : ''})</span></summary>
${renderCompact(t)}</details>`;
  }
  const parts = [
    ...t.exchanges.map((x, i) => renderExchange(x, i + 1, common)),
    ...t.deliveries.map((d, i) => renderDelivery(d, i + 1)),
  ];
  const counts = `${t.exchanges.length} exchange${t.exchanges.length === 1 ? '' : 's'}, ${t.deliveries.length} deliver${t.deliveries.length === 1 ? 'y' : 'ies'}`;
  return `<details class="evidence" id="${e(t.anchor)}"><summary>Evidence: <span class="mono">${e(t.name)}</span> <span class="muted">(${e(t.state)}; ${e(counts)}${t.file ? `; ${e(t.file)}` : ''})</span></summary>
${parts.length ? parts.join('\n') : '<p class="muted">No exchange or delivery was recorded.</p>'}</details>`;
}

/** A link to evidence rendered under another requirement. */
export function linkToEvidence(t: TestEvidence, home: string): string {
  return `<p class="evidence-link muted">Evidence: <a class="mono" href="#${e(t.anchor)}">${e(t.name)}</a> (shown under ${e(home)})</p>`;
}

/** Where each test's evidence is rendered: under its declared requirement, else the first that lists it. */
export function evidenceHomes(result: Pick<ConformanceResult, 'tests' | 'requirements'>): Map<string, string> {
  const homes = new Map<string, string>();
  const ids = new Set(result.requirements.map((r) => r.id));
  for (const t of result.tests) if (t.requirement && ids.has(t.requirement)) homes.set(t.name, t.requirement);
  for (const r of result.requirements) for (const name of r.tests) if (!homes.has(name)) homes.set(name, r.id);
  return homes;
}

export function renderCommonHeaders(common: ReadonlyMap<string, string>): string {
  if (!common.size) return '';
  return `<details class="common-headers"><summary>Headers every response of the run carries (${common.size}), left out of each exchange below</summary><pre>${text([...common].map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre></details>`;
}
