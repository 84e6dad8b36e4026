/**
 * conformance(): the one wrapper that declares a conformance test.
 *
 *   conformance('REFRESH-SINGLE-USE', 'a used refresh token is refused with 400',
 *     { needs: ['user-token'] }, async (t) => { … });
 *
 * registers the vitest test "REFRESH-SINGLE-USE: a used refresh token is refused
 * with 400" (so a test-name filter selects by requirement ID) and runs its body
 * with a fresh per-test context (conformance-runner.ts holds the rules).
 */
import { describe as vitestDescribe, test } from 'vitest';
import { RunGate, type Lease } from '../run/gate.js';
import { leasedControl, runPlan, type RunPlan } from './run-plan.js';
import { allureSink } from '../report/allure-sink.js';
import { CaptureClient } from '../wire/capture/client.js';
import { requirement } from '../catalog/index.js';
import { RegistrationJournal, registrationJournalPath, withRegistrationJournal } from '../sandbox/cleanup.js';
import { ControlClient } from '../wire/control-client.js';
import { LockconfError } from '../run/errors.js';
import { createFlows } from '../wire/oauth-flows.js';
import { HttpClient } from '../wire/http.js';
import { getTarget, targetFromSetup, testRedactor } from './target.js';
import { openTokenCache, type TokenCache } from '../sandbox/token-cache.js';
import { withTokenCache } from '../sandbox/token-cache-http.js';
import {
  runConformanceTest,
  type ConformanceBody,
  type ConformanceOptions,
  type RunnerDeps,
  type TestSession,
} from '../run/conformance-runner.js';
import type { CaptureClientLike, ControlClientLike, Fixtures, HttpClientLike, LockconfSetup, Target, TargetProfile } from '../contracts.js';
import { countOwnReset } from './target-lease.js';
import { testTimeoutScale } from '../run/test-timeouts.js';

export type { ConformanceBody, ConformanceOptions, LockconfContext } from '../run/conformance-runner.js';

/**
 * LOCKCONF_TEST_TIMEOUT_SCALE (a positive number, default 1) multiplies the timeouts tests name
 * (the looping tests' 60 s): the self-verification matrix confirms a judgement that rested
 * on time with longer timeouts (test/self-verification/confirm.ts). A longer timeout only
 * waits longer for a hung target; it never changes what a test checks.
 */
const TEST_TIMEOUT_SCALE = testTimeoutScale(process.env);

export function conformance(id: string, title: string, opts: ConformanceOptions, body: ConformanceBody): void {
  requirement(id); // an unknown ID fails at collection, not at run time
  for (const other of opts.also ?? []) requirement(other);
  const plan = workerPlan();
  const leased = plan.concurrent && (opts.lease ?? sectionLease) === 'fixture-set';
  // vitest schedules (a concurrent test starts beside its neighbours, up to maxConcurrency);
  // the gate decides at run time who may run together.
  const declare = !plan.concurrent ? test : leased ? test.concurrent : test.sequential;
  declare(`${id}: ${title}`, opts.timeout !== undefined ? { timeout: Math.max(1, Math.round(opts.timeout * TEST_TIMEOUT_SCALE)) } : {}, async (ctx) => {
    if (!plan.concurrent) return runConformanceTest(id, opts, body, ctx, RUNTIME);
    if (leased) {
      const lease = await workerGate().lease();
      ctx.onTestFailed(() => lease.release()); // a timed-out body must not keep its set
      try {
        await runConformanceTest(id, opts, body, ctx, runtimeWith({ fixtures: lease.set, lease }));
      } finally {
        lease.release();
      }
      return;
    }
    const release = await workerGate().exclusive();
    ctx.onTestFailed(release);
    try {
      await runConformanceTest(id, opts, body, ctx, runtimeWith({ fixtures: plan.sets[0] ?? null, lease: null }));
    } finally {
      release();
    }
  });
}

/**
 * A section (describe) whose tests each lease a fixture set, unless one says
 * `lease: 'none'`: the sections of such a file run side by side (describe.concurrent)
 * when the run is concurrent, so the waits of their tests overlap; the gate still runs
 * every test that leases nothing alone. In a sequential run it is vitest's describe.
 */
export function describeLeased(name: string, fn: () => void): void {
  const collect = () => {
    const outer = sectionLease;
    sectionLease = 'fixture-set';
    try {
      fn();
    } finally {
      sectionLease = outer;
    }
  };
  if (workerPlan().concurrent) vitestDescribe.concurrent(name, collect);
  else vitestDescribe(name, collect);
}

/** The lease of the section being collected (describeLeased). */
let sectionLease: ConformanceOptions['lease'];

/** The worker's plan, from what global setup provided (one per worker, like the target). */
let plan: RunPlan | null = null;

function workerPlan(): RunPlan {
  plan ??= runPlan(getTarget().setup);
  return plan;
}

let gate: RunGate<Fixtures> | null = null;

/**
 * How long a leased test's exclusive phase (t.exclusive, the suites' alone()) lets the
 * tests beside it and after it go on first: it runs when nothing else does, at the end of
 * the leased tests, instead of holding them all back (harness/run/gate.ts). A test
 * that calls alone() adds this to its timeout.
 */
export const EXCLUSIVE_YIELD_MS = 10_000;

