/**
 * Headless Chromium for the browser tests: Debian's `chromium` package driven
 * by playwright-core (no browser download). ensureChromium() installs the
 * package when it is missing and we are root on Debian, else explains how.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y --no-install-recommends chromium';

function isDebian(): boolean {
  try {
    return existsSync('/etc/debian_version') || /\bID(_LIKE)?=.*debian/.test(readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

/** The path of the Chromium binary, installing it first when that is possible. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !isDebian()) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}. Install it with: sudo ${INSTALL}`);
  }
  console.log(`[chromium] ${CHROMIUM_PATH} is missing; installing it: ${INSTALL}`);
  execSync(INSTALL, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get finished but ${CHROMIUM_PATH} is still missing`);
  return CHROMIUM_PATH;
}

/** Flags for a headless run as root in a container: no sandbox, no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Chromium. playwright-core gives every launch a fresh, temporary
 * user-data-dir (and refuses a --user-data-dir flag), removed on close().
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
}
