/**
 * The steps the client probes are made of: the control calls to the grading
 * mock (consent as the user, markers, adversary probes), authorization as the
 * user and a full sign-in, through whichever driver (drivers/driver.ts) the run
 * uses: the driver brings the browser to the authorization endpoint (the mock
 * records the request), consent is given through control, and the driver opens
 * the Location, so the app's callback runs in that browser with its cookies.
 * Nothing a step sees (codes, state, URLs with them) goes into its messages.
 */
import { request } from 'undici';
import { installDispatcher } from '../wire/dispatcher.js';
import { readBoundedText } from '../wire/bounded-body.js';
import { DriverFailure, type Driver } from './drivers/driver.js';
import type { ProbeTarget } from './probe-target.js';

// The harness's pool: an idle connection dropped before the application or the mock closes it (wire/dispatcher.ts).
installDispatcher();

export class ProbeFailure extends DriverFailure {}

export async function control(target: ProbeTarget, path: string, body: unknown): Promise<unknown> {
  const res = await request(`${target.controlUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-control-token': target.controlToken },
    body: JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await readBoundedText(res.body, `control ${path}`, { headers: res.headers, code: 'ERR_CONTROL' });
  if (res.statusCode >= 300) throw new ProbeFailure(`control ${path} answered ${res.statusCode}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Connect → authorization (as the browser) → the user's decision; the Location back to the app. */
export async function authorize(target: ProbeTarget, browser: Driver, decision: 'approve' | 'deny'): Promise<string> {
  const authorizationUrl = await browser.toAuthorization(); // the mock has recorded the request, as from the user's browser
  const answer = (await control(target, '/consent', { authorizationUrl, userId: target.userId, decision })) as { location?: unknown };
  if (typeof answer?.location !== 'string') throw new ProbeFailure('the mock gave no redirect for the authorization request');
  return answer.location;
}

/** A full sign-in; the app's page the browser lands on. */
export async function signIn(target: ProbeTarget, browser: Driver): Promise<string> {
  const back = await authorize(target, browser, 'approve');
  const landed = await browser.browse(back);
  if (landed.status !== 200) throw new ProbeFailure(`after the redirect back the application answered ${landed.status}`);
  return landed.url;
}

export async function marked<T>(target: ProbeTarget, probe: string, fn: () => Promise<T>): Promise<T> {
  await control(target, '/grading/mark', { label: `${probe}:start` });
  try {
    return await fn();
  } finally {
    await control(target, '/grading/mark', { label: `${probe}:end` });
  }
}

export function failed(err: unknown): { ran: false; why: string } {
  return { ran: false, why: err instanceof DriverFailure ? err.message : `the probe could not run: ${err instanceof Error ? err.name : 'error'}` };
}
