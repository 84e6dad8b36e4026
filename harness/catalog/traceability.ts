/**
 * The traceability matrix joined and checked: spec statement → requirement →
 * test → mock fault. Pure functions over data handed in (the statements, the
 * map, the catalog, the tests found under suites/, the fault catalog), so the
 * enforcement test and docs/coverage.md read the same joins.
 *
 * The rules it enforces:
 * - every statement of the spec has an entry in the map, and every entry names a
 *   real anchor and known requirement IDs;
 * - every requirement of the service is cited by some statement;
 * - every cited requirement that is not `untestable` has a test under suites/;
 * - every MUST or SHOULD requirement (not `untestable`) has a mock fault naming
 *   it, or a `noFault` reason;
 * - every rule quoted from the spec is verbatim (whitespace folded; cuts marked …,
 *   each piece found in order). A rule quoted from an RFC is exempt, but is SHOULD
 *   unless the spec implies it, and then its `reading` says so ("The spec implies
 *   it: …").
 */
import { CONTROL_PROTOCOL, SPEC, type Requirement } from './requirement.js';
import type { SpecStatement } from './spec-statements.js';
import type { SpecMapPart, StatementCoverage } from './spec-map/types.js';

/** A conformance test as the static scan of suites/ finds it. */
export interface TracedTest {
  id: string;
  title: string;
  file: string;
}

/** One fault of the mock's fault catalog. */
export interface TracedFault {
  name: string;
  requirement: string;
  description: string;
}

export interface TraceInputs {
  statements: readonly SpecStatement[];
  map: SpecMapPart;
  /** The requirements the map must cover (the service's). */
  requirements: readonly Requirement[];
  /** Every ID the catalog knows (a map entry may cite any of them). */
  knownIds: ReadonlySet<string>;
  tests: readonly TracedTest[];
  faults: readonly TracedFault[];
  /** The spec's markdown, for the verbatim check. */
  specText: string;
  /** docs/control-protocol.md, for the verbatim check of rules that rest on the control contract. */
  controlText?: string;
  /** Requirement → the dimensions its slice break point covers (mock/slice-faults.ts); docs/coverage.md lists requirement × slice with it. */
  sliceBreaks?: Readonly<Record<string, readonly string[]>>;
  /** The receiver catalog and its slice break points (examples/app/receiver-slice-faults.ts): the receiver part of requirement × slice. */
  receiver?: { requirements: readonly Requirement[]; sliceBreaks: Readonly<Record<string, readonly string[]>> };
  /** CLIENT- requirement → the dimensions the example application's break point covers (examples/app/client-faults.ts). */
  clientSliceBreaks?: Readonly<Record<string, readonly string[]>>;
}

/** The marker a reading carries when an RFC rule stays MUST because the spec implies it. */
export const SPEC_IMPLIES = 'The spec implies it';

export function isCovered(c: StatementCoverage): c is { requirements: readonly string[]; note?: string } {
  return 'requirements' in c;
}

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** True when every piece of the quote (cut at …) appears in the source, in order. */
export function isVerbatim(quote: string, source: string): boolean {
  const haystack = fold(source);
  let from = 0;
  for (const piece of quote.split('…').map(fold).filter((p) => p.length > 0)) {
    const at = haystack.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

export function isFromSpec(req: Requirement): boolean {
  return req.source === SPEC;
}

/** Anchors of the statements that cite each requirement. */
export function anchorsByRequirement(map: SpecMapPart): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [anchor, coverage] of Object.entries(map)) {
    if (!isCovered(coverage)) continue;
    for (const id of coverage.requirements) out.set(id, [...(out.get(id) ?? []), anchor]);
  }
  return out;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

export const testsByRequirement = (tests: readonly TracedTest[]) => groupBy(tests, (t) => t.id);
export const faultsByRequirement = (faults: readonly TracedFault[]) => groupBy(faults, (f) => f.requirement);

/** What the checks found, one list of offenders per rule (all empty: the matrix holds). */
export interface TraceProblems {
  unmappedStatements: string[];
  unknownAnchors: string[];
  unknownRequirements: string[];
  emptyEntries: string[];
  uncitedRequirements: string[];
  untestedRequirements: string[];
  faultlessRequirements: string[];
  unquotedRules: string[];
  rfcMustWithoutSpecReading: string[];
}

export function traceProblems(input: TraceInputs): TraceProblems {
  const anchors = new Set(input.statements.map((s) => s.anchor));
  const cited = anchorsByRequirement(input.map);
  const tests = testsByRequirement(input.tests);
  const faults = faultsByRequirement(input.faults);
  const entries = Object.entries(input.map);
  const citedReqs = input.requirements.filter((r) => cited.has(r.id));
  return {
    unmappedStatements: input.statements.filter((s) => !(s.anchor in input.map)).map((s) => `${s.anchor} (${s.text.slice(0, 60)})`),
    unknownAnchors: entries.filter(([a]) => !anchors.has(a)).map(([a]) => a),
    unknownRequirements: entries.flatMap(([a, c]) => (isCovered(c) ? c.requirements.filter((id) => !input.knownIds.has(id)).map((id) => `${id} (cited by ${a})`) : [])),
    emptyEntries: entries
      .filter(([, c]) => (isCovered(c) ? c.requirements.length === 0 : c.notTestable.trim() === ''))
      .map(([a]) => a),
    uncitedRequirements: input.requirements.filter((r) => !cited.has(r.id)).map((r) => `${r.id} (${r.area})`),
    untestedRequirements: citedReqs.filter((r) => !r.untestable && !tests.has(r.id)).map((r) => `${r.id} (${r.level})`),
    faultlessRequirements: input.requirements
      .filter((r) => r.level !== 'INFO' && !r.untestable && !faults.has(r.id) && !r.noFault?.trim())
      .map((r) => `${r.id} (${r.level}, ${r.area})`),
    unquotedRules: input.requirements
      .filter((r) => (isFromSpec(r) && !isVerbatim(r.rule, input.specText)) || (r.source === CONTROL_PROTOCOL && input.controlText !== undefined && !isVerbatim(r.rule, input.controlText)))
      .map((r) => `${r.id} (${r.area}): ${r.rule.slice(0, 80)}`),
    rfcMustWithoutSpecReading: input.requirements
      .filter((r) => !isFromSpec(r) && r.level === 'MUST' && !r.reading?.includes(SPEC_IMPLIES))
      .map((r) => `${r.id} (${r.source})`),
  };
}
