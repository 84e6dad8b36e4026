/**
 * Receiver answers (slices `receiver-answer`, DELIVERY-NO-RETRY and DELIVERY-NO-REDIRECT):
 * one registration per answer, each to an inbox answering that status (a redirect
 * names a Location inbox of its own), and one status event delivered to each.
 *
 * Every wait is anchored on the target's own attempts: the lock is registered to the
 * next answer's inbox only once the previous inbox saw its first attempt, so each
 * inbox receives exactly one event, whatever order or speed the target delivers at;
 * a retry, or a followed redirect, is a further delivery to that inbox or its Location.
 * One retry window then covers every answer (see listenedAfterEach).
 */
import type { Delivery, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { newInbox } from './context.js';
import { ARRIVAL_TIMEOUT_MS, isAbout } from './deliveries.js';
import { firstLock } from './fixtures.js';
import { triggerStatusCheck } from './status-check.js';
import { expectAccepted, registerLock } from './webhooks.js';

export interface AnsweredDelivery {
  answer: string;
  status: number;
  /** The inbox registered, answering `status`. */
  inbox: Inbox;
  /** For a redirect: the inbox its Location names. */
  location: Inbox | null;
  /** The target's first attempt, or null when none came within ARRIVAL_TIMEOUT_MS. */
  first: Delivery | null;
}

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** users[0] registers the first lock to one inbox per answer in turn (each overwriting the last) and makes one status check for each. */
export async function deliverToEachAnswer(t: SuiteContext, answers: readonly string[]): Promise<AnsweredDelivery[]> {
  const lock = firstLock(t);
  const session = await t.flows.userSession(0);
  const out: AnsweredDelivery[] = [];
  for (const answer of answers) {
    const status = Number(answer);
    const location = isRedirect(status) ? await newInbox(t, { label: `the Location of a ${status}` }) : null;
    const inbox = await newInbox(t, { label: `answers ${status}`, response: { status, ...(location ? { location: location.url } : {}) } });
    const reg = await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken });
    expectAccepted(t, reg, `registration to an inbox answering ${status}`);
    await triggerStatusCheck(t, lock.lockId, session.accessToken);
    const first = await inbox.waitFor(1, { predicate: isAbout(lock.lockId), timeoutMs: ARRIVAL_TIMEOUT_MS }).then(([d]) => d!, () => null);
    out.push({ answer, status, inbox, location, first });
  }
  return out;
}

/** Waits until `windowMs` has passed since the latest first attempt: every inbox has been listened to that long after its own. */
export async function listenedAfterEach(cases: readonly AnsweredDelivery[], windowMs: number): Promise<void> {
  const latest = Math.max(0, ...cases.map((c) => c.first?.receivedAt ?? 0));
  const left = latest + windowMs - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
