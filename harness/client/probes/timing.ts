/**
 * The timing probes of a busy user.
 * The reload (CLIENT-CODE-ONCE, callback-visit=reloaded): the user reloads the page the
 * redirect back landed on, so the callback receives the same code and state again, in the
 * same browser; the code must not be exchanged again.
 * The double submit (CLIENT-REFRESH-IN-FLIGHT): a double submit of
 * the refresh (a double click, two tabs): two GETs of the application's refreshUrl
 * with the session's cookies at once, the mock holding the first refresh that reaches
 * it until the second arrives (or 1.5 s pass: a client that sends one refresh at a time
 * is simply released), so two refreshes are in flight whatever the machine's speed.
 * The application's page is browsed before (does it call the API when signed in?) and
 * after (is the user still signed in?), each between marks of its own.
 */
import type { Driver } from '../drivers/driver.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { authorize, control, failed, marked, signIn } from '../probe-steps.js';

export const REFRESH_IN_FLIGHT = 'refresh-in-flight';
export const RELOAD_CALLBACK = 'reload-callback';

export async function reloadCallbackProbe(target: ProbeTarget): Promise<{ ran: true } | { ran: false; why: string }> {
  try {
    const browser = await openDriver(target);
    const back = await authorize(target, browser, 'approve');
    await browser.browse(back);
    await marked(target, RELOAD_CALLBACK, () => browser.browse(back));
    return { ran: true };
  } catch (err) {
    return failed(err);
  }
}

/** The statuses of the two submits, in the order they were sent (an application may refuse the second: "being refreshed, try again"). */
async function doubleSubmit(browser: Driver, refreshUrl: string): Promise<number[]> {
  // Both requests leave before either answer comes back; their answers (redirects) are not followed.
  const answers = await Promise.all([browser.get(refreshUrl), browser.get(refreshUrl)]);
  return answers.map((a) => a.status);
}

export async function refreshInFlightProbe(target: ProbeTarget): Promise<{ ran: true; answers: number[] } | { ran: false; why: string }> {
  if (!target.refreshUrl) return { ran: false, why: 'the profile names no refreshUrl (the double submit GETs it twice at once)' };
  const refreshUrl = target.refreshUrl;
  try {
    const browser = await openDriver(target);
    const home = await signIn(target, browser);
    await marked(target, `${REFRESH_IN_FLIGHT}:before`, () => browser.browse(home));
    let answers: number[] = [];
    await marked(target, REFRESH_IN_FLIGHT, async () => {
      await control(target, '/grading/probe', { kind: REFRESH_IN_FLIGHT });
      answers = await doubleSubmit(browser, refreshUrl);
    });
    await marked(target, `${REFRESH_IN_FLIGHT}:after`, () => browser.browse(home));
    return { ran: true, answers };
  } catch (err) {
    return failed(err);
  }
}
