import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../../harness/catalog/index.js';
import { computeVerdict, type TestRecord } from '../../../harness/run/verdict.js';
import { buildResult } from '../../../harness/report/result-file.js';
import { renderIndexHtml, requirementAnchor } from '../../../harness/report/index-html.js';
import { summaryTable } from '../../../harness/report/reporter.js';
import type { Provenance } from '../../../harness/provenance/types.js';
import { provenance } from '../compare/runs.js';

const CAT: Requirement[] = [
  { id: 'OAUTH-STATE-ECHO', level: 'MUST', area: 'OAuth authorization', section: 'GET {auth_url}/authorization', source: 'spec', rule: 'state is returned <unchanged> & "exact"' },
  { id: 'REFRESH-SINGLE-USE', level: 'MUST', area: 'Refresh tokens', section: 'Refresh token', source: 'spec', rule: 'single use' },
  { id: 'TOKEN-JWT-EXP', level: 'INFO', area: 'Token endpoint', section: 'Token response', source: 'spec', rule: 'exp' },
];

const tests: TestRecord[] = [
  {
    name: 'REFRESH-SINGLE-USE: reuse is refused', state: 'passed', file: 'suites/refresh/refresh.test.ts',
    meta: { requirement: 'REFRESH-SINGLE-USE', outcomes: [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }], observations: [], exchanges: [], deliveries: [] },
  },
  {
    name: 'OAUTH-STATE-ECHO: state comes back', state: 'failed', file: 'suites/oauth/authorization-code.test.ts',
    meta: {
      requirement: 'OAUTH-STATE-ECHO',
      outcomes: [{ id: 'OAUTH-STATE-ECHO', status: 'failed', reason: 'expected state "<script>alert(1)</script>" got "<scr"' }],
      observations: [{ id: 'OAUTH-STATE-ECHO', label: 'state length', value: '<b>64</b>' }],
      exchanges: [{
        request: { method: 'GET', url: 'http://127.0.0.1/oauth/authorization?state=<x>', headers: { accept: '*/*' }, body: '' },
        response: { status: 302, headers: { location: 'http://app/callback?code=‹code#1›&state=<x' }, body: '' },
        durationMs: 3, startedAt: '2026-01-01T00:00:00.000Z',
      }],
      deliveries: [],
    },
  },
];

