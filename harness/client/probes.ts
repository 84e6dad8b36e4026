/**
 * The active probes of client grading: lockconf plays the user's browser at the
 * application (its connect URL), acts as the user at the mock's consent step
 * (control POST /consent) and has the mock play the adversary once:
 *   session          sign in, open the app's page twice, POST each actionUrl, refresh twice (refreshUrl):
 *                    the ordinary life of a client
 *   tampered-state   the redirect back carries a changed state: its code must never be exchanged
 *   denial           the user cancels: no code exchange may follow
 *   api-401          the mock answers the app's next API call 401: the user must be sent through authorization again
 *   refresh-refused  the mock refuses the app's next refresh (400): the token must not be presented again
 * The browser is a driver (harness/client/drivers/driver.ts: plain HTTP, or Chromium with --browser); its steps are in probe-steps.ts. Markers in the
 * mock's recording (POST /_control/grading/mark) delimit each probe for the judge.
 * Nothing a probe sees (codes, state, URLs with them) goes into its messages.
 */
import { fingerprint } from '../../mock/grading/recording.js';
import type { ProbeReport } from './judge.js';
import { canRefresh, openDriver } from './drivers/open.js';
import type { ProbeTarget } from './probe-target.js';
import { ProbeFailure, authorize, control, failed, marked, signIn } from './probe-steps.js';

export type { ProbeTarget } from './probe-target.js';
export { Browser } from './drivers/http.js';
export { signIn } from './probe-steps.js';

/** Runs every probe against the application; what each did, for the judge. */
export async function runProbes(target: ProbeTarget): Promise<ProbeReport> {
  const report: ProbeReport = {};
  const noRefresh = 'the profile names no refreshUrl (an address of the application that makes it refresh now)';

  try {
    const browser = await openDriver(target);
    await marked(target, 'session', async () => {
      const home = await signIn(target, browser);
      await browser.browse(home);
      await browser.act();
      if (browser.canRefresh) {
        await browser.refresh();
        await browser.refresh();
        await browser.browse(home);
      }
    });
  } catch {
    // The passive rules judge whatever the session left in the recording.
  }

  try {
    const browser = await openDriver(target);
    const back = await authorize(target, browser, 'approve');
    const url = new URL(back);
    const code = url.searchParams.get('code');
    if (!code) throw new ProbeFailure('the approval redirect carried no code');
    url.searchParams.set('state', `${url.searchParams.get('state') ?? ''}tampered`);
    await marked(target, 'tampered-state', () => browser.browse(url.toString()));
    report.tamperedState = { ran: true, codeFp: fingerprint(code) };
  } catch (err) {
    report.tamperedState = failed(err);
  }

  try {
    const browser = await openDriver(target);
    await marked(target, 'denial', async () => {
      const back = await authorize(target, browser, 'deny');
      await browser.browse(back);
    });
    report.denial = { ran: true };
  } catch (err) {
    report.denial = failed(err);
  }

  try {
    const browser = await openDriver(target);
    const home = await signIn(target, browser);
    await marked(target, 'api-401', async () => {
      await control(target, '/grading/probe', { kind: 'api-401' });
      await browser.browse(home);
    });
    report.api401 = { ran: true };
  } catch (err) {
    report.api401 = failed(err);
  }

  if (!canRefresh(target)) report.refreshRefused = { ran: false, why: noRefresh };
  else {
    try {
      const browser = await openDriver(target);
      await signIn(target, browser);
      await marked(target, 'refresh-refused', async () => {
        await control(target, '/grading/probe', { kind: 'refresh-refused' });
        await browser.refresh();
        await browser.refresh();
      });
      report.refreshRefused = { ran: true };
    } catch (err) {
      report.refreshRefused = failed(err);
    }
  }
  return report;
}
