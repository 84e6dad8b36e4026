/**
 * Conformance runs that several test files only read, made once per vitest invocation.
 *
 * A run here is the command line on the embedded mock (test/support/cli.ts), as the test
 * files ran it themselves before: each file that needs a run asks sharedRun(name), and
 * the first to ask makes it while every other asker (another file, in this worker or the
 * other) waits for that one. Only the runs some selected file asks for are made, so
 * `vitest run` of one file makes only its own.
 *
 * Where: the folder the unit project's global setup makes for the invocation
 * (test/support/shared-runs-setup.ts, provided as `lockconfSharedRuns`); a run lives in
 * <folder>/<name>/ (its reports in run/, what the command printed in result.json). The
 * folder is claimed with mkdir, atomic across processes: its maker runs the command and
 * publishes result.json by a rename when done; the others poll for it.
 *
 * Readers only read: a test that changes a file copies the run first. Global setup's
 * teardown checks that no file of a shared run was changed, added or removed since it
 * was made (shared-run-files.ts), and fails the invocation if one was.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { cli, type CliResult } from './cli.js';
import { snapshot, type Published } from './shared-run-files.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this invocation's shared runs (test/support/shared-runs-setup.ts). */
    lockconfSharedRuns: string;
  }
}

/** The credentials the embedded mock of `embedded-full` is given (LOCKCONF_MOCK_OPTIONS), so a reader knows what must not leak. */
export const EMBEDDED_CREDS = { clientSecret: 'embedded-secret-2f9c81aa', apiKey: 'embedded-api-key-73be01d4', controlToken: 'embedded-control-5d12e6f0' };

interface RunSpec {
  /** The arguments after `conformance`; `--out` is added. */
  args: string[];
  env: Record<string, string>;
  /** A target profile, written to <folder>/<name>/target.json (mode 0600) and given as --target. */
  profile?: Record<string, unknown>;
}

/** The secrets of the `unreachable` run's profile: a reader checks none is printed or written. */
export const UNREACHABLE_SECRETS = { clientSecret: 'unreach-secret-1234abcd', apiKey: 'unreach-key-5678abcd', controlToken: 'unreach-ctl-9999abcd' };

/**
 * The shared runs, and who reads each (a reader must keep checking what it claims: a change
 * here is a change to every reader's evidence).
 */
export const SHARED_RUNS = {
  /**
   * Every requirement (no --only) on the embedded mock with its credentials fixed, a delivery wait
   * of 3 s, the sign-in screens off (npm test's default): a passing run made *partial* by two
   * weakening settings. Read by cli-partial-runs (a weakened full run is partial, named in every
   * report), full-run (the embedded-mock path leaks none of its credentials) and screenshots (a
   * passing run's page).
   */
  'embedded-full': {
    args: ['--no-allure', '--seed', '6'],
    env: { LOCKCONF_DELIVERY_WAIT_MS: '3000', LOCKCONF_MOCK_OPTIONS: JSON.stringify({ credentials: EMBEDDED_CREDS }) },
  },
  /**
   * REFRESH-* with the mock fault refresh-error-not-oauth (REFRESH-ERROR-RESPONSE fails inside other
   * tests, REFRESH-ERROR-INVALID-GRANT warns), the Allure results on. Read by reports-agree (the five
   * reports agree) and screenshots (a failing run's page).
   */
  'refresh-fault': {
    args: ['--seed', '7', '--only', 'REFRESH-*'],
    env: { LOCKCONF_MOCK_OPTIONS: JSON.stringify({ faults: ['refresh-error-not-oauth'] }), LOCKCONF_DELIVERY_WAIT_MS: '3000' },
  },
  /**
   * A --target whose every address is 127.0.0.1:9 (nothing listens): the run cannot be carried out
   * (exit 2, the verdict error), its four report files with the Allure report all the same. Read by
   * cli (exit 2, no secret printed), cli-preflight (the four files) and screenshots (an error page).
   */
  unreachable: {
    args: [],
    env: {},
    profile: {
      authUrl: 'http://127.0.0.1:9/oauth', baseUrl: 'http://127.0.0.1:9/api', clientId: 'c', redirectUri: 'http://127.0.0.1:9/cb',
      controlUrl: 'http://127.0.0.1:9/_control', fixtures: { users: [], locks: [] }, ...UNREACHABLE_SECRETS,
    },
  },
} satisfies Record<string, RunSpec>;

export type SharedRunName = keyof typeof SHARED_RUNS;

/** A shared run: its reports' folder (read only) and what the command printed. */
export interface SharedRun extends CliResult {
  /** The run's --out folder. */
  dir: string;
  /** Its --target file, when it has one. */
  target?: string;
}

/** The longest a reader waits for a run another file is making (a full run under npm test's load takes minutes). */
const WAIT_MS = 600_000;
const POLL_MS = 200;

const inThisProcess = new Map<SharedRunName, Promise<SharedRun>>();

/** The shared run `name`, made now if no one has made it or is making it. */
export function sharedRun(name: SharedRunName): Promise<SharedRun> {
  let run = inThisProcess.get(name);
  if (!run) {
    run = obtain(name);
    inThisProcess.set(name, run);
  }
  return run;
}

function root(): string {
  const dir = inject('lockconfSharedRuns');
  if (!dir) throw new Error('shared runs need the unit project\'s global setup (test/support/shared-runs-setup.ts in vitest.config.ts)');
  return dir;
}

async function obtain(name: SharedRunName): Promise<SharedRun> {
  const home = join(root(), name);
  const dir = join(home, 'run');
  let mine = true;
  try {
    await mkdir(home);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    mine = false;
  }
  const published = mine ? await make(name, home, dir) : await waitFor(name, home);
  if (published.error !== undefined) throw new Error(`shared run ${name} could not be made: ${published.error}`);
  const target = (SHARED_RUNS[name] as RunSpec).profile ? { target: join(home, 'target.json') } : {};
  return { dir, ...target, code: published.code, stdout: published.stdout, stderr: published.stderr };
}

async function make(name: SharedRunName, home: string, dir: string): Promise<Published> {
  const spec: RunSpec = SHARED_RUNS[name];
  let published: Published;
  try {
    const target = spec.profile ? ['--target', join(home, 'target.json')] : [];
    if (spec.profile) await writeFile(join(home, 'target.json'), JSON.stringify(spec.profile), { mode: 0o600 });
    const r = await cli(['conformance', ...target, '--out', dir, ...spec.args], spec.env);
    published = { ...r, files: await snapshot(dir) };
  } catch (e) {
    published = { code: null, stdout: '', stderr: '', files: {}, error: e instanceof Error ? e.message : String(e) };
  }
  await writeFile(join(home, 'result.json.part'), JSON.stringify(published));
  await rename(join(home, 'result.json.part'), join(home, 'result.json'));
  return published;
}

async function waitFor(name: SharedRunName, home: string): Promise<Published> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      return JSON.parse(await readFile(join(home, 'result.json'), 'utf8')) as Published;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (Date.now() > until) throw new Error(`shared run ${name}: another test file has been making it for ${WAIT_MS / 1000} s and it has not ended (${home})`);
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}
