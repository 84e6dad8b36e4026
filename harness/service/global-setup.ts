/**
 * vitest globalSetup of the `conformance` project. Runs once, in the main
 * process, before any suite:
 * - the target: the profile (LOCKCONF_TARGET_FILE and LOCKCONF_* variables), or
 *   with none the embedded reference mock on an ephemeral port;
 * - fixtures and capabilities (control protocol probe), with the reason for
 *   every missing capability;
 * - the capture server the target posts webhooks to, and for a target that may
 *   not reach it (not the embedded mock, not a loopback target with control) the
 *   webhook reachability probe (harness/sandbox/reachability.ts);
 * - on a target without control, run from the token cache: the webhook
 *   registrations a killed run left behind are deleted at the start, those of
 *   this run at the end and on Ctrl-C / SIGTERM, after a warning that the
 *   fixture locks' registrations get overwritten (harness/sandbox/cleanup.ts);
 * - the run's seed and directory, and {runDir}/run-context.json (no secrets).
 * Test workers receive it all through inject('lockconf') (harness/service/target.ts).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { installDispatcher } from '../wire/dispatcher.js';
import type { TestProject } from 'vitest/node';
import { isLoopbackUrl, workOutCapabilities, type CapabilityFacts } from './capabilities.js';
import { CaptureClient } from '../wire/capture/client.js';
import { startCaptureServer } from '../wire/capture/server.js';
import { RegistrationJournal, cleanUpRegistrations, onInterrupt, overwriteWarning, registrationJournalPath, withRegistrationJournal } from '../sandbox/cleanup.js';
import { ControlClient } from '../wire/control-client.js';
import { LockconfError } from '../run/errors.js';
import { createFlows } from '../wire/oauth-flows.js';
import { HttpClient } from '../wire/http.js';
import { loadProfile } from './profile.js';
import { describeNetworkError } from '../wire/network-words.js';
import { probeWebhookReachability, type ReachabilityResult } from '../sandbox/reachability.js';
import { Redactor } from '../wire/redact.js';
import { targetFromSetup } from './target-view.js'; // not target.js: that one loads vitest's test API
import { openTokenCache, type TokenCache } from '../sandbox/token-cache.js';
import { withTokenCache } from '../sandbox/token-cache-http.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { markPhase } from '../report/timings.js';
import { sharedBrowser, startSharedBrowser } from '../sandbox/shared-browser.js';
import type { MockOptions } from '../../mock/context.js';
import type { Fixtures, HttpClientLike, LockconfSetup, TargetProfile } from '../contracts.js';

import type {} from './provided-context.js'; // the ProvidedContext augmentation for 'lockconf'
import { guardTarget, type TargetGuard } from './target-lease.js';
import { gracefulInterruptInstalled } from '../run/interrupt.js';
import { EMBEDDED_MOCK_QUIET_WINDOW_MS as QUIET_WINDOW_EMBEDDED } from '../run/weakening.js';
import { lockconfCommand } from '../commands/command-style.js';

installDispatcher();

const ROOT = resolve(import.meta.dirname, '../..');
/** The quiet window against the embedded mock (500 ms against any other target). */
export const EMBEDDED_MOCK_QUIET_WINDOW_MS = QUIET_WINDOW_EMBEDDED;
/**
 * The embedded mock gives up on a webhook receiver after this long (`npm run mock`: 5 s), so
 * DELIVERY-NO-RETRY-TIMEOUT sees it give up within a short hold; LOCKCONF_MOCK_OPTIONS may set another.
 */
export const EMBEDDED_MOCK_DELIVERY_TIMEOUT_MS = 1000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  markPhase('setup');
  const startedAt = new Date().toISOString();
  const env = process.env;
  // The sign-in screens' Chromium starts beside the target (the CLI may have started it already, beside vitest's start).
  startSharedBrowser(env);
  const { setup: provided, close } = await prepareRun(env, startedAt);
  const browser = await sharedBrowser(env);
  markPhase('setup-done');
  // The embedded mock sends webhooks from this process within milliseconds: "nothing more
  // arrives" is shown in a shorter window (suites/support/deliveries.ts reads it in the workers).
  if (provided.mock && !env.LOCKCONF_QUIET_WINDOW_MS) env.LOCKCONF_QUIET_WINDOW_MS = String(EMBEDDED_MOCK_QUIET_WINDOW_MS);
  project.provide('lockconf', provided);
  project.provide('lockconfBrowser', browser.info);
  return async () => {
    await browser.close();
    await close();
  };
}

