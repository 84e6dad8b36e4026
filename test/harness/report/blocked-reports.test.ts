/**
 * Root causes first: a run where one failure blocked other requirements shows the root
 * with what it blocked in index.html, junit.xml and the terminal summary.
 */
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../../harness/catalog/index.js';
import type { RequirementOutcome } from '../../../harness/run/outcome.js';
import { computeVerdict, type TestRecord } from '../../../harness/run/verdict.js';
import { buildResult } from '../../../harness/report/result-file.js';
import { renderIndexHtml } from '../../../harness/report/index-html.js';
import { renderJunit } from '../../../harness/report/junit.js';
import { rootCauseLines, summaryTable } from '../../../harness/report/reporter.js';

const CAT: Requirement[] = [
  { id: 'OAUTH-CODE-EXCHANGE', level: 'MUST', area: 'OAuth authorization', section: 'Authorization code flow', source: 'spec', rule: 'a code is exchanged' },
  { id: 'REFRESH-SINGLE-USE', level: 'MUST', area: 'Refresh tokens', section: 'Refresh token', source: 'spec', rule: 'single use' },
  { id: 'REFRESH-NEW-PAIR', level: 'MUST', area: 'Refresh tokens', section: 'Refresh token', source: 'spec', rule: 'a new pair' },
];

const meta = (requirement: string, outcomes: RequirementOutcome[]) => ({ requirement, outcomes, observations: [], exchanges: [], deliveries: [] });

const tests: TestRecord[] = [
  { name: 'OAUTH-CODE-EXCHANGE: exchange', state: 'failed', meta: meta('OAUTH-CODE-EXCHANGE', [{ id: 'OAUTH-CODE-EXCHANGE', status: 'failed', reason: 'no refresh_token' }]) },
  ...['REFRESH-SINGLE-USE', 'REFRESH-NEW-PAIR'].map((id): TestRecord => ({
    name: `${id}: t`, state: 'skipped', note: 'blocked by OAUTH-CODE-EXCHANGE',
    meta: meta(id, [{ id, status: 'blocked', reason: 'authorization code exchange: no refresh_token', blockedBy: ['OAUTH-CODE-EXCHANGE'] }]),
  })),
];

function fixture() {
  const verdict = computeVerdict({ catalog: CAT, tests });
  return buildResult({
    version: '0.1.0', context: { target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', mock: true } },
    startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z', seed: 1, verdict, tests, only: null, expectFile: null, allure: false,
  });
}

describe('a run with blocked requirements', () => {
  const result = fixture();

  it('counts one failure and two blocked; conformance.json names roots and what they blocked', () => {
    expect(result.counts).toMatchObject({ failed: 1, blocked: 2 });
    expect(result.requirements.find((r) => r.id === 'OAUTH-CODE-EXCHANGE')?.blocks).toEqual(['REFRESH-SINGLE-USE', 'REFRESH-NEW-PAIR']);
    expect(result.requirements.find((r) => r.id === 'REFRESH-NEW-PAIR')).toMatchObject({ status: 'blocked', blockedBy: ['OAUTH-CODE-EXCHANGE'] });
  });

  it('index.html leads with the root cause and lists what it blocked under it', () => {
    const html = renderIndexHtml(result);
    expect(html).toContain('Root causes (failed and warned) and what they blocked');
    expect(html).toMatch(/blocked 2 other requirement\(s\)/);
    expect(html).toContain('data-status="blocked"');
    expect(html).toContain('Blocked by <a class="mono" href="#req-OAUTH-CODE-EXCHANGE">OAUTH-CODE-EXCHANGE</a>');
  });

  it('junit.xml fails the root (naming what it blocks) and skips the blocked', () => {
    const xml = renderJunit(result);
    expect(xml).toMatch(/<failure message="\[root cause, blocks 2\] no refresh_token"/);
    expect(xml).toContain('<skipped message="blocked by OAUTH-CODE-EXCHANGE: authorization code exchange: no refresh_token"/>');
    expect(xml).toMatch(/<testsuites [^>]*failures="1"[^>]*skipped="2"/);
  });

  it('the terminal names the root with what it blocked, and has a blocked column', () => {
    expect(rootCauseLines(result.requirements)).toEqual(['  failed: OAUTH-CODE-EXCHANGE (MUST), blocking 2: REFRESH-SINGLE-USE, REFRESH-NEW-PAIR']);
    expect(summaryTable(result).split('\n')[0]).toContain('blocked');
  });
});

describe('a requirement blocked by steps that did not run (an --only run that left them out)', () => {
  it('counts as failed itself, and the terminal says why the blocked test it printed counts here', () => {
    const only = new Set(['REFRESH-SINGLE-USE']);
    const verdict = computeVerdict({ catalog: CAT, tests: tests.filter((t) => t.name.startsWith('REFRESH-SINGLE-USE')), selected: only });
    const single = verdict.requirements.find((r) => r.id === 'REFRESH-SINGLE-USE')!;
    expect(single.status).toBe('failed');
    expect(rootCauseLines(verdict.requirements)).toEqual([
      '  failed: REFRESH-SINGLE-USE (MUST): a prerequisite step failed in this test, and no root cause failed in this run, so the failure counts here: OAUTH-CODE-EXCHANGE (not-tested in this run)',
    ]);
  });
});
