/**
 * junit.xml, written from the same result as conformance.json and index.html,
 * so CI systems count what the other reports count: one test case per
 * requirement of the catalog, named "<ID>: <title>", grouped in one test suite
 * per spec area.
 *
 *   failed                     <failure> (MUST; a known deviation from --expect is a pass with a note)
 *   warned (SHOULD)            passes, with the reason in <system-out> ("warned: …")
 *   informational (INFO)       passes, with the observations in <system-out>
 *   not tested                 <skipped message="not tested: …">
 *   blocked                    <skipped message="blocked by <ID>: …"> (the root cause is its own
 *                              <failure>, whose message names how many it blocked)
 *   verdict error              one extra case with <error>, every requirement skipped
 *
 * Every test suite carries the run's verdict, scope and weakening settings as
 * <properties> (lockconf.verdict, lockconf.scope, lockconf.only,
 * lockconf.weakened.<setting>, lockconf.interference): a CI system that reads only
 * junit.xml still sees that a run was partial.
 */
import type { RequirementResult } from '../run/verdict.js';
import type { ConformanceResult } from './result-file.js';
import { runFacts } from './verdict-text.js';

const INVALID_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The title a requirement's test case carries: its own test's title, else the start of its rule. */
export function requirementTitle(r: RequirementResult, tests: ConformanceResult['tests']): string {
  const own = tests.find((t) => t.requirement === r.id || t.name.startsWith(`${r.id}:`));
  if (own) return own.name.slice(own.name.indexOf(':') + 1).trim();
  const rule = r.rule.replace(/\s+/g, ' ').trim();
  return rule.length > 100 ? `${rule.slice(0, 99)}…` : rule;
}

/** The first line of a reason, for an attribute. */
function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
}

function durationOf(r: RequirementResult, tests: ConformanceResult['tests']): number {
  const names = new Set(r.tests);
  return tests.filter((t) => names.has(t.name)).reduce((sum, t) => sum + (t.durationMs ?? 0), 0) / 1000;
}

function testCase(r: RequirementResult, result: ConformanceResult): string {
  const name = `${r.id}: ${requirementTitle(r, result.tests)}`;
  const open = `    <testcase classname="lockconf.${xmlEscape(r.area)}" name="${xmlEscape(name)}" time="${durationOf(r, result.tests).toFixed(3)}">`;
  const body: string[] = [];
  const props = [`level=${r.level}`, `status=${r.status}`, ...(r.expected ? ['expected=true'] : []),
    ...(r.blockedBy?.length ? [`blockedBy=${r.blockedBy.join(' ')}`] : []), ...(r.blocks?.length ? [`blocks=${r.blocks.join(' ')}`] : [])];
  const blocks = r.blocks?.length ? `\n\nroot cause: it blocked ${r.blocks.length} other requirement(s): ${r.blocks.join(', ')}` : '';
  body.push(`      <properties>${props.map((p) => { const [k, v] = p.split('='); return `<property name="${xmlEscape(k!)}" value="${xmlEscape(v!)}"/>`; }).join('')}</properties>`);
  if (r.status === 'failed' && !r.expected) {
    const lead = r.blocks?.length ? `[root cause, blocks ${r.blocks.length}] ` : '';
    body.push(`      <failure message="${xmlEscape(lead + firstLine(r.reason))}" type="${r.level}">${xmlEscape(r.reason + blocks)}</failure>`);
  } else if (r.status === 'blocked') {
    body.push(`      <skipped message="${xmlEscape(`blocked by ${(r.blockedBy ?? []).join(', ')}: ${firstLine(r.reason)}`)}"/>`);
  } else if (r.status === 'not-tested') {
    body.push(`      <skipped message="${xmlEscape(`not tested: ${firstLine(r.reason)}`)}"/>`);
  } else if (r.status === 'warned' || r.expected) {
    body.push(`      <system-out>${xmlEscape(`${r.expected ? `${r.status} (expected, --expect)` : 'warned'} (${r.level}): ${r.reason}${blocks}`)}</system-out>`);
  } else if (r.status === 'informational' && r.observations.length) {
    const lines = r.observations.map((o) => `${o.label}: ${JSON.stringify(o.value) ?? 'undefined'}`);
    body.push(`      <system-out>${xmlEscape(`informational (not shown in the spec):\n${lines.join('\n')}`)}</system-out>`);
  }
  return `${open}\n${body.join('\n')}\n    </testcase>`;
}

export function renderJunit(result: ConformanceResult): string {
  const areas = new Map<string, RequirementResult[]>();
  for (const r of result.requirements) areas.set(r.area, [...(areas.get(r.area) ?? []), r]);
  const count = (rs: readonly RequirementResult[]) => ({
    tests: rs.length,
    failures: rs.filter((r) => r.status === 'failed' && !r.expected).length,
    skipped: rs.filter((r) => r.status === 'not-tested' || r.status === 'blocked').length,
  });
  const suites: string[] = [];
  const timestamp = result.startedAt.replace(/Z$/, '');
  const properties = `    <properties>${runFacts(result).map(([k, v]) => `<property name="${xmlEscape(k)}" value="${xmlEscape(v)}"/>`).join('')}</properties>`;
  if (result.verdict === 'error' && result.error) {
    suites.push(`  <testsuite name="lockconf run" tests="1" failures="0" errors="1" skipped="0" timestamp="${xmlEscape(timestamp)}">
${properties}
    <testcase classname="lockconf" name="${xmlEscape(`${result.error.code}: the run could not be carried out`)}" time="0">
      <error message="${xmlEscape(firstLine(result.error.message))}" type="${xmlEscape(result.error.code)}">${xmlEscape(result.error.message)}</error>
    </testcase>
  </testsuite>`);
  }
  for (const [area, rs] of areas) {
    const c = count(rs);
    const time = rs.reduce((s, r) => s + durationOf(r, result.tests), 0);
    suites.push(`  <testsuite name="${xmlEscape(area)}" tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${time.toFixed(3)}" timestamp="${xmlEscape(timestamp)}">
${properties}
${rs.map((r) => testCase(r, result)).join('\n')}
  </testsuite>`);
  }
  const all = count(result.requirements);
  const errors = result.verdict === 'error' ? 1 : 0;
  const seconds = Math.max(0, (Date.parse(result.finishedAt) - Date.parse(result.startedAt)) / 1000) || 0;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="lockconf conformance" tests="${all.tests + errors}" failures="${all.failures}" errors="${errors}" skipped="${all.skipped}" time="${seconds.toFixed(3)}">
${suites.join('\n')}
</testsuites>
`;
}
