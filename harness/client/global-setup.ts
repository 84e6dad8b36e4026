/**
 * vitest globalSetup of the `client` project (`npm run conformance -- --client`).
 * Runs once, in the main process:
 * - the profile of the grading mock (LOCKCONF_TARGET_FILE, default
 *   .lockconf/mock-target.json, and LOCKCONF_* variables), with the application's
 *   connectUrl and refreshUrl when given;
 * - the probes against the application (probes.ts; the families LOCKCONF_CLIENT_PROBES names,
 *   default all: probe-selection.ts), when a connectUrl is given, through
 *   the driver the run names (driver-choice.ts: plain HTTP, or Chromium with --browser);
 * - the recording of the profile's client (GET /_control/grading) and its
 *   judgement (judge.ts), handed to the tests;
 * - {runDir}/run-context.json (no secrets) for the reporter.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { LockconfError } from '../run/errors.js';
import { loadProfile } from '../service/profile.js';
import type { LockconfSetup, TargetProfile } from '../contracts.js';
import { applicationUrls, controlOf, endGrading, fetchRecording, probeUser } from './grading-client.js';
import { judgeClient, type ProbeReport } from './judge.js';
import { notRunReport, runProbes, type ProbeSelection } from './probes.js';
import { probeSelection } from './probe-selection.js';
import { driverChoice, withUndriven, type DriverChoice } from './driver-choice.js';
import { httpDrivers } from './drivers/http.js';
import type { DriverFactory } from './drivers/driver.js';
import type {} from './provided-context.js';
import type {} from '../service/provided-context.js';
import { lockconfCommand } from '../commands/command-style.js';

const ROOT = resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject): Promise<void> {
  const startedAt = new Date().toISOString();
  const env = process.env;
  const file = resolve(ROOT, env.LOCKCONF_TARGET_FILE ?? '.lockconf/mock-target.json');
  const profile = await loadProfile({ file, env });
  if (!profile) throw new LockconfError('ERR_PROFILE_INVALID', `no profile at ${file}: start the grading mock with ${lockconfCommand('mock', '--grade')}`);
  const { controlUrl, controlToken } = controlOf(profile);
  const { connectUrl, refreshUrl, actionUrls } = await applicationUrls(file, env);
  const { driver, browser } = await driverChoice(file, env);
  const select = probeSelection(env.LOCKCONF_CLIENT_PROBES); // a bad name stops the run before any probe
  // The mock grades, and answers, before any probe. This run judges the grading in progress only: what the
  // application did since the mock started, since the previous client run ended, or since the recording was cleared.
  const { gradingId } = await fetchRecording(profile);

  let driven: { probes: ProbeReport; undriven: string | null };
  try {
    driven = await driveApplication({ profile, controlUrl, controlToken, connectUrl, refreshUrl, actionUrls, browser, driver, env, select });
  } catch (err) {
    await endGrading(profile, gradingId).catch(() => undefined); // a failed run still ends its grading: the next never judges its requests
    throw err;
  }
  await endGrading(profile, gradingId); // what the application does from now on belongs to the next grading
  const { probes, undriven } = driven;
  const recording = await fetchRecording(profile, gradingId);
  const judgements = withUndriven(judgeClient(recording.events, profile.clientId, probes), undriven);

  const seed = Number(env.LOCKCONF_SEED ?? 0) || 0;
  const runDir = env.LOCKCONF_RUN_DIR ?? null;
  const provided: LockconfSetup = { profile, mock: true, fixtures: profile.fixtures ?? null, capabilities: [], missing: {}, capture: null, seed, runDir };
  project.provide('lockconf', provided);
  project.provide('lockconfClient', { judgements, recorded: recording.events.filter((e) => e.type !== 'mark').length });
  if (runDir) {
    await mkdir(runDir, { recursive: true });
    const context = {
      target: { authUrl: profile.authUrl, baseUrl: profile.baseUrl, mock: true },
      kind: 'oauth-client',
      application: { connectUrl, refreshUrl, actionUrls, driver },
      capabilities: [],
      missing: {},
      seed,
      startedAt,
    };
    await writeFile(join(runDir, 'run-context.json'), `${JSON.stringify(context, null, 2)}\n`);
  }
}

/** lockconf's probes against the application (when the profile names its connectUrl), through the run's driver. */
async function driveApplication(run: {
  profile: TargetProfile; controlUrl: string; controlToken: string; connectUrl: string | null; refreshUrl: string | null; actionUrls: string[];
  browser: DriverChoice['browser']; driver: DriverChoice['driver']; env: NodeJS.ProcessEnv; select: ProbeSelection;
}): Promise<{ probes: ProbeReport; undriven: string | null }> {
  const { profile, controlUrl, controlToken, connectUrl, refreshUrl, actionUrls, browser, driver, env, select } = run;
  if (!connectUrl) {
    const why = 'the profile names no connectUrl (the application\'s address that starts authorization; LOCKCONF_CONNECT_URL)';
    return { probes: notRunReport(why), undriven: null };
  }
  const application = { authUrl: profile.authUrl, connectUrl, refreshUrl, actionUrls, browser };
  const drivers: DriverFactory = driver === 'chromium'
    ? await (await import('./drivers/chromium.js')).chromiumDrivers(application, { env }) // playwright loads only when asked for
    : httpDrivers(application);
  try {
    const credentials = { clientSecret: profile.clientSecret, apiKey: profile.apiKey };
    // A line as each probe family starts and ends (a browser grading takes minutes).
    const progress = (line: string) => { process.stdout.write(`lockconf: ${line}\n`); };
    const seed = Number(env.LOCKCONF_SEED ?? 0) || 0; // the probes' drawn values (forged states, positions) follow the run's seed
    const probes = await runProbes({ ...application, controlUrl, controlToken, userId: await probeUser(profile), drivers, credentials, progress, seed }, select);
    return { probes, undriven: drivers.undriven };
  } finally {
    await drivers.close();
  }
}
