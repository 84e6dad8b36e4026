/**
 * Fixture kinds per requirement, merged from the declarations of each group of areas,
 * and the rule that checks them: every MUST and SHOULD requirement of a checked area
 * states, for the credential, the lock and the actor, either the slice dimension that
 * covers it (declared over the requirement) or the words of its sentence that restrict
 * it (found verbatim in its section heading or rule). The OAuth areas are checked
 * always; any other area once its record holds an entry for one of its requirements.
 */
import { CATALOG } from '../index.js';
import type { Requirement } from '../requirement.js';
import { declaredValues } from './index.js';
import { FIXTURE_KINDS, type FixtureKindDeclarations, type FixtureKindEntry } from './fixture-kind-types.js';
import { OAUTH_FIXTURE_KINDS, OAUTH_AREAS } from './fixture-kinds-oauth.js';

export * from './fixture-kind-types.js';

/**
 * The records checked here. The webhook areas' record (fixture-kinds-webhooks.ts) was written
 * beside this one in its own shape: each kind a dimension or the restricting words, and the
 * kinds still without either listed with their reason in WEBHOOK_FIXTURE_KINDS_PENDING; its
 * own test (test/harness/catalog/fixture-kinds-webhooks.test.ts) holds it. Folding it into
 * this record (a `why` for each restriction, the pending kinds as dimensions) is still to do.
 */
const FILES: readonly FixtureKindDeclarations[] = [OAUTH_FIXTURE_KINDS];

/** Requirement ID → entry, from every file (an ID in two files is an error). */
export const FIXTURE_KIND_ENTRIES: ReadonlyMap<string, FixtureKindEntry> = (() => {
  const out = new Map<string, FixtureKindEntry>();
  for (const file of FILES) {
    for (const [id, entry] of Object.entries(file)) {
      if (out.has(id)) throw new Error(`fixture kinds of ${id} declared twice`);
      out.set(id, entry);
    }
  }
  return out;
})();

/** Whitespace folded, so a quote may break where the rule breaks. */
function folded(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The areas whose requirements must each have an entry: the OAuth side's, and every area an entry names. */
export function checkedAreas(entries: ReadonlyMap<string, FixtureKindEntry> = FIXTURE_KIND_ENTRIES, catalog: readonly Requirement[] = CATALOG): Set<string> {
  const areas = new Set<string>(OAUTH_AREAS);
  for (const r of catalog) if (entries.has(r.id)) areas.add(r.area);
  return areas;
}

/**
 * Every problem of the declarations: an entry for an unknown requirement, a checked
 * requirement without an entry or without a kind, a dimension not declared over the
 * requirement, words not in its sentence.
 */
export function fixtureKindProblems(
  entries: ReadonlyMap<string, FixtureKindEntry> = FIXTURE_KIND_ENTRIES,
  catalog: readonly Requirement[] = CATALOG,
  declared: (id: string, dim: string) => string[] = declaredValues,
): string[] {
  const problems: string[] = [];
  const byId = new Map(catalog.map((r) => [r.id, r]));
  for (const id of entries.keys()) if (!byId.has(id)) problems.push(`${id}: fixture kinds declared for an unknown requirement`);
  const areas = checkedAreas(entries, catalog);
  for (const r of catalog) {
    const entry = entries.get(r.id);
    if (!entry) {
      if (areas.has(r.area) && r.level !== 'INFO') problems.push(`${r.id}: states for no fixture kind (credential, lock, actor) its dimension or the words that restrict it`);
      continue;
    }
    const sentence = folded(`${r.section} ${r.rule}`);
    for (const kind of FIXTURE_KINDS) {
      const coverage = entry[kind];
      if (!coverage) {
        problems.push(`${r.id}: states for the ${kind} neither a dimension nor the words that restrict it`);
      } else if ('dimension' in coverage) {
        if (declared(r.id, coverage.dimension).length === 0) problems.push(`${r.id}: the ${kind} is said to be covered by ${coverage.dimension}, which is not declared over it (harness/catalog/slices)`);
      } else if (!sentence.includes(folded(coverage.restrictedBy))) {
        problems.push(`${r.id}: the ${kind} is said to be restricted by "${coverage.restrictedBy}", which is not in its section or rule`);
      } else if (coverage.why.trim() === '') {
        problems.push(`${r.id}: the ${kind} is restricted by "${coverage.restrictedBy}" without saying why`);
      }
    }
  }
  return problems;
}

/** The entry of a requirement, or null. */
export function fixtureKindsOf(id: string): FixtureKindEntry | null {
  return FIXTURE_KIND_ENTRIES.get(id) ?? null;
}
