/** The test timeouts of a conformance run, and the setting that scales them. */

/** The conformance project's own test timeout (vitest.config.ts), for tests that name none. */
export const PROJECT_TEST_TIMEOUT_MS = 30_000;

/**
 * LOCKCONF_TEST_TIMEOUT_SCALE: a positive number (default 1) that multiplies every test timeout.
 * Below 1 it only makes tests run out of time sooner, which costs a confirming run, never a verdict
 * (a tiny one makes tests run out of time on purpose, to show the confirming run).
 */
export function testTimeoutScale(env: NodeJS.ProcessEnv): number {
  const n = Number(env.LOCKCONF_TEST_TIMEOUT_SCALE ?? 1);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

