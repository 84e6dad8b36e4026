/**
 * The traceability matrix's data: how each statement of the spec
 * (spec-statements.ts, by anchor) is covered.
 */

/** How one statement of the spec is covered. */
export type StatementCoverage =
  /** Tested by these requirement IDs (each with a test that can fail). */
  | { requirements: readonly string[]; note?: string }
  /** Why no test from outside can check it; reported as not tested, never passed. */
  | { notTestable: string };

/** A part of the map: anchor → coverage. */
export type SpecMapPart = Readonly<Record<string, StatementCoverage>>;
