/**
 * Freedoms as data (issue 32): every declared alternative is implemented by the
 * mock (a switch, or a hand-written legal variant), and the legal variants are
 * generated from the declarations, never written one by one.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../../harness/catalog/index.js';
import { renderFreedomsDoc } from '../../harness/report/freedoms-doc.js';
import { FREEDOMS, freedomDeclarationProblems, freedomsOf } from '../../harness/catalog/freedoms.js';
import { FreedomSet, parseFreedomChoice } from '../../mock/freedoms.js';
import { freedomTraceabilityProblems, freedomVariants, generatedChoices, PACKED_VARIANTS_PREFIX } from './freedoms.js';
import { planMatrix, VARIANTS } from './matrix.js';

describe('freedoms as data', () => {
  test('each declaration names known requirements, spec words, and an alternative besides the mock\'s own', () => {
    expect(freedomDeclarationProblems()).toEqual([]);
    for (const f of FREEDOMS) expect(f.words.length, f.id).toBeGreaterThan(10);
  });

  test('every declared alternative has a switch in the mock or a hand-written variant, and every switch is declared', () => {
    expect(freedomTraceabilityProblems(VARIANTS.map((v) => v.name))).toEqual([]);
  });

  test('each hand-written variant a freedom names exists', () => {
    const named = FREEDOMS.flatMap((f) => f.alternatives.flatMap((a) => (a.variant ? [a.variant] : [])));
    for (const name of named) expect(VARIANTS.map((v) => v.name)).toContain(name);
  });

  test('one generated variant per alternative with a switch; npm test packs every alternative, one of each freedom a run', () => {
    const each = freedomVariants();
    expect(each.map((v) => v.name)).toEqual(generatedChoices().map((c) => `freedom:${c.freedom.id}=${c.alternative}`));
    for (const v of each) expect(() => new FreedomSet(v.mockOptions.freedoms), v.name).not.toThrow();

    const npmTest = planMatrix({ scope: 'area', variants: 'touched', catalogued: 'sample' });
    const packs = npmTest.filter((e) => e.kind === 'variant');
    const most = Math.max(...FREEDOMS.map((f) => f.alternatives.length - 1));
    expect(packs.map((e) => e.name)).toEqual(Array.from({ length: most }, (_, k) => `${PACKED_VARIANTS_PREFIX}${k + 1}`));
    // Every generated alternative in exactly one pack, never two of one freedom in a pack.
    const chosen = packs.flatMap((p) => [...(p.mockOptions.freedoms ?? [])]);
    expect([...chosen].sort()).toEqual(generatedChoices().map((c) => `${c.freedom.id}=${c.alternative}`).sort());
    for (const p of packs) {
      expect(() => new FreedomSet(p.mockOptions.freedoms), p.name).not.toThrow();
      const ids = [...(p.mockOptions.freedoms ?? [])].map((c) => parseFreedomChoice(c)!.freedom);
      expect(new Set(ids).size, p.name).toBe(ids.length);
    }
    // Every hand-written variant's options in exactly one pack, unchanged.
    for (const v of VARIANTS) {
      const holding = packs.filter((p) => Object.entries(v.mockOptions).every(([k, value]) => JSON.stringify((p.mockOptions as Record<string, unknown>)[k]) === JSON.stringify(value)));
      expect(holding.map((p) => p.name), v.name).toHaveLength(1);
    }
    // A variant that reaches every suite (jitter) takes its pack to every suite.
    expect(packs.find((p) => p.mockOptions.jitter)!.only).toBeUndefined();

    const all = planMatrix({ scope: 'area', variants: 'touched' });
    expect(all.filter((e) => e.name.startsWith('freedom:')).map((e) => e.name)).toEqual(each.map((v) => v.name));
    expect(all.filter((e) => e.name.startsWith(PACKED_VARIANTS_PREFIX))).toEqual([]);
    for (const e of all.filter((x) => x.name.startsWith('freedom'))) expect(e.kind).toBe('variant');
  });

  test('the false verdicts of issue 32 are freedoms of their requirements', () => {
    expect(freedomsOf('TOKEN-MISSING-PARAMETER-ANSWER').map((f) => f.id)).toContain('MISSING-PARAMETER-REFUSAL');
    expect(freedomsOf('EVENT-MASTER-PIN').map((f) => f.id)).toContain('MASTER-PIN-LOCK');
    expect(freedomsOf('EVENT-KEYPAD-PIN-MANAGED').map((f) => f.id)).toContain('USER-OBJECT-FIELDS');
    expect(freedomsOf('EVENT-LOCK-NAME-CHANGED').map((f) => f.id)).toEqual(expect.arrayContaining(['LOCK-NAME-BLANKS', 'USER-OBJECT-FIELDS']));
    expect(freedomsOf('EVENT-OPERATION-APP').map((f) => f.id), '"User object with full fields": not open on the app row').not.toContain('USER-OBJECT-FIELDS');
  });

  test('the mock refuses a choice it does not know', () => {
    expect(() => new FreedomSet(['NO-SUCH-FREEDOM=x'])).toThrow(/unknown freedom/);
    expect(() => new FreedomSet(['MASTER-PIN-LOCK=maybe'])).toThrow(/no alternative maybe/);
    expect(() => new FreedomSet(['MASTER-PIN-LOCK'])).toThrow(/ID=alternative/);
    expect(new FreedomSet(['MASTER-PIN-LOCK=absent']).chooses('MASTER-PIN-LOCK', 'absent')).toBe(true);
    expect(new FreedomSet([]).chooses('MASTER-PIN-LOCK', 'absent')).toBe(false);
  });
});

describe('docs/freedoms.md', () => {
  test('is up to date (run `npm run requirements` after changing harness/catalog/freedoms.ts)', () => {
    const actual = readFileSync(join(resolve(import.meta.dirname, '../..'), 'docs', 'freedoms.md'), 'utf8');
    expect(actual === renderFreedomsDoc(FREEDOMS, CATALOG), 'docs/freedoms.md differs from the catalog: run `npm run requirements`').toBe(true);
  });
});
