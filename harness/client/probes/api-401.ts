/**
 * The 401 probe family (CLIENT-REAUTHORIZE-ON-401): the mock answers 401 to the
 * application's first call of one endpoint (one probe per endpoint the spec
 * names), while lockconf walks the application as its user: its page, every
 * action, the page, a refresh, the page. Whatever call the 401 lands on, a later
 * call of the same session follows before any refresh could replace the token, so
 * it shows whether the refused token is presented again.
 * The page probe (`api-401`): the 401 lands on the call the application's page
 * makes while browsing it; the browser follows the application to authorization, or,
 * when the application shows a page instead (a "reconnect" button), takes its connect
 * address as the user would: either way the user must be able to authorize again.
 */
import { ENDPOINT } from '../../catalog/slices/dimensions.js';
import { drawIndex } from '../../receiver/probes.js';
import type { Api401Probe } from '../judge.js';
import type { Driver } from '../drivers/driver.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { authorize, control, failed, marked, signIn } from '../probe-steps.js';

/** The walk: the page, the actions, the page, a refresh, the page. */
export async function walk(target: ProbeTarget, browser: Driver, home: string): Promise<void> {
  await browser.browse(home);
  await browser.act();
  await browser.browse(home);
  if (browser.canRefresh) await browser.refresh();
  await browser.browse(home);
}

export async function pageProbe(target: ProbeTarget): Promise<{ ran: true } | { ran: false; why: string }> {
  try {
    const browser = await openDriver(target);
    const home = await signIn(target, browser);
    await marked(target, 'api-401', async () => {
      await control(target, '/grading/probe', { kind: 'api-401' });
      let landed = await browser.browse(home);
      // The user reloads the page (the refused token must not be presented again)…
      if (!landed.reachedAuthorization) landed = await browser.browse(home);
      // …and, when the application offers a "reconnect" instead of redirecting at once, takes it (its connect address).
      if (!landed.reachedAuthorization) await browser.toAuthorization().catch(() => {});
    });
    return { ran: true };
  } catch (err) {
    return failed(err);
  }
}

/**
 * The 401 at each point of a flow (flow-point): on the first API call after the code exchange (the page the
 * sign-in lands on), on the first after a refresh (the call that follows the new token), and on a call of the
 * walk drawn from the run's seed (the page's or an action's, before the refresh; the number of calls let
 * through is recorded).
 */
export const FLOW_POINTS = ['after-sign-in', 'after-refresh', 'drawn-call'] as const;

export type FlowPointProbe = { point: string } & ({ ran: true; skip?: number } | { ran: false; why: string });

export async function api401Points(target: ProbeTarget, points: readonly string[] = FLOW_POINTS): Promise<FlowPointProbe[]> {
  const out: FlowPointProbe[] = [];
  for (const point of points) {
    try {
      const browser = await openDriver(target);
      const label = `api-401:${point}`;
      if (point === 'after-sign-in') {
        const back = await authorize(target, browser, 'approve');
        await marked(target, label, async () => {
          await control(target, '/grading/probe', { kind: 'api-401' });
          const home = await browser.browse(back);
          await browser.browse(home.url);
        });
        out.push({ point, ran: true });
      } else if (point === 'after-refresh') {
        if (!browser.canRefresh) {
          out.push({ point, ran: false, why: 'the profile names no refreshUrl (an address of the application that makes it refresh now)' });
          continue;
        }
        const home = await signIn(target, browser);
        await marked(target, label, async () => {
          await control(target, '/grading/probe', { kind: 'api-401', afterRefresh: true });
          await walk(target, browser, home);
        });
        out.push({ point, ran: true });
      } else {
        const actions = target.actionUrls?.length ?? target.browser?.actions?.length ?? 0;
        const skip = drawIndex(target.seed ?? 0, 'flow-point=drawn-call', actions + 1); // the page's call, or an action's
        const home = await signIn(target, browser);
        await marked(target, label, async () => {
          await control(target, '/grading/probe', { kind: 'api-401', skip });
          await walk(target, browser, home);
        });
        out.push({ point, ran: true, skip });
      }
    } catch (err) {
      out.push({ point, ...failed(err) });
    }
  }
  return out;
}

export async function api401Family(target: ProbeTarget, endpoints: readonly string[] = ENDPOINT.values): Promise<Api401Probe[]> {
  const out: Api401Probe[] = [];
  for (const endpoint of endpoints) {
    try {
      const browser = await openDriver(target);
      const home = await signIn(target, browser);
      await marked(target, `api-401@${endpoint}`, async () => {
        await control(target, '/grading/probe', { kind: 'api-401', endpoint });
        await walk(target, browser, home);
      });
      out.push({ endpoint, ran: true });
    } catch (err) {
      out.push({ endpoint, ...failed(err) });
    }
  }
  return out;
}
