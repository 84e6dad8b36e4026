/**
 * The verifying call refused (CLIENT-REFRESH-STORE-NEW, CLIENT-REFRESH-SINGLE-USE): the mock answers the
 * first API call after a refresh (the spec's "cheap call to verify a new access token", or whatever call
 * comes first) with a status of a domain, then the application is made to refresh again. "The returned
 * refresh_token replaces the old one and must be stored": whatever the verifying call met, the next refresh
 * presents the new refresh token, never the one the refresh redeemed. Domain (named edge values): 500 and
 * 503 (a server error: the new tokens stay valid) and 401 (the new token refused: the user authorizes
 * again, and a refresh, if any, still presents only the new refresh token). Every value runs (marks
 * failed-check:<status>); each is recorded.
 */
import type { ProbeTarget } from '../probe-target.js';
import { openDriver } from '../drivers/open.js';
import { control, failed, marked, signIn } from '../probe-steps.js';

export const CHECK_ANSWERS = [500, 503, 401] as const;

export type FailedCheckProbe = { status: number } & ({ ran: true } | { ran: false; why: string });

export async function failedCheckFamily(target: ProbeTarget, statuses: readonly number[] = CHECK_ANSWERS): Promise<FailedCheckProbe[]> {
  const out: FailedCheckProbe[] = [];
  for (const status of statuses) {
    try {
      const browser = await openDriver(target);
      if (!browser.canRefresh) {
        out.push({ status, ran: false, why: 'the profile names no refreshUrl (an address of the application that makes it refresh now)' });
        continue;
      }
      const home = await signIn(target, browser);
      await marked(target, `failed-check:${status}`, async () => {
        await control(target, '/grading/probe', { kind: 'api-401', afterRefresh: true, status });
        await browser.refresh().catch(() => {}); // the verifying call fails: the application may show an error page
        await browser.browse(home).catch(() => {});
        await browser.refresh().catch(() => {}); // the next refresh: the new refresh token, or none (authorize again)
        await browser.browse(home).catch(() => {});
      });
      out.push({ status, ran: true });
    } catch (err) {
      out.push({ status, ...failed(err) });
    }
  }
  return out;
}
