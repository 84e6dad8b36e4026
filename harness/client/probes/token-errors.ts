/**
 * The token endpoint failing (CLIENT-SECRET-ONLY-IN-FORM, request-kind browser; the content scan): the
 * mock answers the application's code exchange, and in another probe its refresh, with a status of a
 * domain while the browser's content is scanned. Whatever the application shows the user about the
 * failure, it never holds the client secret (nor the API key). Domain (named edge values): 302 (to
 * /error), 400 (an OAuth error body), 500, 503. Every value runs for each grant (marks
 * token-error:<grant>:<status>); each is recorded.
 */
import type { ProbeTarget } from '../probe-target.js';
import { openDriver } from '../drivers/open.js';
import { authorize, control, failed, marked, signIn } from '../probe-steps.js';

export const TOKEN_ERROR_STATUSES = [302, 400, 500, 503] as const;
export const TOKEN_ERROR_GRANTS = ['authorization_code', 'refresh_token'] as const;

export type TokenErrorProbe = { grant: string; status: number } & ({ ran: true } | { ran: false; why: string });

export function tokenErrorPlan(): Array<{ grant: string; status: number }> {
  return TOKEN_ERROR_GRANTS.flatMap((grant) => TOKEN_ERROR_STATUSES.map((status) => ({ grant, status })));
}

export async function tokenErrorFamily(target: ProbeTarget): Promise<TokenErrorProbe[]> {
  const out: TokenErrorProbe[] = [];
  for (const { grant, status } of tokenErrorPlan()) {
    try {
      const browser = await openDriver(target);
      if (grant === 'refresh_token' && !browser.canRefresh) {
        out.push({ grant, status, ran: false, why: 'the profile names no refreshUrl (an address of the application that makes it refresh now)' });
        continue;
      }
      await marked(target, `token-error:${grant}:${status}`, async () => {
        if (grant === 'authorization_code') {
          const back = await authorize(target, browser, 'approve');
          await control(target, '/grading/probe', { kind: 'token-error', status });
          await browser.browse(back).catch(() => {}); // the application's answer to the failed exchange is scanned
        } else {
          const home = await signIn(target, browser);
          await control(target, '/grading/probe', { kind: 'token-error', status });
          await browser.refresh().catch(() => {});
          await browser.browse(home).catch(() => {});
        }
      });
      out.push({ grant, status, ran: true });
    } catch (err) {
      out.push({ grant, status, ...failed(err) });
    }
  }
  return out;
}
