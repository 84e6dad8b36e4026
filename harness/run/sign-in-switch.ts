/**
 * The switch of the sign-in suite (suites/oauth/sign-in-screens.test.ts), which
 * drives the target's sign-in screens with Chromium: on unless LOCKCONF_SIGN_IN=off
 * (`conformance --no-sign-in` sets it). A run with it off leaves those requirements
 * out (not tested, outside the run's scope) and is weakened (run/weakening.ts): at
 * best partial. npm test turns it off for the runs that do not need it
 * (vitest.config.ts), since a browser per run would cost more than the runs.
 */

/** The requirements only the sign-in suite checks. */
export const SIGN_IN_REQUIREMENTS = [
  'OAUTH-SIGN-IN-SCREENS',
  'OAUTH-SIGN-IN-WRONG-PASSWORD',
  'OAUTH-SIGN-IN-WRONG-SMS',
  'OAUTH-SIGN-IN-SMS-NOT-SKIPPED',
  'OAUTH-CONSENT-SHOWS-REQUEST',
] as const;

export const SIGN_IN_LEFT_OUT = 'left out of this run (LOCKCONF_SIGN_IN=off, or --no-sign-in): the sign-in screens were not driven';

export function signInSwitch(env: NodeJS.ProcessEnv): { on: true } | { on: false; why: string } {
  const value = env.LOCKCONF_SIGN_IN?.trim().toLowerCase();
  if (value === 'off' || value === '0' || value === 'false') return { on: false, why: SIGN_IN_LEFT_OUT };
  return { on: true };
}
