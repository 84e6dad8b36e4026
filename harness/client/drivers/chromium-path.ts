/** Where the Chromium driver finds its browser (without loading playwright: the command checks it before a run). */
import { existsSync } from 'node:fs';
import { LockconfError } from '../../run/errors.js';
import type { BrowserSteps } from './browser-steps.js';

/** Where Chromium is looked for: the path the profile names, else $LOCKCONF_CHROMIUM, else /usr/bin/chromium (not checked). */
export function chromiumCandidate(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return configured ?? (env.LOCKCONF_CHROMIUM?.trim() || '/usr/bin/chromium');
}

/** The Chromium binary: the profile's browser.executablePath, $LOCKCONF_CHROMIUM or /usr/bin/chromium. */
export function chromiumPath(steps: BrowserSteps | null | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const path = chromiumCandidate(steps?.executablePath, env);
  if (!existsSync(path)) {
    throw new LockconfError('ERR_SETUP_FAILED', `no Chromium at ${path}: install it (Debian: apt-get install chromium) or set the profile's browser.executablePath or LOCKCONF_CHROMIUM`);
  }
  return path;
}
