/**
 * A failure reads as the spec's words, not the test framework's: no `expected:
 * undefined / observed: undefined`, no `not to be reached`, no `// Object.is
 * equality`; expected and observed only when the check had both, as indented JSON.
 * Observations and bodies in index.html wrap between words, never inside one.
 */
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../../harness/catalog/index.js';
import { describeFailure } from '../../../harness/run/outcome-recorder.js';
import { plainMessage, showValue } from '../../../harness/run/failure-words.js';
import { renderIndexHtml } from '../../../harness/report/index-html.js';
import { buildResult } from '../../../harness/report/result-file.js';
import { computeVerdict } from '../../../harness/run/verdict.js';

const REQ: Requirement = { id: 'OAUTH-STATE-ECHO', level: 'MUST', area: 'OAuth authorization', section: 'GET {auth_url}/authorization', source: 'spec', rule: 'state is returned unchanged' };
const same = (text: string) => text;

/** The error a check of vitest throws. */
function thrown(check: () => void): unknown {
  try {
    check();
  } catch (err) {
    return err;
  }
  throw new Error('the check passed');
}

const JARGON = /undefined|not to be reached|Object\.is|equality/;

describe('a failed check in the report', () => {
  it('expect.unreachable(words): the words alone, no empty expected and observed', () => {
    const reason = describeFailure(REQ, thrown(() => expect.unreachable('the redirect carries no state')), same);
    expect(reason).toBe('rule (MUST, spec: GET {auth_url}/authorization): "state is returned unchanged"\nassertion: the redirect carries no state');
    expect(reason).not.toMatch(JARGON);
  });

  it('a comparison: expected and observed, and the message without chai\'s note on how it compared', () => {
    const reason = describeFailure(REQ, thrown(() => expect(401, 'the token endpoint answers').toBe(200)), same);
    expect(reason).toContain('expected: 200\nobserved: 401');
    expect(reason).toContain('assertion: the token endpoint answers: expected 401 to be 200');
    expect(reason).not.toMatch(JARGON);
  });

  it('objects are shown as indented JSON under their label', () => {
    const reason = describeFailure(REQ, thrown(() => expect({ token_type: 'bearer', scope: 'read' }).toEqual({ token_type: 'Bearer' })), same);
    expect(reason).toContain('expected:\n  {\n    "token_type": "Bearer"\n  }');
    expect(reason).toContain('observed:\n  {\n    "token_type": "bearer",\n    "scope": "read"\n  }');
    expect(reason).not.toMatch(JARGON);
  });

  it('an error that is no assertion keeps its message as it is', () => {
    expect(describeFailure(REQ, new Error('socket closed'), same)).toMatch(/\nerror: socket closed$/);
  });

  it('plainMessage and showValue, on their own', () => {
    expect(plainMessage('expected not to be reached')).toBe('the test reached a step the rule rules out');
    expect(plainMessage('expected 1 to deeply equal 2 // deep equality')).toBe('expected 1 to deeply equal 2');
    expect(showValue('a "quoted" string')).toBe('"a \\"quoted\\" string"');
    expect(showValue([1, 2])).toBe('[\n  1,\n  2\n]');
  });
});

describe('index.html', () => {
  const tests = [{
    name: 'OAUTH-STATE-ECHO: state comes back', state: 'passed' as const, file: 'suites/oauth/authorization-code.test.ts',
    meta: { requirement: 'OAUTH-STATE-ECHO', outcomes: [{ id: 'OAUTH-STATE-ECHO', status: 'informational' as const }], observations: [{ id: 'OAUTH-STATE-ECHO', label: 'token answer', value: { access_token_length: 64, token_type: 'Bearer' } }], exchanges: [], deliveries: [] },
  }];
  const verdict = computeVerdict({ catalog: [REQ], tests });
  const html = renderIndexHtml(buildResult({
    version: '0.1.0', context: { target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', mock: true }, seed: 1, startedAt: '2026-01-01T00:00:00.000Z' },
    startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', seed: 1, verdict, tests, only: null, expectFile: null, allure: true,
  }));

  it('shows an observation as indented JSON that wraps between words', () => {
    expect(html).toContain('{\n  &quot;access_token_length&quot;: 64,\n  &quot;token_type&quot;: &quot;Bearer&quot;\n}');
    expect(html).not.toContain('word-break:break-all');
  });

  it('says the Allure report must be served, and the command that serves it', () => {
    const note = /data-testid="allure-serve">([^]*?)<\/span>/.exec(html)?.[1] ?? '';
    expect(note).toContain('needs to be served over HTTP');
    expect(note).toContain('npm run report:serve');
  });
});
