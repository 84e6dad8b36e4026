/**
 * The state probe family (CLIENT-STATE-CHECKED): lockconf brings the user's
 * browser back to the application with a code the mock issued for this client
 * and a state that is not the one in progress, once per way a state can differ
 * (harness/catalog/slices/client.ts, state-tamper) and per way the genuine flow
 * ended (flow-end):
 *   approval      the browser's own flow is in progress (approved at the mock, not yet back):
 *                 its redirect comes back with the state changed; `other-session` carries the
 *                 state another browser's flow is waiting for; `no-cookie` the browser's own
 *                 redirect, unchanged, opened in a fresh browser without the application's
 *                 cookies; `replayed` the state of the browser's flow that already ended, with a fresh code
 *   cancellation  the browser's flow ended with the user's cancellation (the app saw it);
 *                 a fresh code comes back with that flow's state changed (or `replayed` as it was)
 * and per browser it arrives in (arrives-in): the flow's own, or, for the states of DOMAIN_TAMPERS, a
 * browser that never saw the application (no session cookie: the flow's own redirect, its state changed).
 * Forged and altered-drawn states are drawn from the run's seed (target.seed); the position altered is
 * recorded in the probe's report, so the same seed replays the same probe.
 * The code must never reach the token endpoint. A percent-encoded equivalent of the state is
 * the same state (the spec makes it no violation), so it is not a probe.
 */
import { fingerprint } from '../../../mock/grading/recording.js';
import { drawIndex } from '../../receiver/probes.js';
import type { StateProbe } from '../judge.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { ProbeFailure, authorize, failed, marked } from '../probe-steps.js';

export const STATE_TAMPERS = ['suffix', 'prefix', 'truncated', 'empty', 'missing', 'case', 'forged', 'altered-first', 'altered-drawn', 'altered-last', 'other-session', 'no-cookie', 'replayed'] as const;
/** The probes of a state the application did send, brought back by another browser (CLIENT-STATE-SESSION-BOUND): while a flow is in progress only. */
const BINDING_ONLY_ON_APPROVAL: readonly string[] = ['other-session', 'no-cookie'];
export const FLOW_ENDS = ['approval', 'cancellation'] as const;
/** Where the redirect back arrives: the browser whose flow it is, or a browser without the application's session cookie. */
export const ARRIVALS = ['flow-browser', 'no-cookie'] as const;
/**
 * The states of the domain every redirect back is probed with, in the browser of the flow and in a browser
 * without a cookie, approval or cancellation: missing, empty, forged (a drawn value of the same length and
 * alphabet) and altered by one character anywhere in its length (named edges: the first, the last; inside: drawn
 * from the run's seed), or longer, or cut short.
 */
export const DOMAIN_TAMPERS = ['missing', 'empty', 'forged', 'altered-first', 'altered-drawn', 'altered-last', 'suffix', 'truncated'] as const;

/** Another character of the same class (digit, lower-case letter, upper-case letter, other): differs for every comparison, case-blind or not. */
function otherChar(c: string): string {
  if (/[0-9]/.test(c)) return String((Number(c) + 1) % 10);
  if (/[a-z]/.test(c)) return String.fromCharCode(((c.charCodeAt(0) - 97 + 1) % 26) + 97);
  if (/[A-Z]/.test(c)) return String.fromCharCode(((c.charCodeAt(0) - 65 + 1) % 26) + 65);
  return c === 'x' ? 'y' : 'x';
}

/** The alphabet a state is written in, as its characters show (hex, base64url, or its own characters). */
function alphabetOf(state: string): string {
  if (/^[0-9a-f]+$/.test(state)) return '0123456789abcdef';
  if (/^[A-Za-z0-9_-]+$/.test(state)) return 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return [...new Set(state)].join('');
}

/**
 * The state changed one way, and the position changed (altered-*: recorded, so a run is replayed with its seed);
 * null when that way cannot change it (no letter to change the case of, too short to cut…).
 */
export function tamperState(state: string, tamper: string, seed = 0): { state: string; position?: number } | null {
  const at = (i: number) => ({ state: state.slice(0, i) + otherChar(state[i]!) + state.slice(i + 1), position: i });
  switch (tamper) {
    case 'suffix': return { state: `${state}x` };
    case 'prefix': return { state: `x${state}` };
    case 'truncated': return state.length > 1 ? { state: state.slice(0, -1) } : null;
    case 'empty': return { state: '' };
    case 'case': {
      const swapped = [...state].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
      return swapped === state ? null : { state: swapped };
    }
    case 'altered-first': return state.length > 0 ? at(0) : null;
    case 'altered-last': return state.length > 0 ? at(state.length - 1) : null;
    case 'altered-drawn': return state.length > 2 ? at(1 + drawIndex(seed, 'state-tamper=altered-drawn', state.length - 2)) : null;
    case 'forged': {
      if (state.length === 0) return null;
      const alphabet = alphabetOf(state);
      const forged = [...state].map((_, i) => alphabet[drawIndex(seed, `state-tamper=forged:${i}`, alphabet.length)]!).join('');
      return { state: forged === state ? at(0).state : forged };
    }
    default: return { state };
  }
}

