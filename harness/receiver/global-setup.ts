/**
 * vitest globalSetup of the `receiver` project (`conformance --receiver URL`).
 * Runs once, in the main process, before any suite: reads the receiver's URL
 * (LOCKCONF_RECEIVER_URL, set by the command from --receiver) and the signing
 * values (harness/receiver/settings.ts), checks the receiver answers HTTP at
 * all, writes {runDir}/run-context.json (no secrets) for the reporter and
 * provides the run to the test workers.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { LockconfError } from '../run/errors.js';
import { assertReceiverReachable } from './reachability.js';
import { loadReceiverSettings, type ReceiverSettings } from './settings.js';
import type { ReceiverRunSetup } from './provided-context.js';
import { lockconfCommand } from '../commands/command-style.js';

const ROOT = resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject): Promise<void> {
  project.provide('lockconfReceiver', await prepareReceiverRun(process.env));
}

/** Everything setup() does except provide(): usable outside vitest (and in tests). */
export async function prepareReceiverRun(env: NodeJS.ProcessEnv, startedAt = new Date().toISOString()): Promise<ReceiverRunSetup> {
  const url = env.LOCKCONF_RECEIVER_URL;
  if (!url) throw new Error(`LOCKCONF_RECEIVER_URL is not set: run ${lockconfCommand('conformance', '--receiver URL')}`);
  const settings = await loadReceiverSettings({
    url,
    explicit: env.LOCKCONF_RECEIVER_EXPLICIT === '1',
    env,
    file: env.LOCKCONF_TARGET_FILE || null,
  });
  await assertReceiverReachable(settings.url);
  const seed = parseSeed(env.LOCKCONF_SEED);
  const runDir = resolve(env.LOCKCONF_RUN_DIR || join(ROOT, 'reports', 'runs', `${startedAt.replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`));
  await mkdir(runDir, { recursive: true });
  await writeRunContext(runDir, settings, seed, startedAt);
  process.stderr.write(`lockconf: receiver ${settings.url} · seed ${seed}${settings.header ? '' : ' · no custom header (LOCKCONF_WEBHOOK_HEADER/TOKEN): its requirement is not tested'}\n`);
  return { settings, seed, runDir };
}

/** What the reporter reads: the receiver's URL and what the run lacked; never a key or token. */
async function writeRunContext(runDir: string, settings: ReceiverSettings, seed: number, startedAt: string): Promise<void> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name?: string; version?: string };
  const missing: Record<string, string> = {};
  if (!settings.header) missing['custom-header'] = 'LOCKCONF_WEBHOOK_HEADER and LOCKCONF_WEBHOOK_TOKEN are not set';
  if (!settings.clientSecret) missing['client-secret'] = 'LOCKCONF_CLIENT_SECRET is not set: the wrong-key delivery is signed with a random key';
  const context = {
    target: { receiverUrl: settings.url, mock: false },
    capabilities: [],
    missing,
    seed,
    startedAt,
    tool: { name: pkg.name ?? 'lockconf', version: pkg.version ?? '0.0.0' },
  };
  await writeFile(join(runDir, 'run-context.json'), `${JSON.stringify(context, null, 2)}\n`);
}

function parseSeed(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return randomInt(0, 2 ** 31);
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new LockconfError('ERR_PROFILE_INVALID', 'LOCKCONF_SEED must be an integer');
  return seed;
}
