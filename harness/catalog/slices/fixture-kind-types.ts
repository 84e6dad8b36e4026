/**
 * Fixture kinds per requirement (issue 32, "every universal quantifier a dimension"):
 * for each requirement and each kind of fixture a rule can range over (the client
 * credential, the lock, the actor whose token it is), either the slice dimension
 * that covers it or the words of the requirement's sentence that restrict it. A
 * rule read as "the first credential, the first lock, the guest" where its sentence
 * says "every" is what hidden faults on undeclared slices exploit.
 */

/** The kinds of fixture a rule may range over. */
export const FIXTURE_KINDS = ['credential', 'lock', 'actor'] as const;
export type FixtureKind = (typeof FIXTURE_KINDS)[number];

/**
 * How a requirement reaches one fixture kind: a dimension declared over it
 * (harness/catalog/slices), or the words of its sentence (its section heading or its
 * rule, verbatim) that restrict the rule so the kind takes no part or one value only,
 * with why those words restrict it.
 */
export type KindCoverage =
  | { readonly dimension: string }
  | { readonly restrictedBy: string; readonly why: string };

export type FixtureKindEntry = Readonly<Record<FixtureKind, KindCoverage>>;

/** Requirement ID → its entry. One record per group of areas (fixture-kinds-oauth.ts, fixture-kinds-webhooks.ts). */
export type FixtureKindDeclarations = Readonly<Record<string, FixtureKindEntry>>;

/** The kind is covered by this slice dimension of the requirement. */
export function byDimension(dimension: string): KindCoverage {
  return { dimension };
}

/** The kind is restricted by these words of the requirement's section or rule (verbatim), for this reason. */
export function restrictedBy(words: string, why: string): KindCoverage {
  return { restrictedBy: words, why };
}