/**
 * Counts a reset a test makes itself (the exploration starts each sequence from one), so the
 * run guard does not take it for another run's (GET /fixtures `resets`, target-lease.ts).
 */
export async function countResetOfThisRun(): Promise<void> {
  const { setup } = getTarget();
  await countOwnReset(setup.mock ? null : setup.runDir); // the embedded mock is this run's alone
}

/** The worker's gate: every set is brought back with a quiet reset (not in any test's evidence). */
function workerGate(): RunGate<Fixtures> {
  gate ??= new RunGate(workerPlan().sets, {
    reset: async () => {
      const { setup } = getTarget();
      const quiet = quietControl(setup);
      await countOwnReset(setup.mock ? null : setup.runDir); // the embedded mock is this run's alone
      await quiet.reset();
      await quiet.resetClock();
    },
    afterExclusive: async () => {
      await quietControl(getTarget().setup).resetClock();
    },
    yieldMs: EXCLUSIVE_YIELD_MS,
  });
  return gate;
}

/** The real harness behind each test. */
const RUNTIME: RunnerDeps = {
  target: getTarget,
  // Set 0 even in a sequential run: with further sets listed (LOCKCONF_SEQUENTIAL=1, or no
  // control), a test sees the first user's locks only, as against a target with the minimum.
  session: (target, testName) => openSession(target, testName, { fixtures: workerPlan().sets[0] ?? target.fixtures, lease: null }),
  sink: allureSink,
};

/** The harness for a test of a concurrent run: the fixtures it sees, and its lease if it holds one. */
function runtimeWith(scope: SessionScope): RunnerDeps {
  return { ...RUNTIME, session: (target, testName) => openSession(target, testName, scope) };
}

interface SessionScope {
  /** The fixtures the test sees: its leased set, or set 0. */
  fixtures: Fixtures | null;
  /** A leased test neither resets the target (its set is clean) nor runs alone but in lease.exclusive(). */
  lease: Lease<Fixtures> | null;
}

/** A control client of its own, so resets do not clutter a test's evidence. */
function quietControl(setup: LockconfSetup): ControlClientLike {
  const { profile } = setup;
  const redactor = testRedactor(setup);
  return new ControlClient({
    controlUrl: profile.controlUrl!,
    controlToken: profile.controlToken!,
    http: new HttpClient({ profile, redactor }),
    clientId: profile.clientId,
    redactor,
  });
}

async function openSession(target: Target, testName: string, scope: SessionScope): Promise<TestSession> {
  const { setup, profile } = target;
  const redactor = testRedactor(setup);
  const view: Target = { ...targetFromSetup(setup, redactor), fixtures: scope.fixtures };
  // The HttpClient registers every token and code it sees before logging the exchange.
  const raw = new HttpClient({ profile, redactor });
  // Without consent the user's tokens come from the token cache (npm run login): every
  // refresh a suite makes stores its successor, and every webhook registration is
  // journalled before it is sent, so the run can delete it at the end.
  const cache = !target.has('consent') && target.has('user-token') ? await workerTokenCache(profile) : null;
  const http: HttpClientLike = cache
    ? withRegistrationJournal(withTokenCache(raw, cache, profile), new RegistrationJournal(registrationJournalPath(cache.path)), profile)
    : raw;
  const direct = target.has('control') && profile.controlUrl && profile.controlToken
    ? new ControlClient({ controlUrl: profile.controlUrl, controlToken: profile.controlToken, http, clientId: profile.clientId, redactor })
    : null;
  let alone = false; // inside t.exclusive()
  const control = direct && scope.lease ? leasedControl(direct, () => alone) : direct;
  const capture: CaptureClientLike = setup.capture && target.has('capture')
    ? new CaptureClient(setup.capture, { label: testName })
    : noCapture(target.whyMissing('capture') ?? 'no capture server');
  return {
    target: view,
    redactor,
    http,
    capture,
    control,
    flows: createFlows({ target: view, http, control, ...(cache ? { openCache: async () => cache } : {}) }),
    async prepare() {
      if (!control || scope.lease) return;
      const quiet = quietControl(setup);
      await countOwnReset(setup.mock ? null : setup.runDir); // the embedded mock is this run's alone
      await quiet.reset();
      await quiet.resetClock();
    },
    ...(scope.lease ? { exclusive: <T>(fn: () => Promise<T>) => scope.lease!.exclusive(async () => {
      alone = true;
      try {
        return await fn();
      } finally {
        alone = false;
      }
    }) } : {}),
  };
}

/**
 * The token cache, opened once per worker: every write re-reads the file, so one
 * instance serves all the tests of the worker. A failed open is retried by the
 * next test (and ends this one as not tested, with the cache's message).
 */
let tokenCache: Promise<TokenCache> | null = null;

function workerTokenCache(profile: TargetProfile): Promise<TokenCache> {
  tokenCache ??= openTokenCache(profile).catch((err: unknown) => {
    tokenCache = null;
    throw err;
  });
  return tokenCache;
}

/** Without a reachable capture server, opening an inbox ends the test as not tested. */
function noCapture(why: string): CaptureClientLike {
  return {
    async newInbox() {
      throw new LockconfError('ERR_CAPABILITY_MISSING', `needs capture: ${why}`);
    },
  };
}
