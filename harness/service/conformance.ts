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
import { test } from 'vitest';
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
import type { CaptureClientLike, ControlClientLike, HttpClientLike, Target, TargetProfile } from '../contracts.js';

export type { ConformanceBody, ConformanceOptions, LockconfContext } from '../run/conformance-runner.js';

export function conformance(id: string, title: string, opts: ConformanceOptions, body: ConformanceBody): void {
  requirement(id); // an unknown ID fails at collection, not at run time
  for (const other of opts.also ?? []) requirement(other);
  test(`${id}: ${title}`, opts.timeout !== undefined ? { timeout: opts.timeout } : {}, async (ctx) => {
    await runConformanceTest(id, opts, body, ctx, RUNTIME);
  });
}

/** The real harness behind each test. */
const RUNTIME: RunnerDeps = {
  target: getTarget,
  session: openSession,
  sink: allureSink,
};

async function openSession(target: Target, testName: string): Promise<TestSession> {
  const { setup, profile } = target;
  const redactor = testRedactor(setup);
  const view = targetFromSetup(setup, redactor);
  // The HttpClient registers every token and code it sees before logging the exchange.
  const raw = new HttpClient({ profile, redactor });
  // Without consent the user's tokens come from the token cache (npm run login): every
  // refresh a suite makes stores its successor, and every webhook registration is
  // journalled before it is sent, so the run can delete it at the end.
  const cache = !target.has('consent') && target.has('user-token') ? await workerTokenCache(profile) : null;
  const http: HttpClientLike = cache
    ? withRegistrationJournal(withTokenCache(raw, cache, profile), new RegistrationJournal(registrationJournalPath(cache.path)), profile)
    : raw;
  const control = target.has('control') && profile.controlUrl && profile.controlToken
    ? new ControlClient({ controlUrl: profile.controlUrl, controlToken: profile.controlToken, http, clientId: profile.clientId, redactor })
    : null;
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
      if (!control) return;
      // A client of its own, so the reset does not clutter the test's evidence.
      const quiet: ControlClientLike = new ControlClient({
        controlUrl: profile.controlUrl!,
        controlToken: profile.controlToken!,
        http: new HttpClient({ profile, redactor }),
        clientId: profile.clientId,
        redactor,
      });
      await quiet.reset();
      await quiet.resetClock();
    },
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
