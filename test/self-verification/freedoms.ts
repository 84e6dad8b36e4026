/**
 * The legal variants generated from the freedoms of the catalog (issue 32;
 * harness/catalog/freedoms.ts): one variant per alternative that is not the mock's
 * default and that no hand-written variant (matrix.ts VARIANTS) already implements,
 * the mock run with `freedoms: ['FREEDOM=alternative']`. Each is judged like every
 * legal variant: nothing failed or warned. npm test runs them packed with the
 * hand-written variants (packedVariants: one alternative of each freedom a run, each
 * freedom touching its own behaviour), `npm run matrix` each on its own.
 *
 * Traceability: every declared alternative has a switch in the mock (mock/freedoms.ts
 * FREEDOM_SWITCHES) or a hand-written variant, and the mock has no switch the catalog
 * does not declare.
 */
import { FREEDOMS, type Freedom } from '../../harness/catalog/freedoms.js';
import { CATALOG } from '../../harness/catalog/index.js';
import type { Area } from '../../harness/catalog/requirement.js';
import { FREEDOM_SWITCHES } from '../../mock/freedoms.js';
import type { MockOptions } from '../../mock/context.js';
import type { MatrixEntry } from './matrix-types.js';

/** A generated variant, with the spec areas whose suites can see it (VARIANTS `touches`). */
export type FreedomVariant = MatrixEntry & { kind: 'variant'; touches: readonly Area[] };

/** The spec areas of a freedom's requirements. */
function areasOf(f: Freedom): Area[] {
  return [...new Set(f.requirements.map((id) => CATALOG.find((r) => r.id === id)!.area as Area))];
}

/** Every generated alternative: freedom and alternative not the default, not implemented by a hand-written variant. */
export function generatedChoices(freedoms: readonly Freedom[] = FREEDOMS): Array<{ freedom: Freedom; alternative: string; description: string }> {
  return freedoms.flatMap((freedom) => freedom.alternatives.slice(1)
    .filter((a) => !a.variant)
    .map((a) => ({ freedom, alternative: a.name, description: a.description })));
}

/** One legal variant per generated alternative (`npm run matrix`). */
export function freedomVariants(): FreedomVariant[] {
  return generatedChoices().map(({ freedom, alternative, description }) => ({
    name: `freedom:${freedom.id}=${alternative}`,
    kind: 'variant',
    description: `Freedom ${freedom.id} (${freedom.section}: "${freedom.words}"): ${description}`,
    mockOptions: { freedoms: [`${freedom.id}=${alternative}`] },
    touches: areasOf(freedom),
  }));
}

/**
 * Why the freedoms and the mock's switches disagree: an alternative with neither a switch
 * nor a hand-written variant, a switch the catalog does not declare, a variant that does not exist.
 */
export function freedomTraceabilityProblems(variantNames: readonly string[]): string[] {
  const problems: string[] = [];
  const switches = FREEDOM_SWITCHES as Record<string, Record<string, string>>;
  for (const f of FREEDOMS) {
    for (const a of f.alternatives.slice(1)) {
      if (a.variant) {
        if (!variantNames.includes(a.variant)) problems.push(`${f.id}=${a.name}: its hand-written variant ${a.variant} is not in matrix.ts VARIANTS`);
        continue;
      }
      if (!switches[f.id]?.[a.name]) problems.push(`${f.id}=${a.name}: no switch in the mock (mock/freedoms.ts FREEDOM_SWITCHES, ctx.freedoms.chooses)`);
    }
  }
  for (const [id, alternatives] of Object.entries(switches)) {
    const f = FREEDOMS.find((x) => x.id === id);
    if (!f) {
      problems.push(`${id}: a switch of the mock the catalog does not declare (harness/catalog/freedoms.ts)`);
      continue;
    }
    for (const name of Object.keys(alternatives)) {
      const a = f.alternatives.find((x) => x.name === name);
      if (!a) problems.push(`${id}=${name}: a switch of the mock the catalog does not declare`);
      else if (a === f.alternatives[0]) problems.push(`${id}=${name}: the mock's default needs no switch`);
    }
  }
  return problems;
}

/** The names of the packs npm test runs (packedVariants): `variants-packed-1`, `-2`, … */
export const PACKED_VARIANTS_PREFIX = 'variants-packed-';

/** A legal variant with the spec areas it touches (matrix.ts VARIANTS, a generated one). */
type TouchingVariant = MatrixEntry & { touches?: readonly Area[] };

/** Two mock options merged: the later wins on a key, the freedoms' choices add up. */
function mergeOptions(a: MockOptions, b: MockOptions): MockOptions {
  const freedoms = [...(a.freedoms ?? []), ...(b.freedoms ?? [])];
  return { ...a, ...b, ...(freedoms.length ? { freedoms } : {}) };
}

/**
 * Every legal alternative the catalog declares, packed into as few runs as there are
 * alternatives of the freedom with the most (npm test; `npm run matrix` runs each alone):
 * pack k holds the k-th alternative other than the default of every freedom, the
 * hand-written variant that implements it (`variant`, matrix.ts VARIANTS) or the
 * generated one (a switch of the mock). One alternative per freedom a pack, so no two
 * choices of a pack change the same behaviour; each pack is judged like every legal
 * variant, nothing failed or warned, on the areas its members touch (their union). A
 * hand-written variant no freedom names runs alone, as before. What a pack could hide
 * (two legal choices whose checks cancel out) the whole matrix sees, where each runs alone.
 */
export function packedVariants(handWritten: readonly TouchingVariant[], freedoms: readonly Freedom[] = FREEDOMS): TouchingVariant[] {
  const byName = new Map(handWritten.map((v) => [v.name, v]));
  const named = new Set<string>();
  const packs: TouchingVariant[][] = [];
  for (const freedom of freedoms) {
    freedom.alternatives.slice(1).forEach((alternative, k) => {
      let member: TouchingVariant | undefined;
      if (alternative.variant) {
        member = byName.get(alternative.variant);
        if (!member) return; // freedomTraceabilityProblems reports it
        named.add(alternative.variant);
      } else {
        member = {
          name: `freedom:${freedom.id}=${alternative.name}`,
          kind: 'variant',
          description: alternative.description,
          mockOptions: { freedoms: [`${freedom.id}=${alternative.name}`] },
          touches: areasOf(freedom),
        };
      }
      (packs[k] ??= []).push(member);
    });
  }
  const packed = packs.map((members, k): TouchingVariant => {
    // A member that reaches every suite (neither touches nor only: jitter) makes the pack reach every suite.
    const everySuite = members.some((m) => !m.touches && !m.only);
    const touches = [...new Set(members.flatMap((m) => [...(m.touches ?? [])]))];
    const only = members.flatMap((m) => (m.only && !m.touches ? m.only : []));
    return {
      name: `${PACKED_VARIANTS_PREFIX}${k + 1}`,
      kind: 'variant',
      description: `Legal alternatives at once, one per freedom (harness/catalog/freedoms.ts): ${members.map((m) => m.name).join(', ')}.`,
      mockOptions: members.reduce<MockOptions>((acc, m) => mergeOptions(acc, m.mockOptions), {}),
      ...(everySuite ? {} : only.length ? { only: [...new Set([...only, ...CATALOG.filter((r) => touches.includes(r.area as Area)).map((r) => r.id)])] } : { touches }),
    };
  });
  return [...packed, ...handWritten.filter((v) => !named.has(v.name))];
}
