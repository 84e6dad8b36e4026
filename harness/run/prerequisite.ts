/**
 * Root causes, not cascades. A test reaches its check through steps that rest on
 * other requirements (a code exchange, the token response's fields, a refresh, a
 * registration, a status check that triggers a delivery...). When such a step fails,
 * the helper that took it throws PrerequisiteFailed naming the requirement the step
 * rests on; the runner reports the test's own requirement *blocked by* that ID, never
 * failed. The prerequisite is judged by its own test: when that test is the one that
 * throws (the ID is its own), the runner records a plain failure.
 */

export class PrerequisiteFailed extends Error {
  /** The requirement the failed step rests on (the first of `requirements`). */
  readonly requirement: string;
  /**
   * Every requirement whose failure would explain the step's (a delivery that did not
   * arrive rests on the registration, the group filter, the event row...). The verdict
   * keeps the test blocked only by those of them that failed in the run; when none did,
   * the test is failed (harness/run/verdict.ts).
   */
  readonly requirements: string[];
  /** What went wrong (no secret values: the helpers redact what they quote). */
  readonly reason: string;

  constructor(requirement: string | readonly string[], reason: string, options?: { cause?: unknown }) {
    const ids = typeof requirement === 'string' ? [requirement] : [...new Set(requirement)];
    if (ids.length === 0) throw new TypeError('PrerequisiteFailed: name at least one requirement');
    super(`blocked by ${ids.join(' or ')}: ${reason}`, options);
    this.name = 'PrerequisiteFailed';
    this.requirement = ids[0]!;
    this.requirements = ids;
    this.reason = reason;
  }
}

/** True for a PrerequisiteFailed, also one thrown by another copy of this module. */
export function isPrerequisiteFailed(err: unknown): err is PrerequisiteFailed {
  return err instanceof PrerequisiteFailed
    || (!!err && typeof err === 'object' && (err as { name?: unknown }).name === 'PrerequisiteFailed'
      && Array.isArray((err as { requirements?: unknown }).requirements));
}

/**
 * The requirements a failed step of a test for `own` is blocked by: those named, but
 * its own. Empty when the step is the test's own check (its failure is a failure).
 */
export function blockersFor(err: PrerequisiteFailed, own: string): string[] {
  return err.requirements.includes(own) && err.requirements.length === 1 ? [] : err.requirements.filter((id) => id !== own);
}
