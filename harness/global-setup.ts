/**
 * vitest globalSetup of the `conformance` project. Runs once, in the main
 * process, before any suite:
 * - the target: the profile (LOCKCONF_TARGET_FILE and LOCKCONF_* variables), or
 *   with none the embedded reference mock on an ephemeral port;
 * - fixtures and capabilities (control protocol probe), with the reason for
 *   every missing capability;
 * - the capture server the target posts webhooks to;
 * - the run's seed and directory, and {runDir}/run-context.json (no secrets).
 * Test workers receive it all through inject('lockconf') (harness/target.ts).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import type { TestProject } from 'vitest/node';
import { isLoopbackUrl, workOutCapabilities, type CapabilityFacts } from './capabilities.js';
import { startCaptureServer } from './capture-server.js';
import { ControlClient } from './control.js';
import { LockconfError } from './errors.js';
import { HttpClient } from './http.js';
import { loadProfile } from './profile.js';
import { Redactor } from './redact.js';
import { openTokenCache } from './token-cache.js';
import { createMock, type RunningMock } from '../mock/server.js';
import type { MockOptions } from '../mock/context.js';
import type { Fixtures, LockconfSetup, TargetProfile } from './contracts.js';

declare module 'vitest' {
  export interface ProvidedContext {
    lockconf: LockconfSetup;
  }
}

const ROOT = resolve(import.meta.dirname, '..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const startedAt = new Date().toISOString();
  const env = process.env;
  const { setup: provided, close } = await prepareRun(env, startedAt);
  project.provide('lockconf', provided);
  return close;
}

/** Everything setup() does except provide(): usable outside vitest (and in tests). */
export async function prepareRun(env: NodeJS.ProcessEnv, startedAt = new Date().toISOString()): Promise<{ setup: LockconfSetup; close: () => Promise<void> }> {
  const seed = parseSeed(env.LOCKCONF_SEED);
  const loaded = await loadProfile({ file: env.LOCKCONF_TARGET_FILE || null, env });
  let mock: RunningMock | null = null;
  let profile: TargetProfile;
  if (loaded === null) {
    mock = await createMock(parseMockOptions(env.LOCKCONF_MOCK_OPTIONS));
    profile = mock.profile;
  } else {
    profile = loaded;
    await assertReachable(profile);
  }

  let capture: Awaited<ReturnType<typeof startCaptureServer>> | null = null;
  const close = async () => {
    await capture?.close();
    await mock?.close();
  };
  try {
    const redactor = Redactor.fromProfile(profile);
    const { control, fixtures } = await probeControl(profile, redactor);
    capture = await startCaptureServer({ listen: profile.capture?.listen, publicUrl: profile.capture?.publicUrl ?? null });
    redactor.add(capture.token, 'capture_token');

    const cache = control.ok ? { present: false, problem: null } : await probeTokenCache(profile);
    const facts: CapabilityFacts = {
      control,
      fixtures,
      tokenCache: cache.present,
      tokenCacheProblem: cache.problem,
      loopbackTarget: isLoopbackUrl(profile.baseUrl),
      capturePublicUrl: profile.capture?.publicUrl ?? null,
    };
    const { capabilities, missing } = workOutCapabilities(facts);
    for (const cap of Object.keys(missing) as Array<keyof typeof missing>) missing[cap] = redactor.redact(missing[cap] ?? '');

    const runDir = resolve(env.LOCKCONF_RUN_DIR || join(ROOT, 'reports', 'runs', runId(startedAt)));
    await mkdir(runDir, { recursive: true });
    const setupValue: LockconfSetup = {
      profile,
      mock: mock !== null,
      fixtures,
      capabilities,
      missing,
      capture: { controlUrl: capture.controlUrl, publicBaseUrl: capture.publicBaseUrl, token: capture.token },
      seed,
      runDir,
    };
    await writeRunContext(setupValue, startedAt, redactor);
    process.stderr.write(
      `lockconf: target ${profile.baseUrl}${mock ? ' (embedded mock)' : ''} · seed ${seed} · `
      + `${capabilities.length} capabilities${Object.keys(missing).length ? `, missing: ${Object.keys(missing).join(', ')}` : ''}\n`,
    );
    return { setup: setupValue, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** GET /fixtures on the control interface: the probe that decides the `control` capability. */
async function probeControl(profile: TargetProfile, redactor: Redactor): Promise<{ control: CapabilityFacts['control']; fixtures: Fixtures | null }> {
  if (!profile.controlUrl || !profile.controlToken) {
    const absent = [!profile.controlUrl && 'controlUrl', !profile.controlToken && 'controlToken'].filter(Boolean).join(' and ');
    return { control: { ok: false, reason: `the profile has no ${absent}` }, fixtures: profile.fixtures ?? null };
  }
  const http = new HttpClient({ profile, redactor });
  const client = new ControlClient({ controlUrl: profile.controlUrl, controlToken: profile.controlToken, http, clientId: profile.clientId, redactor });
  try {
    const answered = await client.fixtures();
    return { control: { ok: true }, fixtures: profile.fixtures ?? answered };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      control: { ok: false, reason: redactor.redact(`the control interface at ${profile.controlUrl} did not answer GET /fixtures: ${why}`) },
      fixtures: profile.fixtures ?? null,
    };
  }
}

/** Does the profile's token cache hold a refresh token for this target? (Only asked without control.) */
async function probeTokenCache(profile: TargetProfile): Promise<{ present: boolean; problem: string | null }> {
  try {
    const cache = await openTokenCache(profile);
    return { present: Boolean(cache.current()?.refreshToken), problem: null };
  } catch (err) {
    return { present: false, problem: err instanceof Error ? err.message : String(err) };
  }
}

/** Any HTTP answer counts as reachable; a refused connection, unknown host or timeout does not. */
async function assertReachable(profile: TargetProfile): Promise<void> {
  const urls = [...new Set([profile.authUrl, profile.baseUrl])];
  for (const url of urls) {
    try {
      const res = await request(url, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 });
      await res.body.dump();
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err instanceof Error ? err.name : 'error');
      throw new LockconfError('ERR_TARGET_UNREACHABLE', `target unreachable: ${url} (${code})`, { cause: err });
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
