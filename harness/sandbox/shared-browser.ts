/**
 * One Chromium per conformance run for the sign-in screens, started before the tests need it:
 * the CLI starts it beside vitest's own start (startSharedBrowser), global setup waits for it
 * and hands its endpoint to the worker (provide 'lockconfBrowser'), and the sign-in suite
 * connects to it (a context per sign-in) instead of launching a browser inside its first test.
 * A run that leaves the sign-in screens out (LOCKCONF_SIGN_IN=off, an --only without them), or
 * a machine without Chromium, starts none: the suite then does as before (launches its own,
 * or ends its tests as not tested with the reason).
 *
 * The launch is kept on globalThis under a registered symbol: the CLI and global setup run in
 * one process but load this module through different loaders (node's, vitest's).
 */
import { existsSync } from 'node:fs';
import type { BrowserServer } from 'playwright-core';
import { chromiumCandidate } from '../client/drivers/chromium-path.js';
import { SIGN_IN_REQUIREMENTS, signInSwitch } from '../run/sign-in-switch.js';

/** What the worker receives: where to connect, and which binary it is (the suite uses it only for that one). */
export interface SharedBrowserInfo {
  wsEndpoint: string;
  executablePath: string;
}

interface Launch {
  executablePath: string;
  server: Promise<BrowserServer | null>;
}

const KEY = Symbol.for('lockconf.sharedBrowser');
/** A launch that has not come up by then counts as failed: global setup goes on, the suite launches its own. */
const LAUNCH_TIMEOUT_MS = 30_000;
const slot = globalThis as typeof globalThis & { [KEY]?: Launch };

/** Does this run drive the sign-in screens (switch on, and the selection, LOCKCONF_SELECTION, holds one of them)? */
export function runDrivesSignIn(env: NodeJS.ProcessEnv): boolean {
  if (!signInSwitch(env).on) return false;
  if (!env.LOCKCONF_SELECTION) return true;
  try {
    const selected = JSON.parse(env.LOCKCONF_SELECTION) as unknown;
    return !Array.isArray(selected) || selected.some((id) => (SIGN_IN_REQUIREMENTS as readonly unknown[]).includes(id));
  } catch {
    return true;
  }
}

/** Starts the run's Chromium when the run drives the sign-in screens (once; a failed launch is null, never thrown). */
export function startSharedBrowser(env: NodeJS.ProcessEnv = process.env): void {
  if (slot[KEY] || !runDrivesSignIn(env)) return;
  const executablePath = chromiumCandidate(undefined, env);
  if (!existsSync(executablePath)) return;
  // playwright is loaded here, not by the module: a run without the sign-in screens never loads it.
  const server = Promise.all([import('playwright-core'), import('../client/drivers/chromium.js')])
    .then(([{ chromium }, { launchOptions }]) => chromium.launchServer({ ...launchOptions(executablePath), timeout: LAUNCH_TIMEOUT_MS }))
    .catch(() => null);
  slot[KEY] = { executablePath, server };
}

/** The run's Chromium once it is up (started now if the CLI did not), or null; and how to stop it. */
export async function sharedBrowser(env: NodeJS.ProcessEnv = process.env): Promise<{ info: SharedBrowserInfo | null; close: () => Promise<void> }> {
  startSharedBrowser(env);
  const launch = slot[KEY];
  const server = launch ? await launch.server : null;
  return {
    info: server && launch ? { wsEndpoint: server.wsEndpoint(), executablePath: launch.executablePath } : null,
    close: async () => {
      if (slot[KEY] === launch) delete slot[KEY];
      await server?.close().catch(() => {});
    },
  };
}

/** Stops the run's Chromium if it is still up (a run that ended before global setup's teardown). */
export async function stopSharedBrowser(): Promise<void> {
  const launch = slot[KEY];
  if (!launch) return;
  delete slot[KEY];
  await (await launch.server)?.close().catch(() => {});
}