/** How a run talks to its surroundings; tests replace them. */
export interface RunHooks {
  /** Notes of the run (clean-up, warnings, the probe): default stderr. */
  log?: (line: string) => void;
  /** Ends the process after the clean-up an interrupt triggered (default process.exit). */
  exit?: (code: number) => void;
  /**
   * Set aside the signal listeners installed before ours while a sandbox run is
   * on (vitest's exit at once, which would cut the clean-up short); default true.
   */
  exclusiveSignals?: boolean;
  /** How long the reachability probe waits for a delivery (default 10 s). */
  probeTimeoutMs?: number;
}

/** Everything setup() does except provide(): usable outside vitest (and in tests). */
export async function prepareRun(
  env: NodeJS.ProcessEnv,
  startedAt = new Date().toISOString(),
  hooks: RunHooks = {},
): Promise<{ setup: LockconfSetup; close: () => Promise<void> }> {
  const log = hooks.log ?? ((line: string) => { process.stderr.write(`lockconf: ${line}\n`); });
  const seed = parseSeed(env.LOCKCONF_SEED);
  const loaded = await loadProfile({ file: env.LOCKCONF_TARGET_FILE || null, env });
  let mock: RunningMock | null = null;
  let profile: TargetProfile;
  if (loaded === null) {
    mock = await createMock({ deliveryTimeoutMs: EMBEDDED_MOCK_DELIVERY_TIMEOUT_MS, ...parseMockOptions(env.LOCKCONF_MOCK_OPTIONS) });
    // The seed of a jittered mock, so that a failing round can be run again with it.
    if (mock.ctx.jitter) log(`embedded mock: ${mock.ctx.jitter.describe()}`);
    profile = mock.profile;
  } else {
    profile = loaded;
    await assertReachable(profile);
  }
  markPhase('setup-target');

  let capture: Awaited<ReturnType<typeof startCaptureServer>> | null = null;
  let sandbox: { cache: TokenCache; http: HttpClient } | null = null;
  let stopWatching: (() => void) | null = null;
  let targetGuard: TargetGuard | null = null;
  let closing: Promise<void> | null = null;
  /** Deletes the registrations this run (or a killed one) made; reports, never throws. */
  const cleanUp = async (when: string) => {
    if (!sandbox) return;
    try {
      for (const line of await cleanUpRegistrations(sandbox.cache, { http: sandbox.http })) log(line);
    } catch (err) {
      log(`clean-up ${when} failed: ${err instanceof Error ? err.message : String(err)}; the next run retries`);
    }
  };
  // Teardown, or the end of an interrupt: the sandbox's registrations first, while the target's token still works.
  const close = () => (closing ??= (async () => {
    stopWatching?.();
    await cleanUp('at the end of the run');
    await targetGuard?.close();
    await capture?.close();
    await mock?.close();
  })());
  try {
    const redactor = Redactor.fromProfile(profile);
    const { control, fixtures, client: controlClient } = await probeControl(profile, redactor);
    // Someone's development server (lockconf mock): said before the first test resets it.
    if (fixtures?.developmentServer) log(developmentServerWarning(profile.controlUrl ?? profile.baseUrl));
    capture = await startCaptureServer({ listen: profile.capture?.listen, publicUrl: profile.capture?.publicUrl ?? null, doors: true });
    redactor.add(capture.token, 'capture_token');
    markPhase('setup-capture');

    const cacheProbe = control.ok ? { cache: null, problem: null } : await probeTokenCache(profile);
    const http = new HttpClient({ profile, redactor });
    if (cacheProbe.cache) {
      sandbox = { cache: cacheProbe.cache, http };
      await cleanUp('of what an earlier run left behind');
      // Ctrl-C or a cancelled CI job: the refresh in flight is stored, then the registrations are deleted.
      // Under the CLI the run ends gracefully instead (run/interrupt.ts): the tests in progress
      // end, their refreshes are stored, the reports are written, and teardown deletes the registrations.
      if (!gracefulInterruptInstalled()) stopWatching = exclusiveSignals(
        onInterrupt(() => close(), { log, ...(hooks.exit ? { exit: hooks.exit } : {}) }),
        hooks.exclusiveSignals !== false,
      );
      const lockIds = (fixtures?.locks ?? []).map((l) => l.lockId);
      if (lockIds.length > 0) log(overwriteWarning(lockIds));
    }

    const facts: CapabilityFacts = {
      control,
      fixtures,
      tokenCache: cacheProbe.cache !== null,
      tokenCacheProblem: cacheProbe.problem,
      loopbackTarget: isLoopbackUrl(profile.baseUrl),
      capturePublicUrl: profile.capture?.publicUrl ?? null,
    };
    let { capabilities, missing } = workOutCapabilities(facts);

    const runDir = resolve(env.LOCKCONF_RUN_DIR || join(ROOT, 'reports', 'runs', runId(startedAt)));
    await mkdir(runDir, { recursive: true });
    // One run per target at a time (target-lease.ts): the lease, or the reset count that shows another run.
    if (!mock) targetGuard = await guardTarget({ control: controlClient, target: profile, runDir, env, log });
    const setupValue: LockconfSetup = {
      profile,
      mock: mock !== null,
      fixtures,
      capabilities,
      missing,
      capture: { controlUrl: capture.controlUrl, publicBaseUrl: capture.publicBaseUrl, token: capture.token, ...(capture.doors ? { doors: capture.doors } : {}) },
      seed,
      runDir,
    };

    // The embedded mock and a loopback target with control are known to reach the capture server.
    const probeWanted = mock === null && capabilities.includes('capture') && capabilities.includes('user-token')
      && !(facts.loopbackTarget && control.ok);
    if (probeWanted) {
      const result = await runReachabilityProbe({
        setup: setupValue,
        http: sandbox
          ? withRegistrationJournal(withTokenCache(http, sandbox.cache, profile), new RegistrationJournal(registrationJournalPath(sandbox.cache.path)), profile)
          : http,
        cache: sandbox?.cache ?? null,
        control: controlClient,
        redactor,
        ...(hooks.probeTimeoutMs !== undefined ? { timeoutMs: hooks.probeTimeoutMs } : {}),
      });
      log(describeProbe(result, setupValue.capture!.publicBaseUrl));
      if (result.outcome === 'unreachable') {
        ({ capabilities, missing } = workOutCapabilities({ ...facts, captureUnreachable: result.reason }));
      }
    }
    for (const cap of Object.keys(missing) as Array<keyof typeof missing>) missing[cap] = redactor.redact(missing[cap] ?? '');
    setupValue.capabilities = capabilities;
    setupValue.missing = missing;

    await writeRunContext(setupValue, startedAt, redactor);
    log(`target ${profile.baseUrl}${mock ? ' (embedded mock)' : ''} · seed ${seed} · `
      + `${capabilities.length} capabilities${Object.keys(missing).length ? `, missing: ${Object.keys(missing).join(', ')}` : ''}`);
    return { setup: setupValue, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The reachability probe with the user's token: from the token cache (its access
 * token lives for months; no refresh is spent), or through consent with control.
 * An error on the way is an inconclusive probe, not a failed run.
 */
async function runReachabilityProbe(deps: {
  setup: LockconfSetup;
  http: HttpClientLike;
  cache: TokenCache | null;
  control: ControlClient | null;
  redactor: Redactor;
  timeoutMs?: number;
}): Promise<ReachabilityResult> {
  const { setup, redactor } = deps;
  const lockId = setup.fixtures?.locks[0]?.lockId;
  if (!lockId) return { outcome: 'inconclusive', reason: 'the fixtures list no lock to register a webhook on' };
  try {
    const accessToken = deps.cache
      ? deps.cache.current()?.accessToken
      : (await createFlows({ target: targetFromSetup(setup, redactor), http: deps.http, control: deps.control }).userSession()).accessToken;
    if (!accessToken) return { outcome: 'inconclusive', reason: 'no access token in the token cache' };
    return await probeWebhookReachability({
      profile: setup.profile,
      http: deps.http,
      capture: new CaptureClient(setup.capture!, { label: 'reachability' }),
      publicBaseUrl: setup.capture!.publicBaseUrl,
      lockId,
      accessToken,
      redactor,
      ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
    });
  } catch (err) {
    return { outcome: 'inconclusive', reason: redactor.redact(err instanceof Error ? err.message : String(err)) };
  }
}

function describeProbe(result: ReachabilityResult, publicBaseUrl: string): string {
  switch (result.outcome) {
    case 'reachable':
      return `webhook reachability: a delivery reached the capture server at ${publicBaseUrl} ${result.afterMs} ms after the status check`;
    case 'unreachable':
      return `webhook reachability: ${result.reason}. The webhook tests are reported not tested.`;
    case 'inconclusive':
      return `webhook reachability not established (${result.reason}); the webhook suites run and judge the target's answers`;
  }
}

/**
 * While a sandbox run may need to clean up, its interrupt handler is the only one
 * for SIGINT, SIGTERM and SIGHUP: the listeners installed before (vitest's
 * reporter exits the process 1 ms after the signal) are set aside and put back
 * when `stop` is called.
 */
function exclusiveSignals(stop: () => void, exclusive: boolean): () => void {
  if (!exclusive) return stop;
  const setAside = new Map<NodeJS.Signals, Function[]>();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const all = process.rawListeners(signal);
    // onInterrupt's listener was added last; the others came before it.
    setAside.set(signal, all.slice(0, -1));
    for (const listener of all.slice(0, -1)) process.removeListener(signal, listener as (...args: unknown[]) => void);
  }
  return () => {
    stop();
    for (const [signal, listeners] of setAside) {
      for (const listener of listeners) process.on(signal, listener as (...args: unknown[]) => void);
    }
  };
}

/** What a run against someone's development server (GET /fixtures: developmentServer) says before its first reset. */
export function developmentServerWarning(controlUrl: string): string {
  return `warning: ${controlUrl} is a development server (its GET /fixtures says developmentServer): this run resets it before its tests, `
    + 'so the webhook registrations, tokens and sign-ins made on it by hand are wiped (its fixtures and credentials stay). '
    + `To keep them, test the embedded mock instead (${lockconfCommand('conformance')}, no --target).`;
}

/** GET /fixtures on the control interface: the probe that decides the `control` capability. */
async function probeControl(profile: TargetProfile, redactor: Redactor): Promise<{ control: CapabilityFacts['control']; fixtures: Fixtures | null; client: ControlClient | null }> {
  if (!profile.controlUrl || !profile.controlToken) {
    const absent = [!profile.controlUrl && 'controlUrl', !profile.controlToken && 'controlToken'].filter(Boolean).join(' and ');
    return { control: { ok: false, reason: `the profile has no ${absent}` }, fixtures: profile.fixtures ?? null, client: null };
  }
  const http = new HttpClient({ profile, redactor });
  const client = new ControlClient({ controlUrl: profile.controlUrl, controlToken: profile.controlToken, http, clientId: profile.clientId, redactor });
  try {
    const answered = await client.fixtures();
    // The profile's users and locks win; the optional fields only the control answer gives (clients…) are kept.
    return { control: { ok: true }, fixtures: profile.fixtures ? { ...answered, ...profile.fixtures } : answered, client };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      control: { ok: false, reason: redactor.redact(`the control interface at ${profile.controlUrl} did not answer GET /fixtures: ${why}`) },
      fixtures: profile.fixtures ?? null,
      client: null,
    };
  }
}

