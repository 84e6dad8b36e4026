import { defineConfig } from 'vitest/config';

/**
 * Two projects:
 * - unit: the project's own tests (harness, mock, self-verification), `npm test`;
 * - conformance: the conformance suites, run against a target by `npm run conformance`
 *   (harness/cli.ts starts vitest with this project, its reporters and the run directory).
 * The suites share one target (one clock, one set of webhook registrations), so they run
 * one file at a time and one test at a time.
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
          environment: 'node',
          globalSetup: ['harness/global-setup.ts'],
          fileParallelism: false,
          sequence: { concurrent: false, shuffle: false },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
