/** Where the Chromium driver finds its browser (without loading playwright: the command checks it before a run). */
import { existsSync } from 'node:fs';
import { LockconfError } from '../../run/errors.js';
import type { BrowserSteps } from './browser-steps.js';

/** The Chromium binary: the profile's browser.executablePath, $LOCKCONF_CHROMIUM or /usr/bin/chromium. */
export function chromiumPath(steps: BrowserSteps | null | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const path = steps?.executablePath ?? (env.LOCKCONF_CHROMIUM?.trim() || '/usr/bin/chromium');
  if (!existsSync(path)) {
    throw new LockconfError('ERR_SETUP_FAILED', `no Chromium at ${path}: install it (Debian: apt-get install chromium) or set the profile's browser.executablePath or LOCKCONF_CHROMIUM`);
  }
  return path;
}
