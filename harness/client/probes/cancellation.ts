/**
 * The cancellation probe family (CLIENT-CANCELLATION-STATE-CHECKED): a cancellation
 * redirect (error=access_denied) whose state does not match the one in progress
 * reaches the browser whose flow it is. "The application must check that state
 * matches what it sent" binds the cancellation as much as the approval: a cancellation
 * it did not check is one it takes for its own, and so gives up the sign-in in progress.
 * What the application does with a redirect whose state does not match is its choice
 * (refuse it and keep waiting, or give the sign-in up), so each state of the domain
 * (probes/state.ts DOMAIN_TAMPERS) is probed twice, in two browsers:
 *   approval      an approval redirect with that state (and another flow's code), then the
 *                 flow's own redirect: does the sign-in in progress survive it?
 *   cancellation  a cancellation redirect with that state, then the flow's own redirect
 * When the sign-in survives the approval but not the cancellation, the cancellation was taken
 * for the application's own. When it survives neither, nothing tells the two apart (not tested).
 * The forged cancellation is built by lockconf, as an attacker would: the mock records only the
 * genuine redirects. Nothing a probe sees (codes, state) goes into its messages.
 */
import { fingerprint } from '../../../mock/grading/recording.js';
import type { CancellationProbe } from '../judge.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { ProbeFailure, authorize, failed, marked } from '../probe-steps.js';
import { DOMAIN_TAMPERS, tamperState } from './state.js';

export const CANCELLATION_TAMPERS = DOMAIN_TAMPERS;

function query(location: string): URLSearchParams {
  return new URL(location).searchParams;
}

/** The redirect back to the application's redirect_uri with this query (the redirect_uri taken from a genuine Location). */
function redirectWith(location: string, params: Record<string, string | null>): string {
  const url = new URL(location);
  url.search = '';
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/** A flow of its own browser approved at the mock, not yet back: the browser, its Location, code and state. */
async function inProgress(target: ProbeTarget) {
  const browser = await openDriver(target);
  const location = await authorize(target, browser, 'approve');
  const code = query(location).get('code');
  if (!code) throw new ProbeFailure('the approval redirect carried no code');
  return { browser, location, code, state: query(location).get('state') ?? '' };
}

async function probe(target: ProbeTarget, tamper: string): Promise<CancellationProbe> {
  const seed = target.seed ?? 0;
  // The approval with a wrong state: another flow's code, this flow's state changed; then this flow's own redirect.
  const first = await inProgress(target);
  const foreign = await authorize(target, await openDriver(target), 'approve');
  const foreignCode = query(foreign).get('code');
  if (!foreignCode) throw new ProbeFailure('the approval redirect carried no code');
  const wrongFirst = tamper === 'missing' ? { state: null } : tamperState(first.state, tamper, seed);
  if (!wrongFirst || wrongFirst.state === first.state) return { tamper, ran: false, why: `the application's state cannot be changed that way (${tamper})` };
  await marked(target, `cancellation:${tamper}:approval`, async () => {
    await first.browser.browse(redirectWith(foreign, { code: foreignCode, state: wrongFirst.state }));
    await first.browser.browse(first.location);
  });
  // The cancellation with a wrong state; then this flow's own redirect.
  const second = await inProgress(target);
  const wrong = tamper === 'missing' ? { state: null } : tamperState(second.state, tamper, seed);
  if (!wrong || wrong.state === second.state) return { tamper, ran: false, why: `the application's state cannot be changed that way (${tamper})` };
  await marked(target, `cancellation:${tamper}:cancellation`, async () => {
    await second.browser.browse(redirectWith(second.location, { error: 'access_denied', state: wrong.state }));
    await second.browser.browse(second.location);
  });
  const position = 'position' in wrong ? wrong.position : undefined;
  return {
    tamper, ran: true, foreignFp: fingerprint(foreignCode), approvalGenuineFp: fingerprint(first.code), cancellationGenuineFp: fingerprint(second.code),
    ...(position === undefined ? {} : { position }),
  };
}

export async function cancellationFamily(target: ProbeTarget, tampers: readonly string[] = CANCELLATION_TAMPERS): Promise<CancellationProbe[]> {
  const out: CancellationProbe[] = [];
  for (const tamper of tampers) {
    try {
      out.push(await probe(target, tamper));
    } catch (err) {
      out.push({ tamper, ...failed(err) });
    }
  }
  return out;
}
