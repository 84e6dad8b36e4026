/**
 * No verdict may depend on the machine's speed (issues 35/36). A test that did not
 * finish within its timeout is not, by that alone, a failure of the target: on a
 * loaded machine a correct target's test can run out of time. So the conformance
 * command runs every such test again, alone, at full strictness, before anything is
 * judged: one after another (LOCKCONF_SEQUENTIAL=1), every test timeout times
 * CONFIRM_TIMEOUT_SCALE, the delivery wait never shorter than the harness's default,
 * the quiet window ("nothing (more) arrives") times the same scale (longer is
 * stricter), as the self-verification matrix confirms its own judgements
 * (test/self-verification/confirm.ts). The re-run's record stands in for the first
 * one (harness/report/reporter.ts release()), with both durations
 * (TimeoutConfirmation). A re-run that does not finish either says what the harness
 * was waiting for (harness/run/pending-work.ts): failed only for a request the target
 * never answered or a delivery never heard; otherwise an error of the run (not tested).
 */
import { join } from 'node:path';
import type { TestRecord, TimeoutConfirmation } from '../run/verdict.js';
import { idFromTestName } from '../run/verdict.js';
import { DEFAULT_DELIVERY_WAIT_MS, DEFAULT_QUIET_WINDOW_MS } from '../run/weakening.js';
import { PROJECT_TEST_TIMEOUT_MS, testTimeoutScale } from '../run/test-timeouts.js';
export { PROJECT_TEST_TIMEOUT_MS, testTimeoutScale };

/** Test timeouts of a confirming run: the harness's (30 s, 60 s for looping tests) times this. */
export const CONFIRM_TIMEOUT_SCALE = 4;

/** vitest's words for a test or hook that ran out of time. */
const TIMED_OUT = /\b(?:Test|Hook) timed out in \d+ ?ms/;

/** The tests of a run that did not finish within their timeout. */
export function unfinishedTests(tests: readonly TestRecord[]): TestRecord[] {
  return tests.filter((t) => t.meta?.unfinished !== undefined || (t.state === 'failed' && (t.errors ?? []).some((e) => TIMED_OUT.test(e))));
}

/** The requirement IDs to narrow the confirming run to (each test's own). */
export function confirmationScope(tests: readonly TestRecord[]): string[] {
  return [...new Set(tests.map((t) => t.meta?.requirement ?? idFromTestName(t.name)).filter((id): id is string => !!id))];
}

function positiveInt(text: string | undefined): number | null {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : null;
}

/** The settings of a confirming run, from the environment the first run ran with. */
export function confirmationSettings(env: NodeJS.ProcessEnv): { env: Record<string, string>; testTimeoutMs: number; timeoutScale: number; deliveryWaitMs: number } {
  const scale = Math.max(1, testTimeoutScale(env)) * CONFIRM_TIMEOUT_SCALE;
  const deliveryWaitMs = Math.max(positiveInt(env.LOCKCONF_DELIVERY_WAIT_MS) ?? DEFAULT_DELIVERY_WAIT_MS, DEFAULT_DELIVERY_WAIT_MS);
  const quiet = (positiveInt(env.LOCKCONF_QUIET_WINDOW_MS) ?? DEFAULT_QUIET_WINDOW_MS) * CONFIRM_TIMEOUT_SCALE;
  return {
    env: {
      LOCKCONF_SEQUENTIAL: '1',
      LOCKCONF_TEST_TIMEOUT_SCALE: String(scale),
      LOCKCONF_DELIVERY_WAIT_MS: String(deliveryWaitMs),
      LOCKCONF_QUIET_WINDOW_MS: String(quiet),
    },
    testTimeoutMs: PROJECT_TEST_TIMEOUT_MS * scale,
    timeoutScale: scale,
    deliveryWaitMs,
  };
}

/**
 * The re-run's records that stand in for the first run's unfinished tests, each with its
 * confirmation. A test the re-run did not hold (it could not be selected) keeps its first record.
 */
export function confirmedRecords(
  first: readonly TestRecord[],
  rerun: readonly TestRecord[],
  settings: { timeoutScale: number; deliveryWaitMs: number },
): TestRecord[] {
  const byName = new Map(rerun.map((t) => [t.name, t]));
  const out: TestRecord[] = [];
  for (const before of first) {
    const after = byName.get(before.name);
    if (!after) continue;
    const own = before.meta?.requirement ?? idFromTestName(before.name);
    const firstReason = before.meta?.outcomes.find((o) => o.id === own)?.reason ?? (before.errors ?? []).join('\n');
    const confirmation: TimeoutConfirmation = {
      firstDurationMs: before.durationMs ?? null,
      firstReason,
      durationMs: after.durationMs ?? null,
      timeoutScale: settings.timeoutScale,
      deliveryWaitMs: settings.deliveryWaitMs,
      finished: unfinishedTests([after]).length === 0,
    };
    out.push({ ...after, file: before.file ?? after.file, confirmation });
  }
  return out;
}

/** Where the confirming run keeps its own run context (the run's folder holds the reports). */
export function confirmationDir(runDir: string): string {
  return join(runDir, 'timeout-confirmation');
}

/** Sets `values` in env, and returns how to put back what was there. */
export function withEnv(env: NodeJS.ProcessEnv, values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((k) => [k, env[k]]));
  Object.assign(env, values);
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
  };
}