function fixture() {
  const verdict = computeVerdict({ catalog: CAT, tests });
  return buildResult({
    version: '0.1.0', context: { target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', mock: true }, seed: 42, startedAt: '2026-01-01T00:00:00.000Z' },
    startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z', seed: 42, verdict, tests, only: null, expectFile: null, allure: true,
  });
}

describe('index.html', () => {
  const result = fixture();
  const html = renderIndexHtml(result);

  it('shows the verdict, counts and run details', () => {
    expect(result.verdict).toBe('not-conformant');
    expect(html).toContain('data-verdict="not-conformant"');
    expect(html).toMatch(/<li class="c-failed" data-status="failed"><span class="n">1<\/span>/);
    expect(html).toMatch(/<li class="c-passed" data-status="passed"><span class="n">1<\/span>/);
    expect(html).toContain('http://127.0.0.1:1/api');
    expect(html).toContain('<td>42</td>');
    expect(html).toContain('href="allure-report/index.html"');
  });

  it('escapes everything that comes from the run', () => {
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;unchanged&gt; &amp; &quot;exact&quot;');
    expect(html).not.toContain('<b>64</b>');
    expect(html).not.toMatch(/<script\b/i);
  });

  it('puts failures first and gives every requirement an anchor with its evidence', () => {
    const failed = html.indexOf(`id="${requirementAnchor('OAUTH-STATE-ECHO')}"`);
    const passed = html.indexOf(`id="${requirementAnchor('REFRESH-SINGLE-USE')}"`);
    expect(failed).toBeGreaterThan(0);
    expect(passed).toBeGreaterThan(failed);
    expect(html).toContain('Evidence: <span class="mono">OAUTH-STATE-ECHO: state comes back</span>');
    expect(html).toContain('GET http://127.0.0.1/oauth/authorization?state=&lt;x&gt;');
  });

  it('loads nothing from anywhere and prints', () => {
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
    expect(html).toContain('@media print');
  });

  it('summarises per spec area', () => {
    const table = summaryTable(result);
    expect(table).toMatch(/OAuth authorization\s+0\s+1\s+0\s+0\s+0/);
    expect(table).toMatch(/total\s+1\s+1\s+0\s+1\s+0/);
  });
});

describe('index.html: what a reader must not miss (issue 35)', () => {
  const catalog: Requirement[] = [...CAT, { id: 'OAUTH-SIGN-IN-SCREENS', level: 'MUST', area: 'OAuth authorization', section: 'Authorization code flow', source: 'spec', rule: 'signs in' }];
  const build = (only: string[] | null = null) => buildResult({
    version: '0.1.0', context: { target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', mock: true }, seed: 1, startedAt: '2026-01-01T00:00:00.000Z' },
    startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z', seed: 1,
    verdict: computeVerdict({ catalog, tests, ...(only ? { selected: new Set(only) } : {}) }), tests, only, expectFile: null, allure: false,
  });

  it('leads with every MUST of the scope that was not tested, above the counts', () => {
    const html = renderIndexHtml(build());
    const list = html.indexOf('class="untested-musts"');
    expect(list).toBeGreaterThan(0);
    expect(list).toBeLessThan(html.indexOf('class="counts"'));
    expect(html).toMatch(/<h2>1 MUST requirement\(s\) not tested: never passed<\/h2><ul><li><a class="mono" href="#[^"]+">OAUTH-SIGN-IN-SCREENS<\/a>/);
    // outside --only is no untested MUST of the run
    expect(renderIndexHtml(build(['OAUTH-STATE-ECHO', 'REFRESH-SINGLE-USE']))).not.toContain('class="untested-musts"');
  });

  it('shows a failure beside the reading it was judged on, not only the quoted sentence', () => {
    const html = renderIndexHtml(build());
    const card = html.slice(html.indexOf(`id="${requirementAnchor('OAUTH-STATE-ECHO')}"`));
    expect(card.slice(0, card.indexOf('</article>'))).toMatch(/<p class="reading"><b>Judged on this reading<\/b>/);
    const passed = html.slice(html.indexOf(`id="${requirementAnchor('REFRESH-SINGLE-USE')}"`));
    expect(passed.slice(0, passed.indexOf('</article>'))).not.toContain('class="reading"');
  });

  it('a failed card whose every slice passed says the failure lies outside them, not "3/3 passed" alone', () => {
    const result = build();
    const failed = result.requirements.find((r) => r.id === 'OAUTH-STATE-ECHO')!;
    failed.slices = ['a', 'b', 'c'].map((v) => ({ slice: `dim=${v}`, status: 'passed' as const, tests: [] }));
    const html = renderIndexHtml(result);
    expect(html).toContain('<b>Slices</b> 3/3 passed (dim 3); the failure is outside the slices (the requirement as a whole, reason above)');
  });
});

describe('index.html: a client grading names its target', () => {
  it('the grading mock the user started, never "embedded reference mock"', () => {
    const result = fixture();
    result.provenance = provenance({ mode: 'client', target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', receiverUrl: null, clientId: 'app', mock: true, profileSha256: null } }) as unknown as Provenance;
    const html = renderIndexHtml(result);
    expect(html).toContain('<td>the grading mock (lockconf mock --grade), grading an application');
    expect(html).not.toContain('embedded reference mock');
  });
});

describe('index.html: when the run took place, said once', () => {
  it('one start time and one duration (the command\'s, from provenance), not a second pair under "How this run was made"', () => {
    const result = fixture();
    result.provenance = provenance({}) as unknown as Provenance;
    const html = renderIndexHtml(result);
    expect(html.match(/<th>Started<\/th>/g)).toHaveLength(1);
    expect(html.match(/<th>Finished<\/th>/g)).toHaveLength(1);
    expect(html).toContain(`<th>Started</th><td>${result.provenance.startedAt}</td>`);
    expect(html).toContain(`<th>Finished</th><td>${result.provenance.finishedAt} (10.0 s)</td>`);
  });
});
