/**
 * A narrowed, weakened, interrupted or interfered run says so in every report
 * format, from the same result: index.html (a neutral colour, never "Conformant"),
 * junit.xml properties and the Allure environment.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Requirement } from '../../../harness/catalog/index.js';
import { computeVerdict, type TestRecord, type VerdictInput } from '../../../harness/run/verdict.js';
import { buildResult } from '../../../harness/report/result-file.js';
import { renderIndexHtml } from '../../../harness/report/index-html.js';
import { notTestedOutsideScope, scopeText } from '../../../harness/report/verdict-text.js';
import { renderJunit } from '../../../harness/report/junit.js';
import { writeAllureEnvironment } from '../../../harness/report/allure.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

const CAT: Requirement[] = [
  { id: 'OAUTH-STATE-ECHO', level: 'MUST', area: 'OAuth authorization', section: 'S', source: 'spec', rule: 'r1' },
  { id: 'REFRESH-SINGLE-USE', level: 'MUST', area: 'Refresh tokens', section: 'S', source: 'spec', rule: 'r2' },
];
const passed: TestRecord[] = [{
  name: 'OAUTH-STATE-ECHO: a', state: 'passed',
  meta: { requirement: 'OAUTH-STATE-ECHO', outcomes: [{ id: 'OAUTH-STATE-ECHO', status: 'passed' }], observations: [], exchanges: [], deliveries: [] },
}];
const WEAK = { setting: 'LOCKCONF_DELIVERY_WAIT_MS', value: '3000', effect: 'an expected webhook delivery is waited for 3000 ms instead of 15000 ms' };

function result(input: Partial<VerdictInput>, only: string[] | null = null) {
  const verdict = computeVerdict({ catalog: CAT, tests: passed, ...(only ? { selected: new Set(only) } : {}), ...input });
  return buildResult({
    version: '0.1.0', context: { target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', mock: true } },
    startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z', seed: 1, verdict, tests: passed, only, expectFile: null, allure: true,
  });
}

let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('partial-verdict');
});
afterAll(() => removeTmpDir(dir));

describe('a partial run in every report', () => {
  const r = result({ weakenedBy: [WEAK] }, ['OAUTH-STATE-ECHO']);

  it('conformance.json: verdict partial, the scope and the settings', () => {
    expect(r.verdict).toBe('partial');
    expect(r.selection).toEqual({ only: ['OAUTH-STATE-ECHO'], partial: true, inScope: 1, total: 2, weakenedBy: [WEAK] });
  });

  it('index.html: "Partial" in a neutral colour, "1 of 2 requirements in scope", the setting; never "Conformant"', () => {
    const html = renderIndexHtml(r);
    expect(html).toContain('<p class="verdict v-partial" data-verdict="partial">Partial</p>');
    expect(html).toMatch(/\.verdict\.v-partial\{color:var\(--partial\)\}/);
    expect(html).toContain('1 of 2 requirements in scope (--only: OAUTH-STATE-ECHO)');
    expect(html).toContain('LOCKCONF_DELIVERY_WAIT_MS=3000');
    expect(html).not.toContain('>Conformant<');
  });

  it('junit.xml: the verdict, scope and settings as properties of every test suite', () => {
    const xml = renderJunit(r);
    const suites = xml.match(/<testsuite /g)!.length;
    expect(xml.match(/<property name="lockconf.verdict" value="partial"\/>/g)).toHaveLength(suites);
    expect(xml).toContain('<property name="lockconf.scope" value="1 of 2 requirements"/>');
    expect(xml).toContain('<property name="lockconf.only" value="OAUTH-STATE-ECHO"/>');
    expect(xml).toContain('<property name="lockconf.weakened.LOCKCONF_DELIVERY_WAIT_MS" value="3000 (an expected webhook delivery is waited for 3000 ms instead of 15000 ms)"/>');
  });

  it('Allure: environment.properties beside the results', async () => {
    await writeAllureEnvironment(dir, r);
    const text = await readFile(join(dir, 'environment.properties'), 'utf8');
    expect(text).toContain('lockconf.verdict=partial\n');
    expect(text).toContain('lockconf.scope=1 of 2 requirements\n');
    expect(text).toContain('lockconf.weakened.LOCKCONF_DELIVERY_WAIT_MS=3000 (an expected');
  });
});

describe('interrupted and interfered runs', () => {
  it('an interrupted run is never conformant, in a warning colour', () => {
    const r = result({ interrupted: true });
    expect(r.verdict).toBe('interrupted');
    expect(renderIndexHtml(r)).toContain('data-verdict="interrupted">Interrupted</p>');
    expect(renderJunit(r)).toContain('<property name="lockconf.verdict" value="interrupted"/>');
  });

  it('an interfered run names what showed the interference', () => {
    const r = result({ interference: 'the target was reset 4 time(s) by someone else during this run' });
    expect(r).toMatchObject({ verdict: 'interfered', interference: 'the target was reset 4 time(s) by someone else during this run' });
    expect(renderIndexHtml(r)).toContain('the target was reset 4 time(s) by someone else');
    expect(renderJunit(r)).toContain('<property name="lockconf.interference" value="the target was reset 4 time(s) by someone else during this run"/>');
  });

  it('a whole, unweakened, passing run is still "Conformant"', () => {
    const r = result({ tests: [...passed, { ...passed[0]!, name: 'REFRESH-SINGLE-USE: b', meta: { ...passed[0]!.meta!, requirement: 'REFRESH-SINGLE-USE', outcomes: [{ id: 'REFRESH-SINGLE-USE', status: 'passed' }] } }] });
    expect(r.verdict).toBe('conformant');
    expect(renderIndexHtml(r)).toContain('data-verdict="conformant">Conformant</p>');
  });
});

describe('the terminal\'s count of what lies outside --only', () => {
  it('counts every not-tested requirement the scope left out, an untestable one too, and none in scope', () => {
    const cat: Requirement[] = [
      ...CAT,
      { id: 'EVENT-BRIDGE-OFFLINE-DELAY', level: 'SHOULD', area: 'Event payloads', section: 'S', source: 'spec', rule: 'r3', untestable: 'no way to cut a bridge off' },
      { id: 'WEBHOOK-USER-REGISTER', level: 'MUST', area: 'Webhook registration', section: 'S', source: 'spec', rule: 'r4' },
    ];
    const verdict = computeVerdict({ catalog: cat, tests: passed, selected: new Set(['OAUTH-STATE-ECHO', 'WEBHOOK-USER-REGISTER']) });
    const r = buildResult({
      version: '0.1.0', context: { target: { authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', mock: true } },
      startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z', seed: 1, verdict, tests: passed, only: ['OAUTH-STATE-ECHO', 'WEBHOOK-USER-REGISTER'], expectFile: null, allure: false,
    });
    // Not tested: REFRESH-SINGLE-USE and the untestable one (outside), WEBHOOK-USER-REGISTER (in scope, no test ran).
    expect(r.requirements.filter((x) => x.status === 'not-tested').map((x) => x.id).sort()).toEqual(['EVENT-BRIDGE-OFFLINE-DELAY', 'REFRESH-SINGLE-USE', 'WEBHOOK-USER-REGISTER']);
    expect(notTestedOutsideScope(r)).toBe(2);
    expect(scopeText(r)).toMatch(/^2 of 4 requirements in scope/);
  });
});
