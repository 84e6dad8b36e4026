/**
 * Which driver a client run's probes use (drivers/driver.ts), and the profile's
 * `browser` section: `conformance --client --browser` (it sets LOCKCONF_DRIVER),
 * LOCKCONF_DRIVER=chromium|http, or the profile's "driver"; default http.
 */
import { readFile } from 'node:fs/promises';
import { LockconfError } from '../run/errors.js';
import { didYouMean } from '../run/did-you-mean.js';
import { parseDriverFields, type BrowserSteps } from './drivers/browser-steps.js';
import type { DriverKind } from './drivers/driver.js';
import type { ClientJudgement } from './judge.js';

export interface DriverChoice {
  driver: DriverKind;
  browser: BrowserSteps | null;
}

export async function driverChoice(file: string | null, env: NodeJS.ProcessEnv): Promise<DriverChoice> {
  let raw: Record<string, unknown> = {};
  if (file) {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
    } catch {
      raw = {};
    }
  }
  const fields = parseDriverFields(raw, file ?? 'profile');
  const variable = env.LOCKCONF_DRIVER?.trim();
  if (variable && variable !== 'http' && variable !== 'chromium') {
    throw new LockconfError('ERR_PROFILE_INVALID', `LOCKCONF_DRIVER must be http or chromium${didYouMean(variable, ['http', 'chromium'])}`);
  }
  return { driver: (variable as DriverKind | undefined) || fields.driver || 'http', browser: fields.browser };
}

/** What the driver could not drive (a connect page, the profile's buttons), said beside each rule left untested. */
export function withUndriven(judgements: ClientJudgement[], undriven: string | null): ClientJudgement[] {
  if (!undriven) return judgements;
  return judgements.map((j) => (j.status === 'not-tested' && !j.reason.includes(undriven) ? { ...j, reason: `${j.reason} (${undriven})` } : j));
}
