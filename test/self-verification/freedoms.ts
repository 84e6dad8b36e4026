/**
 * The legal variants generated from the freedoms of the catalog (issue 32;
 * harness/catalog/freedoms.ts): one variant per alternative that is not the mock's
 * default and that no hand-written variant (matrix.ts VARIANTS) already implements,
 * the mock run with `freedoms: ['FREEDOM=alternative']`. Each is judged like every
 * legal variant: nothing failed or warned. npm test runs them packed into one variant
 * (one alternative of each freedom at once: each freedom touches its own behaviour),
 * `npm run matrix` each on its own.
 *
 * Traceability: every declared alternative has a switch in the mock (mock/freedoms.ts
 * FREEDOM_SWITCHES) or a hand-written variant, and the mock has no switch the catalog
 * does not declare.
 */
import { FREEDOMS, type Freedom } from '../../harness/catalog/freedoms.js';
import { CATALOG } from '../../harness/catalog/index.js';
import type { Area } from '../../harness/catalog/requirement.js';
import { FREEDOM_SWITCHES } from '../../mock/freedoms.js';
import type { MatrixEntry } from './matrix-types.js';

/** A generated variant, with the spec areas whose suites can see it (VARIANTS `touches`). */
export type FreedomVariant = MatrixEntry & { kind: 'variant'; touches: readonly Area[] };

/** The name of the packed variant npm test runs. */
export const PACKED_FREEDOMS = 'freedoms-packed';

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

/** The first generated alternative of every freedom at once: one run for npm test. */
export function packedFreedomVariant(): FreedomVariant {
  const firstOfEach = new Map<string, ReturnType<typeof generatedChoices>[number]>();
  for (const choice of generatedChoices()) if (!firstOfEach.has(choice.freedom.id)) firstOfEach.set(choice.freedom.id, choice);
  const chosen = [...firstOfEach.values()];
  const choices = chosen.map((c) => `${c.freedom.id}=${c.alternative}`);
  return {
    name: PACKED_FREEDOMS,
    kind: 'variant',
    description: `Generated legal alternatives at once (harness/catalog/freedoms.ts): ${choices.join(', ')}.`,
    mockOptions: { freedoms: choices },
    touches: [...new Set(chosen.flatMap((c) => areasOf(c.freedom)))],
  };
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
