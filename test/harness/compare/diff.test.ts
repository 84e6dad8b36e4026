/**
 * `lockconf compare`: what changed between two runs, requirement by requirement
 * and slice by slice (harness/compare/diff.ts), and what else differs between the
 * runs (harness/compare/identity.ts), from crafted results.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns, reproduces } from '../../../harness/compare/diff.js';
import { readProvenance } from '../../../harness/compare/provenance.js';
import { renderTerminal } from '../../../harness/compare/render-terminal.js';
import { renderCompareHtml } from '../../../harness/compare/render-html.js';
import { inputs, provenance, run } from './runs.js';

const category = (c: ReturnType<typeof compareRuns>, id: string) => c.requirements.find((r) => r.id === id)?.category ?? 'unchanged';

describe('Requirement changes', () => {
  const cases: Array<[string, string, string, string]> = [
    ['failed → passed is fixed', 'failed', 'passed', 'fixed'],
    ['warned → passed is fixed', 'warned', 'passed', 'fixed'],
    ['passed → failed is a regression', 'passed', 'failed', 'regressed'],
    ['warned → failed is a regression', 'warned', 'failed', 'regressed'],
    ['passed → warned (a SHOULD) is a regression', 'passed', 'warned', 'regressed'],
    ['passed → blocked is a regression', 'passed', 'blocked', 'regressed'],
    ['not tested → passed is newly tested', 'not-tested', 'passed', 'newly-tested'],
    ['not tested → failed is newly tested, not a regression', 'not-tested', 'failed', 'newly-tested'],
    ['passed → not tested is newly not tested', 'passed', 'not-tested', 'newly-not-tested'],
    ['failed → not tested is newly not tested', 'failed', 'not-tested', 'newly-not-tested'],
    ['informational → passed is changed', 'informational', 'passed', 'changed'],
    ['not tested in both is unchanged', 'not-tested', 'not-tested', 'unchanged'],
    ['passed in both is unchanged', 'passed', 'passed', 'unchanged'],
  ];
  for (const [rule, before, after, expected] of cases) {
    it(rule, () => {
      const c = compareRuns(run({ X: before }), run({ X: after }));
      expect(category(c, 'X')).toBe(expected);
      expect(c.counts[expected as keyof typeof c.counts]).toBe(1);
      expect(c.regression).toBe(expected === 'regressed');
    });
  }

  it('a requirement only in B\'s catalog and judged there is newly tested; one only in A is newly not tested', () => {
    const c = compareRuns(run({ OLD: 'passed', KEEP: 'passed' }), run({ KEEP: 'passed', NEW: 'passed' }));
    expect(c.requirements.find((r) => r.id === 'NEW')).toMatchObject({ category: 'newly-tested', before: null, after: 'passed' });
    expect(c.requirements.find((r) => r.id === 'OLD')).toMatchObject({ category: 'newly-not-tested', before: 'passed', after: null });
  });

  it('shows the level, and both levels when the catalog changed it', () => {
    const c = compareRuns(run({ X: { level: 'SHOULD', status: 'passed' } }), run({ X: { level: 'MUST', status: 'failed', reason: 'rule (MUST, spec): "x"\nassertion: the answer must be 200' } }));
    expect(c.requirements[0]).toMatchObject({ level: 'MUST', levelBefore: 'SHOULD', reason: 'the answer must be 200' });
  });

  it('lists regressions first, then fixed, newly tested, newly not tested', () => {
    const c = compareRuns(
      run({ NNT: 'passed', NT: 'not-tested', FIX: 'failed', REG: 'passed' }),
      run({ NNT: 'not-tested', NT: 'passed', FIX: 'passed', REG: 'failed' }),
    );
    expect(c.requirements.map((r) => r.id)).toEqual(['REG', 'FIX', 'NT', 'NNT']);
    const text = renderTerminal(c);
    expect(text.indexOf('regressed (1)')).toBeLessThan(text.indexOf('fixed (1)'));
    expect(text.indexOf('fixed (1)')).toBeLessThan(text.indexOf('newly tested (1)'));
    expect(text.indexOf('newly tested (1)')).toBeLessThan(text.indexOf('newly not tested (1)'));
  });

  it('names a change of verdict', () => {
    const c = compareRuns(run({ X: 'passed' }, { verdict: 'conformant' }), run({ X: 'failed' }, { verdict: 'not-conformant' }));
    expect(c.verdict).toEqual({ before: 'conformant', after: 'not-conformant', changed: true });
    expect(renderTerminal(c)).toContain('verdict: conformant → not-conformant');
  });
});

describe('Slice changes', () => {
  it('a slice passed → failed is a regression even when the requirement failed in both', () => {
    const c = compareRuns(
      run({ X: { status: 'failed', slices: { 'chars=long': 'passed', 'chars=plus': 'failed' } } }),
      run({ X: { status: 'failed', slices: { 'chars=long': 'failed', 'chars=plus': 'passed' } } }),
    );
    expect(c.counts.unchanged).toBe(1);
    expect(c.requirements[0]!.slices).toEqual([
      { slice: 'chars=long', before: 'passed', after: 'failed', kind: 'regressed' },
      { slice: 'chars=plus', before: 'failed', after: 'passed', kind: 'fixed' },
    ]);
    expect(c.sliceRegressions).toBe(1);
    expect(c.regression).toBe(true);
  });

  it('slices newly exercised or no longer exercised are named; missing ↔ not tested is no change', () => {
    const c = compareRuns(
      run({ X: { status: 'passed', slices: { a: 'missing', b: 'passed', c: 'not-tested' } } }),
      run({ X: { status: 'passed', slices: { a: 'passed', b: 'not-tested', c: 'missing' } } }),
    );
    expect(c.requirements[0]!.slices.map((s) => [s.slice, s.kind])).toEqual([['a', 'newly-tested'], ['b', 'newly-not-tested']]);
    expect(c.regression).toBe(false);
  });

  it('the slices of a requirement tested in one run only are not listed one by one', () => {
    const c = compareRuns(run({ X: 'not-tested' }), run({ X: { status: 'passed', slices: { a: 'passed' } } }));
    expect(c.requirements[0]!.slices).toEqual([]);
  });
});

describe('What else differs (warnings first)', () => {
  it('names a run without provenance, and copes with it', () => {
    const c = compareRuns(run({ X: 'passed' }), run({ X: 'passed' }, { provenance: provenance() }));
    expect(c.warnings[0]).toMatch(/^A records no provenance/);
  });

  it('names a differing suite source, spec text and catalog from provenance', () => {
    const a = run({ X: 'passed' }, { provenance: provenance() });
    const b = run({ X: 'passed' }, {
      provenance: provenance({
        suite: { name: 'lockconf', version: '0.1.0', source: { kind: 'git', commit: 'b'.repeat(40), branch: 'fix', clean: false } },
        spec: { path: 'docs/spec/lock-access-service.md', sha256: '3'.repeat(64) },
        catalog: { sha256: '4'.repeat(64), requirements: 117 },
      }),
    });
    const c = compareRuns(a, b);
    expect(c.warnings).toEqual([
      'suite source differs: A git commit aaaaaaaaaaaa (branch main), B git commit bbbbbbbbbbbb (branch fix, uncommitted changes)',
      'spec text differs: sha256 A 111111111111…, B 333333333333…',
      'requirement catalog differs: sha256 A 222222222222… (116 requirements), B 444444444444… (117 requirements)',
    ]);
    expect(renderTerminal(c).split('\n').slice(2, 5).every((l) => l.startsWith('warning: '))).toBe(true);
  });

  it('identical provenance gives no warning', () => {
    expect(compareRuns(run({ X: 'passed' }, { provenance: provenance() }), run({ X: 'passed' }, { provenance: provenance() })).warnings).toEqual([]);
  });

  it('names differing behaviour-changing settings, scope and target', () => {
    const setting = (value: string) => ({ name: 'LOCKCONF_DELIVERY_WAIT_MS', value, default: '15000', changed: value !== '15000', source: 'env' });
    const remote = { authUrl: 'https://a.example/oauth', baseUrl: 'https://a.example/api', receiverUrl: null, clientId: 'c', mock: false, profileSha256: 'p1' };
    const c = compareRuns(
      run({ X: 'passed' }, { provenance: provenance({ settings: [setting('100')], target: remote }) }),
      run({ X: 'passed' }, { only: ['X'], provenance: provenance({ settings: [setting('15000')], scope: { only: ['X'], partial: true }, target: { ...remote, baseUrl: 'https://b.example/api', profileSha256: 'p2' } }) }),
    );
    expect(c.warnings).toEqual([
      'target differs: baseUrl A https://a.example/api, B https://b.example/api',
      'target profile differs (its fingerprint without secrets)',
      'settings differ: LOCKCONF_DELIVERY_WAIT_MS 100 → (default)',
      'scope differs: A the full scope, B 1 requirement(s) (--only): requirements outside either scope show as newly (not) tested',
    ]);
  });

  it('a certified run and an uncertified one: the signing key is no setting that differs', () => {
    const key = { name: 'LOCKCONF_SIGNING_KEY', value: '(set)', default: null, changed: true, source: 'env' };
    expect(compareRuns(run({ X: 'passed' }, { provenance: provenance({ settings: [key] }) }), run({ X: 'passed' }, { provenance: provenance() })).warnings).toEqual([]);
  });

  it('names differing known deviations (--expect), but not an option compared elsewhere', () => {
    const option = (name: string, value: string) => ({ name, value, default: null, changed: true, source: 'option' });
    const c = compareRuns(
      run({ X: 'passed' }, { provenance: provenance({ settings: [option('--target', 'a.json')] }) }),
      run({ X: 'passed' }, { provenance: provenance({ settings: [option('--target', 'b.json')], expectations: { file: 'expect.json', sha256: '5'.repeat(64), content: '{}' } }) }),
    );
    expect(c.warnings).toEqual(['known deviations (--expect) differ: A none, B expect.json (sha256 555555555555…)']);
  });

  it('a malformed provenance field is dropped, not a reason to refuse the file', () => {
    const p = readProvenance({ ...provenance(), spec: 'not an object', settings: [{ name: 1 }], seed: 9 });
    expect(p?.spec).toBeUndefined();
    expect(p?.settings).toBeUndefined();
    expect(p?.seed).toBe(9);
    expect(readProvenance(undefined)).toBeNull();
    expect(readProvenance('x')).toBeNull();
  });
});

describe('Generated inputs', () => {
  it('identical digests: identical; a differing test is named', () => {
    const same = compareRuns(run({}, { inputs: inputs({ 'P: one': 'x', 'Q: two': 'y' }) }), run({}, { inputs: inputs({ 'P: one': 'x', 'Q: two': 'y' }) }));
    expect(same.inputs).toMatchObject({ state: 'identical', tests: 2, differing: [] });
    const other = compareRuns(run({}, { inputs: inputs({ 'P: one': 'x', 'Q: two': 'y' }) }), run({}, { inputs: inputs({ 'P: one': 'x', 'Q: two': 'z' }) }));
    expect(other.inputs).toMatchObject({ state: 'different', differing: ['Q: two'] });
    expect(reproduces(other)).toBe(false);
    expect(renderTerminal(other)).toContain('generated inputs: differ in 1 of 2 property test(s): Q');
  });

  it('a file without inputs (older lockconf): not recorded, not a difference', () => {
    const c = compareRuns(run({ X: 'passed' }), run({ X: 'passed' }, { inputs: inputs({ 'P: one': 'x' }) }));
    expect(c.inputs.state).toBe('not-recorded');
    expect(reproduces(c)).toBe(true);
  });
});

describe('The page (compare.html)', () => {
  it('uses the report\'s style, escapes every value and marks each change with its category', () => {
    const c = compareRuns(run({ '<X>': 'passed', FIX: 'failed' }, { label: '/runs/<a>' }), run({ '<X>': { status: 'failed', reason: 'assertion: <script>' }, FIX: 'passed' }));
    const html = renderCompareHtml(c);
    expect(html).toContain('--passed:#1a7f37'); // index.html's CSS
    expect(html).toContain('data-regression="true"');
    expect(html).toContain('data-category="regressed" id="cmp-&lt;X&gt;"');
    expect(html).toContain('data-category="fixed"');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('/runs/&lt;a&gt;');
  });

  it('links each requirement to its evidence in B\'s index.html when told where it is', () => {
    const c = compareRuns(run({ X: 'passed' }), run({ X: 'failed' }));
    expect(renderCompareHtml(c, '../b/index.html')).toContain('<a class="id mono" href="../b/index.html#req-X">X</a>');
    expect(renderCompareHtml(c)).not.toContain('#req-X');
  });
});
