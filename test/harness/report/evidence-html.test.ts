/** The evidence of index.html: small for a passing run, readable for a failing one. */
import { describe, expect, it } from 'vitest';
import { GROUPED_ABOVE, commonResponseHeaders, evidenceHomes, presentBody, renderTestEvidence } from '../../../harness/report/evidence-html.js';
import type { TestEvidence } from '../../../harness/report/result-file.js';

function testWith(name: string, requirement: string, statusHeaders: Array<Record<string, string>>): TestEvidence {
  return {
    anchor: `test-${name}`, name, file: null, state: 'passed', durationMs: 1, requirement, outcomes: [], deliveries: [],
    exchanges: statusHeaders.map((headers) => ({
      request: { method: 'GET', url: 'http://127.0.0.1:1/api/users/me', headers: {}, body: '' },
      response: { status: 200, headers, body: '{"a":1,"b":[2,3]}' },
      durationMs: 3,
      startedAt: '2026-01-01T00:00:00Z',
    })),
  };
}

describe('evidence in index.html', () => {
  it('pretty-prints JSON bodies and elides HTML pages to their title and size', () => {
    expect(presentBody('{"error":"invalid_grant","n":1}', { 'content-type': 'application/json' })).toBe('{\n  "error": "invalid_grant",\n  "n": 1\n}');
    const page = '<!doctype html><html><head><title>Sign in</title></head><body>' + 'x'.repeat(5000) + '</body></html>';
    expect(presentBody(page, { 'content-type': 'text/html; charset=utf-8' })).toBe(`(an HTML page of ${page.length} bytes: "Sign in"; body not shown)`);
    expect(presentBody('a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' })).toBe('a=1&b=2');
  });

  it('lists the response headers every response shares once, and keeps content-type on each exchange', () => {
    const shared = { 'x-frame-options': 'DENY', 'content-type': 'application/json' };
    const result = { tests: [testWith('A: a', 'A', [shared, { ...shared, 'x-access-token': 't' }])] };
    const common = commonResponseHeaders(result);
    expect([...common.keys()]).toEqual(['x-frame-options']);
    const html = renderTestEvidence(result.tests[0]!, common);
    expect(html).toContain('(+ 1 headers every response carries)');
    expect(html).toContain('content-type: application/json');
    expect(html).toContain('"a": 1'); // quotes are not escaped inside <pre>
  });

  it('groups a long passed test (exploration\'s hundreds of exchanges) by distinct line, each with its count', () => {
    const t = testWith('A: a', 'A', Array.from({ length: GROUPED_ABOVE + 1 }, () => ({})));
    t.exchanges.push({ ...t.exchanges[0]!, request: { ...t.exchanges[0]!.request, method: 'POST' } }, t.exchanges[0]!);
    const html = renderTestEvidence(t, new Map(), false);
    expect(html.match(/<li>/g)).toHaveLength(2);
    expect(html).toContain(`<li>GET /api/users/me → 200 <span class="muted">×${GROUPED_ABOVE + 2}</span></li><li>POST /api/users/me → 200</li>`);
    expect(html).toContain(`${GROUPED_ABOVE + 3} lines`);
    // At the limit, the order is kept and only neighbours are counted together.
    expect(renderTestEvidence(testWith('B: b', 'B', Array.from({ length: GROUPED_ABOVE }, () => ({}))), new Map(), false)).toContain('<ol class="xlist mono">');
  });

  it('renders a passed test as one line per exchange, and a test once, under its own requirement', () => {
    const t = testWith('A: a', 'A', [{}]);
    expect(renderTestEvidence(t, new Map(), false)).toContain('<li>GET /api/users/me → 200');
    expect(renderTestEvidence(t, new Map(), false)).not.toContain('<pre>');
    const homes = evidenceHomes({ tests: [t], requirements: [{ id: 'B', tests: ['A: a'] }, { id: 'A', tests: ['A: a'] }] as never });
    expect(homes.get('A: a')).toBe('A');
  });
});

describe('failure reasons in index.html', () => {
  it('leave out the rule (quoted below) and the true/false of a boolean check', async () => {
    const { tidyReason } = await import('../../../harness/report/index-html.js');
    const reason = 'assertion: got non-JSON: expected false to be true\nlast exchange: POST /x → HTTP 400\nrule (MUST, spec: Errors): "…"\nexpected: true\nobserved: false\nexpected: 400\nobserved: 200';
    expect(tidyReason(reason)).toBe('assertion: got non-JSON: expected false to be true\nlast exchange: POST /x → HTTP 400\nexpected: 400\nobserved: 200');
  });
});
