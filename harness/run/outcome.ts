/**
 * What one conformance test hands to the reporter: per-requirement outcomes,
 * observations and the (already redacted) evidence. The conformance wrapper
 * (harness/service/conformance.ts) writes it to vitest's `task.meta.lockconf`; the
 * reporter (harness/report/reporter.ts) reads it from every test case.
 */
import type { Exchange } from '../contracts.js';
import type { Unfinished } from './pending-work.js';

/**
 * `blocked`: the test could not reach its check because a step it rests on failed,
 * and that step is another requirement's (harness/run/prerequisite.ts); `blockedBy`
 * names it. Not a failure: the root cause is judged by its own test.
 */
export type RequirementStatus = 'passed' | 'failed' | 'warned' | 'not-tested' | 'informational' | 'blocked';

export interface RequirementOutcome {
  id: string;
  status: RequirementStatus;
  /** Why: the failed expectation (rule, expected, observed), why it was not tested, or what blocked it. */
  reason?: string;
  /** For `blocked`: the requirements whose failed step kept the check from being reached. */
  blockedBy?: string[];
}

export interface Observation {
  /** The requirement the observation belongs to. */
  id: string;
  label: string;
  /** JSON-serialisable, redacted. */
  value: unknown;
}

/** A captured webhook delivery as evidence (redacted; body as text). */
export interface DeliveryEvidence {
  inbox: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  answeredStatus: number;
}

/** One slice a test exercised (t.slice): for which requirement, and how it went. */
export interface SliceRecord {
  requirement: string;
  /** `dim=value` (harness/catalog/slices). */
  slice: string;
  status: 'passed' | 'failed' | 'not-tested';
  /** Why failed (the assertion, redacted) or not tested. */
  reason?: string;
}

export interface TestMeta {
  /** The requirement the test is declared for. */
  requirement: string;
  /** Every requirement this test touched (its own and those of t.check), in order. */
  outcomes: RequirementOutcome[];
  observations: Observation[];
  exchanges: Exchange[];
  deliveries: DeliveryEvidence[];
  /** The slices the test exercised (t.slice), in order; absent when none. */
  slices?: SliceRecord[];
  /** The test did not finish within its timeout: what the harness was waiting for (run/pending-work.ts). */
  unfinished?: Unfinished;
}

declare module 'vitest' {
  interface TaskMeta {
    lockconf?: TestMeta;
  }
}
