/**
 * The test context the suites program against: the ConformanceContext of
 * harness/contracts.ts plus the two conveniences harness/service/conformance.ts adds
 * (`targetNow`, `inbox`). Helpers fall back to the plain contract when a
 * convenience is absent, so they keep working whichever shape arrives.
 */
import type { ConformanceContext, Inbox, InboxResponse } from '../../harness/contracts.js';
import { arrivalWatch, watchedInbox } from './arrival-watch.js';

export type SuiteContext = ConformanceContext & {
  /** The target's clock (control GET /clock), else the harness clock. */
  targetNow?: () => Promise<number>;
  /** A fresh capture inbox owned by this test. */
  inbox?: (opts?: { label?: string; response?: InboxResponse }) => Promise<Inbox>;
  /** Runs fn while no other test runs (harness/run/gate.ts); the clock is at real time afterwards. */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Runs a step that rests on another requirement: its failure blocks the test (harness/run/prerequisite.ts). */
  prerequisite?: <T>(id: string | readonly string[], fn: () => T | Promise<T>) => Promise<T>;
  /** True when an earlier answer of this test rotated this access token. */
  superseded?: (accessToken: string) => boolean;
};

/** The target's current time in epoch ms: signature timestamps are judged against it. */
export async function targetNow(t: SuiteContext): Promise<number> {
  if (typeof t.targetNow === 'function') return t.targetNow();
  if (t.control && t.target.has('clock')) return t.control.now();
  return Date.now();
}

/** A new inbox on the capture server for this test. */
export async function newInbox(t: SuiteContext, opts: { label?: string; response?: InboxResponse } = {}): Promise<Inbox> {
  const inbox = typeof t.inbox === 'function' ? await t.inbox(opts) : await t.capture.newInbox(opts);
  // Its waits end early against a target that delivers nothing (arrival-watch.ts).
  return watchedInbox(inbox, arrivalWatch(t.target, t.capture));
}

/** A control client, or end the test as not tested (callers declare the capability in `needs`). */
export function control(t: SuiteContext): NonNullable<ConformanceContext['control']> {
  if (!t.control) t.notTested('the target offers no control protocol');
  return t.control;
}

/**
 * Runs fn while no other test runs: a test that leased a fixture set moves the target's
 * clock only in here. In a sequential run (or a bare context) fn simply runs.
 */
export async function alone<T>(t: SuiteContext, fn: () => Promise<T>): Promise<T> {
  return typeof t.exclusive === 'function' ? t.exclusive(fn) : fn();
}
