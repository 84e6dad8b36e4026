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
  /** The requirement the failed step rests on. */
  readonly requirement: string;
  /** What went wrong (no secret values: the helpers redact what they quote). */
  readonly reason: string;

  constructor(requirement: string, reason: string, options?: { cause?: unknown }) {
    super(`blocked by ${requirement}: ${reason}`, options);
    this.name = 'PrerequisiteFailed';
    this.requirement = requirement;
    this.reason = reason;
  }
}

/** True for a PrerequisiteFailed, also one thrown by another copy of this module. */
export function isPrerequisiteFailed(err: unknown): err is PrerequisiteFailed {
  return err instanceof PrerequisiteFailed
    || (!!err && typeof err === 'object' && (err as { name?: unknown }).name === 'PrerequisiteFailed'
      && typeof (err as { requirement?: unknown }).requirement === 'string');
}
