/**
 * The answers probe family (CLIENT-ADOPT-NEW-ACCESS-TOKEN, answer-status and
 * answer-body): the mock answers the application's next successful API write with
 * another 2xx than 200, its body kept or none, with its new x-access-token, while
 * lockconf walks the application as its user: its actions, then its page. The status
 * codes of the webhook endpoints are not shown, so every 2xx a plain request may get
 * (RFC 9110 §15.3: 200, 201, 202, 203, 204, 205; 206 answers a range request only)
 * is a success the application must take the new token from: the page's call must
 * present it, not the one it replaced. Named edges: each status with its body (204 and
 * 205 have none); one status drawn from the run's seed among those that may carry a
 * body, answered without one (recorded as the probe's status).
 */
import { drawIndex } from '../../receiver/probes.js';
import type { Driver } from '../drivers/driver.js';
import { openDriver } from '../drivers/open.js';
import type { ProbeTarget } from '../probe-target.js';
import { control, failed, marked, signIn } from '../probe-steps.js';

/** The probes of the family by name: a status with its body, and the drawn status with none. */
export const ANSWER_PROBES = ['201', '202', '203', '204', '205', 'drawn-no-body'] as const;
/** The statuses that may carry a body, the drawn probe's domain. */
const WITH_BODY = ['200', '201', '202', '203'];

export type AnswerProbe = { probe: string; status: string; body: 'same' | 'empty' } & ({ ran: true } | { ran: false; why: string });

/** What a probe answers: its status and body; the drawn one from the run's seed. */
export function answerOf(probe: string, seed = 0): { status: string; body: 'same' | 'empty' } {
  if (probe === 'drawn-no-body') return { status: WITH_BODY[drawIndex(seed, 'answer=drawn-no-body', WITH_BODY.length)]!, body: 'empty' };
  if (!(ANSWER_PROBES as readonly string[]).includes(probe)) throw new Error(`unknown answer probe: ${probe}`);
  return { status: probe, body: probe === '204' || probe === '205' ? 'empty' : 'same' };
}

async function walk(browser: Driver, home: string): Promise<void> {
  await browser.act();
  await browser.browse(home);
}

export async function answersFamily(target: ProbeTarget, probes: readonly string[] = ANSWER_PROBES): Promise<AnswerProbe[]> {
  const out: AnswerProbe[] = [];
  for (const probe of probes) {
    const { status, body } = answerOf(probe, target.seed ?? 0);
    try {
      if (!target.actionUrls?.length && !target.browser?.actions?.length) {
        out.push({ probe, status, body, ran: false, why: 'the profile names no actions (actionUrls): the application makes no API write the probe could answer' });
        continue;
      }
      const browser = await openDriver(target);
      const home = await signIn(target, browser);
      await marked(target, `answer-${probe}`, async () => {
        await control(target, '/grading/probe', { kind: 'answer', status: Number(status), body });
        await walk(browser, home);
      });
      out.push({ probe, status, body, ran: true });
    } catch (err) {
      out.push({ probe, status, body, ...failed(err) });
    }
  }
  return out;
}
