/**
 * The answers probe family (CLIENT-ADOPT-NEW-ACCESS-TOKEN, answer-status): the
 * mock answers the application's next successful API write 201 (same body) or
 * 204 (no body) instead of 200, with its new x-access-token, while lockconf walks
 * the application as its user: its actions, then its page. The status codes of the
 * webhook endpoints are not shown, so every 2xx is a success the application must
 * take the new token from: the page's call must present it, not the one it replaced.
 */
import type { Driver } from '../drivers/driver.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { control, failed, marked, signIn } from '../probe-steps.js';

export const ANSWER_STATUSES = ['201', '204'] as const;

async function walk(browser: Driver, home: string): Promise<void> {
  await browser.act();
  await browser.browse(home);
}

export async function answersFamily(target: ProbeTarget, statuses: readonly string[] = ANSWER_STATUSES): Promise<Array<{ status: string } & ({ ran: true } | { ran: false; why: string })>> {
  const out: Array<{ status: string } & ({ ran: true } | { ran: false; why: string })> = [];
  for (const status of statuses) {
    try {
      if (!target.actionUrls?.length && !target.browser?.actions?.length) {
        out.push({ status, ran: false, why: 'the profile names no actions (actionUrls): the application makes no API write the probe could answer' });
        continue;
      }
      const browser = await openDriver(target);
      const home = await signIn(target, browser);
      await marked(target, `answer-${status}`, async () => {
        await control(target, '/grading/probe', { kind: `answer-${status}` });
        await walk(browser, home);
      });
      out.push({ status, ran: true });
    } catch (err) {
      out.push({ status, ...failed(err) });
    }
  }
  return out;
}
