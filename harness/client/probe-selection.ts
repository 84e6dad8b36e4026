/**
 * LOCKCONF_CLIENT_PROBES: which probe families a client run drives (default: all),
 * a comma- or space-separated list of session (with its answers probes: a write
 * answered 201 or 204, the double submit of the refresh, the reloaded callback and the connect URL under another loopback name), state (with the cancellation probes: a cancellation whose state does not match), denial, api-401 (the page's 401 and the 401 on each
 * kind of call), refresh-refused (with the failed-check probes: the first call after a refresh answered 401, 500 or 503, then a refresh again; the token-errors probes: the code exchange and a refresh answered 302, 400, 500 or 503). A family left out is
 * reported as not run, "left out of this run's probe selection", so the rules it
 * exercises are not tested (the run is then at best incomplete), and the setting
 * weakens the run (named in its reports like the settings of run/weakening.ts). Pure.
 */
import { LockconfError } from '../run/errors.js';
import type { Weakening } from '../run/weakening.js';
import type { ProbeSelection } from './probes.js';

export const PROBE_FAMILIES = ['session', 'state', 'denial', 'api-401', 'refresh-refused'] as const;

/**
 * No probe at all: every key of ProbeSelection, off. A narrowed selection starts from it
 * (`{ ...NO_PROBES, denial: true }`), so a family added later is off there until named,
 * rather than run by every narrowed grading (Required<>: a new key fails the typecheck here).
 */
export const NO_PROBES: Readonly<Required<ProbeSelection>> = {
  session: false, state: false, cancellation: false, denial: false, api401: false, api401Family: false, api401Points: false,
  failedCheck: false, tokenErrors: false, refreshRefused: false, refreshInFlight: false, reload: false, answers: false, reachedAs: false,
};

/** The families named in `text`, or null when unset (every family runs). */
export function probeFamilies(text: string | undefined): string[] | null {
  if (text === undefined || text.trim() === '') return null;
  const names = text.split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((n) => !(PROBE_FAMILIES as readonly string[]).includes(n));
  if (unknown.length) throw new LockconfError('ERR_USAGE', `LOCKCONF_CLIENT_PROBES names no probe family ${unknown.join(', ')}: use ${PROBE_FAMILIES.join(', ')}`);
  return names;
}

/** The ProbeSelection for runProbes() from LOCKCONF_CLIENT_PROBES (every family when unset). */
export function probeSelection(text: string | undefined): ProbeSelection {
  const names = probeFamilies(text);
  if (names === null) return {};
  const on = (family: string) => names.includes(family);
  return { session: on('session'), answers: on('session'), refreshInFlight: on('session'), reload: on('session'), reachedAs: on('session'), state: on('state'), cancellation: on('state'), denial: on('denial'), api401: on('api-401'), api401Family: on('api-401'), api401Points: on('api-401'), refreshRefused: on('refresh-refused'), failedCheck: on('refresh-refused'), tokenErrors: on('refresh-refused') };
}

/** The setting as a weakening of the client run (none when every family runs). */
export function probeWeakening(text: string | undefined): Weakening[] {
  const names = probeFamilies(text);
  if (names === null || PROBE_FAMILIES.every((f) => names.includes(f))) return [];
  return [{ setting: 'LOCKCONF_CLIENT_PROBES', value: text!.trim(), effect: `the client probes were narrowed to ${names.join(', ')} (the other families did not run)` }];
}