/** The profile's token cache when it holds a refresh token for this target (only asked without control). */
async function probeTokenCache(profile: TargetProfile): Promise<{ cache: TokenCache | null; problem: string | null }> {
  try {
    const cache = await openTokenCache(profile);
    return { cache: cache.current()?.refreshToken ? cache : null, problem: null };
  } catch (err) {
    return { cache: null, problem: err instanceof Error ? err.message : String(err) };
  }
}

/** Any HTTP answer counts as reachable; a refused connection, unknown host or timeout does not. */
async function assertReachable(profile: TargetProfile): Promise<void> {
  const urls = [...new Set([profile.authUrl, profile.baseUrl])];
  for (const url of urls) {
    try {
      const res = await request(url, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(20_000) });
      await res.body.dump(); // at most undici's dump limit (128 KiB) is read
    } catch (err) {
      throw new LockconfError('ERR_TARGET_UNREACHABLE', `target unreachable: ${url}: ${describeNetworkError(err, { timeoutMs: 10_000 })}`, { cause: err });
    }
  }
}

export function parseSeed(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return randomInt(0, 2 ** 31);
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) {
    throw new LockconfError('ERR_PROFILE_INVALID', 'LOCKCONF_SEED must be an integer');
  }
  return seed;
}

export function parseMockOptions(raw: string | undefined): MockOptions {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new LockconfError('ERR_PROFILE_INVALID', 'LOCKCONF_MOCK_OPTIONS is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new LockconfError('ERR_PROFILE_INVALID', 'LOCKCONF_MOCK_OPTIONS must be a JSON object');
  }
  return parsed as MockOptions;
}

function runId(startedAt: string): string {
  return `${startedAt.replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

async function writeRunContext(setup: LockconfSetup, startedAt: string, redactor: Redactor): Promise<void> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name?: string; version?: string };
  const context = {
    target: { authUrl: setup.profile.authUrl, baseUrl: setup.profile.baseUrl, mock: setup.mock },
    capabilities: setup.capabilities,
    missing: setup.missing,
    seed: setup.seed,
    startedAt,
    tool: { name: pkg.name ?? 'lockconf', version: pkg.version ?? '0.0.0' },
  };
  // Only addresses and reasons are written; redacted anyway in case a URL carries a secret.
  await writeFile(join(setup.runDir!, 'run-context.json'), `${redactor.redact(JSON.stringify(context, null, 2))}\n`);
}