function withState(location: string, state: string | null): string {
  const url = new URL(location);
  if (state === null) url.searchParams.delete('state');
  else url.searchParams.set('state', state);
  return url.toString();
}

function parts(location: string): { code: string; state: string } {
  const q = new URL(location).searchParams;
  const code = q.get('code');
  if (!code) throw new ProbeFailure('the approval redirect carried no code');
  return { code, state: q.get('state') ?? '' };
}

/** The state of a redirect back: the one the application sent changed by `tamper` (null: left out), or why that way cannot change it. */
function changed(state: string, tamper: string, seed: number): { state: string | null; position?: number } | { why: string } {
  if (tamper === 'missing') return { state: null };
  const out = tamperState(state, tamper, seed);
  if (!out || (out.state === state && tamper !== 'replayed')) return { why: `the application's state cannot be changed that way (${tamper})` };
  return out;
}

async function probe(target: ProbeTarget, tamper: string, flowEnd: string, arrivesIn: string): Promise<StateProbe> {
  const seed = target.seed ?? 0;
  const mine = await openDriver(target);
  let back: string;
  let code: string;
  let arrives = mine;
  let position: number | undefined;
  if (flowEnd === 'approval' && tamper !== 'replayed') {
    const location = await authorize(target, mine, 'approve');
    const own = parts(location);
    code = own.code;
    if (tamper === 'no-cookie') {
      back = location;
      arrives = await openDriver(target);
    } else if (tamper === 'other-session') {
      const other = parts(await authorize(target, await openDriver(target), 'approve'));
      back = withState(location, other.state);
    } else {
      const next = changed(own.state, tamper, seed);
      if ('why' in next) return { tamper, flowEnd, arrivesIn, ran: false, why: next.why };
      position = next.position;
      back = withState(location, next.state);
      // No cookie: the flow's own redirect, its state changed, opened in a browser that never saw the application.
      if (arrivesIn === 'no-cookie') arrives = await openDriver(target);
    }
  } else {
    // The browser's own flow ends first (approved and signed in, or cancelled); then a fresh code from another browser's flow.
    const ended = await authorize(target, mine, flowEnd === 'approval' ? 'approve' : 'deny');
    const endedState = new URL(ended).searchParams.get('state') ?? '';
    await mine.browse(ended);
    const fresh = await authorize(target, await openDriver(target), 'approve');
    code = parts(fresh).code;
    let state: string | null;
    if (tamper === 'other-session') state = parts(fresh).state;
    else {
      const next = changed(endedState, tamper, seed);
      if ('why' in next) return { tamper, flowEnd, arrivesIn, ran: false, why: next.why };
      state = next.state;
      position = next.position;
    }
    back = withState(fresh, state);
  }
  await marked(target, `state:${tamper}:${flowEnd}${arrivesIn === 'no-cookie' ? ':no-cookie' : ''}`, () => arrives.browse(back));
  return { tamper, flowEnd, arrivesIn, ran: true, codeFp: fingerprint(code), ...(position === undefined ? {} : { position }) };
}

export interface StateSelection {
  tampers?: readonly string[];
  flowEnds?: readonly string[];
  arrivals?: readonly string[];
}

/** The (tamper, flow end, arrival) of every probe of the family: the domain in a browser without a cookie on approval only. */
export function stateProbePlan(only: StateSelection = {}): Array<{ tamper: string; flowEnd: string; arrivesIn: string }> {
  const out: Array<{ tamper: string; flowEnd: string; arrivesIn: string }> = [];
  const pick = <T extends string>(all: readonly T[], chosen?: readonly string[]) => all.filter((x) => !chosen || chosen.includes(x));
  for (const arrivesIn of pick(ARRIVALS, only.arrivals)) {
    for (const flowEnd of pick(FLOW_ENDS, only.flowEnds)) {
      if (arrivesIn === 'no-cookie' && flowEnd !== 'approval') continue;
      const tampers = arrivesIn === 'no-cookie' ? DOMAIN_TAMPERS : STATE_TAMPERS;
      for (const tamper of pick<string>(tampers, only.tampers)) {
        if (flowEnd !== 'approval' && BINDING_ONLY_ON_APPROVAL.includes(tamper)) continue;
        out.push({ tamper, flowEnd, arrivesIn });
      }
    }
  }
  return out;
}

export async function stateFamily(target: ProbeTarget, only: StateSelection = {}): Promise<StateProbe[]> {
  const out: StateProbe[] = [];
  for (const { tamper, flowEnd, arrivesIn } of stateProbePlan(only)) {
    try {
      out.push(await probe(target, tamper, flowEnd, arrivesIn));
    } catch (err) {
      out.push({ tamper, flowEnd, arrivesIn, ...failed(err) });
    }
  }
  return out;
}
