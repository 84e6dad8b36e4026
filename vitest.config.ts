import { defineConfig } from 'vitest/config';

/**
 * Two projects:
 * - unit: the project's own tests (harness, mock, self-verification), `npm test`;
 * - conformance: the conformance suites, run against a target by `npm run conformance`
 *   (harness/cli.ts starts vitest with this project, its reporters — lockconf,
 *   junit, allure-vitest — and the run directory).
 * The suites share one target (one clock, one set of webhook registrations), so they run
 * one file at a time and one test at a time. No retries: a conformance result that
 * passes on the second try is not a pass.
 * Within a file, tests that lease a fixture set of their own run side by side when the
 * target lists further sets (docs/architecture.md, Concurrency); every other test alone.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          exclude: ['suites/receiver/**', 'suites/client/**'],
          environment: 'node',
          globalSetup: ['harness/service/global-setup.ts'],
          setupFiles: ['allure-vitest/setup'],
          fileParallelism: false,
          // One worker runs every file in turn with the harness's modules loaded once:
          // a fresh process per file cost about a second each. The suites keep no state
          // in modules besides the target view (one per run).
          isolate: false,
          sequence: { concurrent: false, shuffle: false },
          // At most this many leased tests at once (the mock lists more fixture sets than this).
          maxConcurrency: 5,
          retry: 0,
          // Every wait in a test is bounded by the harness (deliveries, HTTP); this only
          // catches a hung target. The mock's clock is moved, never waited out.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // `conformance --receiver URL`: an application's webhook receiver as the target
        // (harness/commands/receiver.ts); one delivery at a time, no retries.
        test: {
          name: 'receiver',
          include: ['suites/receiver/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['harness/receiver/global-setup.ts'],
          setupFiles: ['allure-vitest/setup'],
          fileParallelism: false,
          sequence: { concurrent: false, shuffle: false },
          retry: 0,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // An application's OAuth client, graded by the mock (`npm run conformance -- --client`):
        // global setup runs the probes and judges the recording; the tests read the judgement.
        test: {
          name: 'client',
          include: ['suites/client/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['harness/client/global-setup.ts'],
          setupFiles: ['allure-vitest/setup'],
          fileParallelism: false,
          retry: 0,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
