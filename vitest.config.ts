import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The unit project's longest files, longest first (their wall time inside npm test, measured):
 * they start before every other file, whatever vitest's results cache says, so the short files
 * fill the end and both workers finish together. vitest's own order (BaseSequencer) puts last
 * run's longest files first only when its cache holds them; a fresh clone or a CI machine gets
 * the largest files first, which left long small files (the receiver's matrix, the partial runs)
 * to start in the last minute with little to run beside them. A file missing from the list only
 * runs later; the list orders, it selects nothing.
 */
export const LONGEST_FIRST = [
  'test/self-verification/kill-matrix.test.ts',
  'test/harness/report/full-run.test.ts',
  'test/receiver/receiver-self-verification.test.ts',
  'test/distribution/pack.test.ts',
  'test/harness/report/screenshots.test.ts',
  'test/harness/certify/certified-package.test.ts',
  'test/harness/one-run-per-target.test.ts',
  'test/harness/cli-partial-runs.test.ts',
  'test/harness/compare/compare-replay-cli.test.ts',
  'test/harness/sandbox/token-cache-kill.test.ts',
  'test/harness/sandbox/sandbox-run.test.ts',
  'test/client/client-browser-run.test.ts',
  'test/mock/hardening/fuzz-all-routes.test.ts',
  'test/harness/sandbox/login-cli.test.ts',
  'test/harness/cli-broken-target.test.ts',
  'test/harness/cli-preflight.test.ts',
  'test/mock/pages-screenshots.test.ts',
  'test/harness/cli.test.ts',
  'test/client/example-pages.test.ts',
  'test/harness/sandbox/login-mock-browser.test.ts',
];

/** vitest's order, with the files of LONGEST_FIRST moved to the front of their project. */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const i = LONGEST_FIRST.indexOf(relative(this.ctx.config.root, spec.moduleId).split('\\').join('/'));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    const place = new Map<string, number>(); // each project keeps its place in vitest's order
    sorted.forEach((spec, i) => { if (!place.has(spec.project.name)) place.set(spec.project.name, i); });
    return sorted
      .map((spec, i) => ({ spec, key: [place.get(spec.project.name)!, rank(spec), i] as const }))
      .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
      .map((x) => x.spec);
  }
}

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
/**
 * No PostCSS: nothing here is CSS. Without this, vite searches every folder from the root
 * up for a PostCSS config file when each project's server starts (inline, the search is skipped).
 */
const NO_POSTCSS = { postcss: {} };

/**
 * allure-vitest's setup only where the run writes Allure results. With --no-allure (the command
 * sets LOCKCONF_NO_ALLURE=1 before vitest loads this file) its steps per assertion were recorded
 * and thrown away (harness/run/test-evidence.ts), and its modules loaded in every run's worker.
 */
const allureSetup = (): string[] => (process.env.LOCKCONF_NO_ALLURE === '1' ? [] : ['allure-vitest/setup']);

export default defineConfig({
  css: NO_POSTCSS,
  test: {
    // The longest unit files (the self-verification matrix first) start first, so the short
    // ones fill the end; other projects keep vitest's order.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          // The folder of the conformance runs several files only read, made once per invocation
          // by the first file that asks (test/support/shared-runs.ts).
          globalSetup: ['test/support/shared-runs-setup.ts'],
          // vitest 4 gives run mode one worker less than the cores: one worker on a
          // 2-core machine, so everything waited for the matrix. The matrix's worker
          // mostly waits on its child runs; the other files run beside it. A third worker on 2 cores
          // measured 581 s against 614 s for the whole npm test, but its contention stretched a CPU-bound
          // test past its timeout on a fresh clone: two.
          maxWorkers: Math.max(2, availableParallelism()),
          // Each worker runs file after file with the modules it loaded kept (fastify, the
          // mock, the harness): a fresh process per file cost about half the CPU of the small
          // files. A file that leaves state in a module behind (an interrupt halts the token
          // refreshes of its process) calls vi.resetModules() in its afterAll.
          isolate: false,
          // The conformance runs of npm test leave the sign-in screens out (a Chromium per run would
          // cost more than the runs): the tests that need them turn them on (LOCKCONF_SIGN_IN=on).
          env: { LOCKCONF_SIGN_IN: 'off' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        css: NO_POSTCSS,
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          exclude: ['suites/receiver/**', 'suites/client/**'],
          environment: 'node',
          globalSetup: ['harness/service/global-setup.ts'],
          setupFiles: allureSetup(),
          // One worker thread, not a forked process: no second Node to start and no IPC between
          // the two (about 0.8 s of CPU of a run's fixed cost); nothing in the suites needs a process of its own.
          pool: 'threads',
          fileParallelism: false,
          // One worker runs every file in turn with the harness's modules loaded once:
          // a fresh process per file cost about a second each. The suites keep no state
          // in modules besides the target view (one per run).
          isolate: false,
          sequence: { concurrent: false, shuffle: false },
          // At most this many leased tests at once (the mock lists more fixture sets than this);
          // they mostly wait for deliveries and quiet windows.
          maxConcurrency: 16,
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
          setupFiles: allureSetup(),
          pool: 'threads', // as the conformance project's
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
          setupFiles: allureSetup(),
          pool: 'threads', // as the conformance project's
          fileParallelism: false,
          retry: 0,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
