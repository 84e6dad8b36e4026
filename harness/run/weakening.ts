/**
 * The settings that make a run weaker than a certification: a shorter wait for
 * webhook deliveries or for "nothing (more) arrives", skipped preflight checks.
 * A run with any of them can still pass what it checked, but it is no
 * certificate: its verdict is at best *partial* (harness/run/verdict.ts), and
 * every report names the settings. Pure: read from the environment the user
 * started the run with (before global setup sets its own defaults).
 */

/** One setting that weakened the run, as the reports name it. */
export interface Weakening {
  /** The variable or option, e.g. LOCKCONF_DELIVERY_WAIT_MS. */
  setting: string;
  /** Its value as given. */
  value: string;
  /** What it does to the run, in a few words. */
  effect: string;
  /**
   * Requirements the setting left out of the run altogether (LOCKCONF_SIGN_IN=off):
   * outside its scope, like those --only did not select (run/verdict.ts).
   */
  leavesOut?: readonly string[];
}

import { SIGN_IN_REQUIREMENTS, signInSwitch } from './sign-in-switch.js';

/** The defaults the suites use when the variables are not set (suites/support/deliveries.ts, global-setup.ts). */
export const DEFAULT_DELIVERY_WAIT_MS = 15_000;
export const DEFAULT_QUIET_WINDOW_MS = 500;
export const EMBEDDED_MOCK_QUIET_WINDOW_MS = 250;

function positiveInt(text: string | undefined): number | null {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * The weakening settings in `env`. `embeddedMock`: the run's target is the embedded
 * mock, whose own quiet window (250 ms) is the default there, not a weakening. `selected`:
 * the --only scope (null: every requirement).
 */
export function weakeningSettings(env: NodeJS.ProcessEnv, opts: { embeddedMock: boolean; selected?: readonly string[] | null }): Weakening[] {
  const out: Weakening[] = [];
  const wait = positiveInt(env.LOCKCONF_DELIVERY_WAIT_MS);
  if (wait !== null && wait < DEFAULT_DELIVERY_WAIT_MS) {
    out.push({
      setting: 'LOCKCONF_DELIVERY_WAIT_MS',
      value: String(wait),
      effect: `an expected webhook delivery is waited for ${wait} ms instead of ${DEFAULT_DELIVERY_WAIT_MS} ms`,
    });
  }
  const quietDefault = opts.embeddedMock ? EMBEDDED_MOCK_QUIET_WINDOW_MS : DEFAULT_QUIET_WINDOW_MS;
  const quiet = positiveInt(env.LOCKCONF_QUIET_WINDOW_MS);
  if (quiet !== null && quiet < quietDefault) {
    out.push({
      setting: 'LOCKCONF_QUIET_WINDOW_MS',
      value: String(quiet),
      effect: `"nothing (more) arrives" is judged over ${quiet} ms instead of ${quietDefault} ms (retries over ${quiet * 3} ms)`,
    });
  }
  if (env.LOCKCONF_PREFLIGHT === '0' && !opts.embeddedMock) { // the embedded mock has no preflight to skip
    out.push({ setting: 'LOCKCONF_PREFLIGHT', value: '0', effect: 'the credential checks before the run were skipped' });
  }
  // Only a run whose scope holds a requirement of the sign-in screens loses something by leaving them out.
  const scopeHasSignIn = !opts.selected || SIGN_IN_REQUIREMENTS.some((id) => opts.selected!.includes(id));
  if (!signInSwitch(env).on && scopeHasSignIn) {
    out.push({ setting: 'LOCKCONF_SIGN_IN', value: 'off', effect: 'the sign-in screens were not driven (their requirements are left out of the run)', leavesOut: SIGN_IN_REQUIREMENTS });
  }
  return out;
}

/** "LOCKCONF_DELIVERY_WAIT_MS=3000, LOCKCONF_PREFLIGHT=0" */
export function describeWeakenings(list: readonly Weakening[]): string {
  return list.map((w) => `${w.setting}=${w.value}`).join(', ');
}
