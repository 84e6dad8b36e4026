/**
 * The reached-as probe (CLIENT-AUTHZ-REDIRECT-URI, reached-as=other-name): a user's
 * browser reaches the application under another loopback name for the same address
 * (localhost for 127.0.0.1, 127.0.0.1 for localhost or [::1]) and opens its connect URL;
 * the authorization request the application sends that browser to must carry the
 * registered redirect URL all the same (one built from the request's Host does not).
 * The HTTP driver still connects to the configured address and only sends the other
 * name in the Host header (no name is looked up); Chromium opens the other name, a
 * loopback name its driver allows. An application that refuses a Host it does not know
 * (an answer 400 or more, 421 Misdirected Request) leaves the slice not tested: a
 * legitimate choice. The probe does not complete the sign-in: the request is enough.
 */
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { failed, marked } from '../probe-steps.js';
import { REACHED_AS_OTHER_NAME } from '../judge/model.js';

export type ReachedAsProbe = { ran: true; name: string } | { ran: false; why: string };

/** The connect URL under the other loopback name, and the configured origin it is reached at; null when there is none. */
export function otherName(connectUrl: string): { url: string; origin: string; address: string } | null {
  if (!URL.canParse(connectUrl)) return null;
  const configured = new URL(connectUrl);
  const other = new URL(connectUrl);
  if (configured.hostname === '127.0.0.1' || configured.hostname === '[::1]') other.hostname = 'localhost';
  else if (configured.hostname === 'localhost') other.hostname = '127.0.0.1';
  else return null;
  return { url: other.toString(), origin: other.origin, address: configured.origin };
}

export async function reachedAsProbe(target: ProbeTarget): Promise<ReachedAsProbe> {
  const other = otherName(target.connectUrl);
  if (!other) return { ran: false, why: 'the connectUrl names no loopback address lockconf knows another name for (127.0.0.1, localhost, [::1])' };
  const name = new URL(other.url).host;
  try {
    const browser = await openDriver({ ...target, connectUrl: other.url, dialAs: { origin: other.origin, address: other.address } });
    // An application may refuse a Host it does not know: then there is no authorization request to judge.
    const first = await browser.get(other.url);
    if (first.status >= 400) return { ran: false, why: `the application answered ${first.status} to its connect URL reached as ${name} (it refuses that name: a legitimate choice)` };
    await marked(target, REACHED_AS_OTHER_NAME, () => browser.toAuthorization());
    return { ran: true, name };
  } catch (err) {
    const why = failed(err).why;
    return { ran: false, why: `reached as ${name}, the browser was not led to authorization: ${why}` };
  }
}
