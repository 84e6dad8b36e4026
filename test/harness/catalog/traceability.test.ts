/**
 * The traceability matrix holds (harness/catalog/traceability.ts): every statement of
 * the spec is mapped, every requirement is cited, tested and breakable by a mock fault,
 * and every rule is quoted verbatim. Each failure lists its offenders.
 */
import { describe, expect, test } from 'vitest';
import { SERVICE_REQUIREMENTS } from '../../../harness/catalog/service.js';
import { isVerbatim, traceProblems } from '../../../harness/catalog/traceability.js';
import { traceInputs as inputs } from '../../../harness/commands/trace-inputs.js';

const problems = inputs().then(traceProblems);

describe('the traceability matrix (spec statement → requirement → test → fault)', () => {
  test('every statement of the spec has an entry in harness/catalog/spec-map/', async () => {
    expect((await problems).unmappedStatements, 'statements of docs/spec/lock-access-service.md with no entry in SPEC_MAP').toEqual([]);
  });

  test('every entry names a statement of the spec', async () => {
    expect((await problems).unknownAnchors, 'SPEC_MAP anchors that are no statement of the spec').toEqual([]);
  });

  test('every entry names known requirement IDs, or a reason why nothing can test it', async () => {
    const p = await problems;
    expect(p.unknownRequirements, 'requirement IDs in SPEC_MAP that the catalog does not define').toEqual([]);
    expect(p.emptyEntries, 'SPEC_MAP entries with no requirement and no reason').toEqual([]);
  });

  test('every requirement of the service is cited by a statement of the spec', async () => {
    expect((await problems).uncitedRequirements, 'service requirements no SPEC_MAP entry cites').toEqual([]);
  });

  test('every cited requirement has a test under suites/ (unless it is untestable)', async () => {
    expect((await problems).untestedRequirements, 'cited requirements with no conformance() test in suites/').toEqual([]);
  });

  test('every MUST and SHOULD requirement has a mock fault that breaks it, or a noFault reason', async () => {
    expect((await problems).faultlessRequirements, 'MUST/SHOULD requirements no fault in mock/faults.ts names, without noFault').toEqual([]);
  });

  test('every rule quoted from the spec is verbatim (cuts marked …)', async () => {
    expect((await problems).unquotedRules, 'requirement rules not found verbatim in docs/spec/lock-access-service.md').toEqual([]);
  });

  test('a rule taken from an RFC is SHOULD, unless its reading says how the spec implies it', async () => {
    expect((await problems).rfcMustWithoutSpecReading, 'RFC-sourced MUST requirements whose reading does not start "The spec implies it"').toEqual([]);
  });
});

describe('the verbatim check', () => {
  const source = 'The response is an HTTP 302\nredirect to redirect_uri. | a | b |';
  test('accepts a quote with whitespace folded, and cuts in order', () => {
    expect(isVerbatim('The response is an HTTP 302 redirect', source)).toBe(true);
    expect(isVerbatim('The response … redirect_uri.', source)).toBe(true);
    expect(isVerbatim('a | b', source)).toBe(true);
  });
  test('refuses added words and pieces out of order', () => {
    expect(isVerbatim('The response is always an HTTP 302', source)).toBe(false);
    expect(isVerbatim('redirect_uri. … The response', source)).toBe(false);
  });
});

describe('the checks themselves', () => {
  test('report an unmapped statement, an unknown anchor, an unknown ID, an untested and a faultless requirement', async () => {
    const base = await inputs();
    const req = { ...SERVICE_REQUIREMENTS.find((r) => r.level === 'MUST')!, id: 'X-NEW', rule: 'not in the spec at all' };
    const p = traceProblems({
      ...base,
      statements: [...base.statements, { anchor: 'nowhere/row-1', section: 'Nowhere', kind: 'row', text: 'x', line: 1 }],
      map: { ...base.map, 'ghost/para-1': { requirements: ['NO-SUCH-ID', 'X-NEW'] } },
      requirements: [...base.requirements, req],
      knownIds: new Set([...base.knownIds, 'X-NEW']),
    });
    expect(p.unmappedStatements.some((s) => s.startsWith('nowhere/row-1'))).toBe(true);
    expect(p.unknownAnchors).toContain('ghost/para-1');
    expect(p.unknownRequirements).toContain('NO-SUCH-ID (cited by ghost/para-1)');
    expect(p.untestedRequirements).toContain('X-NEW (MUST)');
    expect(p.faultlessRequirements.some((s) => s.startsWith('X-NEW'))).toBe(true);
    expect(p.unquotedRules.some((s) => s.startsWith('X-NEW'))).toBe(true);
  });
});
