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
 * The code must never reach the token endpoint. A percent-encoded equivalent of the state is
 * the same state (the spec makes it no violation), so it is not a probe.
 */
import { fingerprint } from '../../../mock/grading/recording.js';
import type { StateProbe } from '../judge.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { ProbeFailure, authorize, failed, marked } from '../probe-steps.js';

export const STATE_TAMPERS = ['suffix', 'prefix', 'truncated', 'empty', 'missing', 'case', 'other-session', 'no-cookie', 'replayed'] as const;
/** The probes of a state the application did send, brought back by another browser (CLIENT-STATE-SESSION-BOUND): while a flow is in progress only. */
const BINDING_ONLY_ON_APPROVAL: readonly string[] = ['other-session', 'no-cookie'];
export const FLOW_ENDS = ['approval', 'cancellation'] as const;

/** The state changed one way; null when that way cannot change it (no letter to change the case of…). */
export function tamperState(state: string, tamper: string): string | null {
  switch (tamper) {
    case 'suffix': return `${state}x`;
    case 'prefix': return `x${state}`;
    case 'truncated': return state.length > 1 ? state.slice(0, -1) : null;
    case 'empty': return '';
    case 'case': {
      const swapped = [...state].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
      return swapped === state ? null : swapped;
    }
    default: return state;
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

async function probe(target: ProbeTarget, tamper: string, flowEnd: string): Promise<StateProbe> {
  const mine = await openDriver(target);
  let back: string;
  let code: string;
  let arrives = mine;
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
      const changed = tamper === 'missing' ? null : tamperState(own.state, tamper);
      if (changed === own.state) return { tamper, flowEnd, ran: false, why: `the application's state cannot be changed that way (${tamper})` };
      back = withState(location, changed);
    }
  } else {
    // The browser's own flow ends first (approved and signed in, or cancelled); then a fresh code from another browser's flow.
    const ended = await authorize(target, mine, flowEnd === 'approval' ? 'approve' : 'deny');
    const endedState = new URL(ended).searchParams.get('state') ?? '';
    await mine.browse(ended);
    const fresh = await authorize(target, await openDriver(target), 'approve');
    code = parts(fresh).code;
    const state = tamper === 'other-session' ? parts(fresh).state : tamper === 'missing' ? null : tamperState(endedState, tamper);
    if (state === endedState && tamper !== 'replayed') return { tamper, flowEnd, ran: false, why: `the application's state cannot be changed that way (${tamper})` };
    back = withState(fresh, state);
  }
  await marked(target, `state:${tamper}:${flowEnd}`, () => arrives.browse(back));
  return { tamper, flowEnd, ran: true, codeFp: fingerprint(code) };
}

export async function stateFamily(target: ProbeTarget, only: { tampers?: readonly string[]; flowEnds?: readonly string[] } = {}): Promise<StateProbe[]> {
  const out: StateProbe[] = [];
  for (const flowEnd of FLOW_ENDS.filter((f) => !only.flowEnds || only.flowEnds.includes(f))) {
    for (const tamper of STATE_TAMPERS.filter((t) => (!only.tampers || only.tampers.includes(t)) && (flowEnd === 'approval' || !BINDING_ONLY_ON_APPROVAL.includes(t)))) {
      try {
        out.push(await probe(target, tamper, flowEnd));
      } catch (err) {
        out.push({ tamper, flowEnd, ...failed(err) });
      }
    }
  }
  return out;
}
