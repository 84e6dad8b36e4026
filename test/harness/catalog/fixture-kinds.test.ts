/**
 * Fixture kinds per requirement (issue 32): every MUST and SHOULD requirement of a
 * checked area states, for the credential, the lock and the actor, the dimension that
 * covers it or the words of its sentence that restrict it.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../../harness/catalog/index.js';
import { FIXTURE_KIND_ENTRIES, checkedAreas, fixtureKindProblems, restrictedBy, byDimension, type FixtureKindEntry } from '../../../harness/catalog/slices/fixture-kinds.js';
import { OAUTH_AREAS } from '../../../harness/catalog/slices/fixture-kinds-oauth.js';
import type { Requirement } from '../../../harness/catalog/requirement.js';

const rule = (id: string, area: string, text: string): Requirement => ({ id, level: 'MUST', area: area as Requirement['area'], section: 'Section', source: 'spec', rule: text });

describe('Fixture kinds of the catalog', () => {
  it('every MUST and SHOULD requirement of the checked areas states its dimension or restricting words for each kind', () => {
    expect(fixtureKindProblems()).toEqual([]);
  });

  it('the OAuth areas are checked, and every area an entry names', () => {
    const areas = checkedAreas();
    for (const area of OAUTH_AREAS) expect(areas.has(area)).toBe(true);
    for (const id of FIXTURE_KIND_ENTRIES.keys()) expect(areas.has(CATALOG.find((r) => r.id === id)!.area)).toBe(true);
  });
});

describe('The rule that checks them', () => {
  const catalog = [rule('A-ONE', 'OAuth authorization', 'Every token is refused.'), rule('B-ONE', 'Webhook delivery', 'One POST per event.')];
  const declared = (id: string, dim: string) => (id === 'A-ONE' && dim === 'actor' ? ['owner'] : []);
  const entry = (over: Partial<FixtureKindEntry> = {}): FixtureKindEntry => ({
    credential: restrictedBy('Every token', 'why'), lock: restrictedBy('Section', 'why'), actor: byDimension('actor'), ...over,
  });

  it('passes an entry whose dimensions are declared and whose words are in the sentence', () => {
    expect(fixtureKindProblems(new Map([['A-ONE', entry()]]), catalog, declared)).toEqual([]);
  });

  it('fails a requirement of a checked area that states nothing', () => {
    expect(fixtureKindProblems(new Map(), catalog, declared)).toEqual([expect.stringContaining('A-ONE: states for no fixture kind')]);
  });

  it('fails a dimension not declared over the requirement', () => {
    expect(fixtureKindProblems(new Map([['A-ONE', entry({ lock: byDimension('lock') })]]), catalog, declared)).toEqual([expect.stringContaining('covered by lock, which is not declared')]);
  });

  it('fails words that are not in the section or rule', () => {
    expect(fixtureKindProblems(new Map([['A-ONE', entry({ credential: restrictedBy('the first credential', 'why') })]]), catalog, declared)).toEqual([expect.stringContaining('not in its section or rule')]);
  });

  it('checks another area once an entry names one of its requirements', () => {
    const problems = fixtureKindProblems(new Map([['A-ONE', entry()], ['B-ONE', { credential: restrictedBy('One POST', 'why') } as unknown as FixtureKindEntry]]), [...catalog, rule('B-TWO', 'Webhook delivery', 'x')], declared);
    expect(problems).toEqual([expect.stringContaining('B-ONE: states for the lock'), expect.stringContaining('B-ONE: states for the actor'), expect.stringContaining('B-TWO: states for no fixture kind')]);
  });

  it('fails an entry for an unknown requirement', () => {
    expect(fixtureKindProblems(new Map([['A-ONE', entry()], ['NOPE', entry()]]), catalog, declared)).toEqual([expect.stringContaining('NOPE: fixture kinds declared for an unknown requirement')]);
  });
});
