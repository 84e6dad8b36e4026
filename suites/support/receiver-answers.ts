/**
 * Receiver answers (slices `receiver-answer`, DELIVERY-NO-RETRY and DELIVERY-NO-REDIRECT):
 * one registration per answer, each to an inbox answering that status (a redirect
 * names a Location inbox of its own), and one status event delivered to each.
 *
 * Every wait is anchored on the target's own attempts: a lock is registered to the
 * next answer's inbox only once the previous inbox saw its first attempt and was
 * listened to a retry window after it, so each inbox receives exactly one event,
 * whatever order or speed the target delivers at; a retry, or a followed redirect,
 * is a further delivery to that inbox or its Location. One window covers a batch of
 * answers, one per lock (not one window per answer).
 */
import type { Delivery, FixtureLock, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { newInbox } from './context.js';
import { ARRIVAL_TIMEOUT_MS, isAbout } from './deliveries.js';
import { arrivalWatch, shortenedNote } from './arrival-watch.js';
import { fixtures } from './fixtures.js';
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
  /** When none came: '' after the full wait, else why the wait was shorter (suites/support/arrival-watch.ts). */
  missed: string;
}

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * users[0] registers its locks (the first two fixture locks, both its own) to one inbox per
 * answer, a batch of one answer per lock at a time, makes one status check on each, and
 * listens `windowMs` after the batch's latest first attempt before the next batch registers
 * the locks again: every answer's registration is in force for the whole of its window, so a
 * retry the target sends only to a registration still in force is seen too.
 */
export async function deliverToEachAnswer(t: SuiteContext, answers: readonly { answer: string; status: number }[], windowMs: number): Promise<AnsweredDelivery[]> {
  const locks = [...new Map(fixtures(t).locks.slice(0, 2).map((l) => [l.lockId, l])).values()];
  const session = await t.flows.userSession(0);
  const out: AnsweredDelivery[] = [];
  const watch = arrivalWatch(t.target, t.capture);
  for (let i = 0; i < answers.length; i += locks.length) {
    // A target that has delivered nothing in the run, not even this test's last batch: the answers left are not tried.
    const silence = watch.silence;
    if (silence && out.length > 0 && out.every((c) => c.first === null)) {
      const missed = ` (not tried: ${silence.reason})`;
      for (const { answer, status } of answers.slice(i)) out.push({ answer, status, inbox: out[0]!.inbox, location: null, first: null, missed });
      break;
    }
    // The locks of a batch are registered and checked side by side (each lock's status event reaches its own registration
    // only), and their first attempts awaited together.
    const batch = await Promise.all(answers.slice(i, i + locks.length).map(async ({ answer, status }, k): Promise<AnsweredDelivery> => {
      const lock = locks[k]!;
      const location = isRedirect(status) ? await newInbox(t, { label: `the Location of a ${status}` }) : null;
      const inbox = await newInbox(t, { label: `answers ${status}`, response: { status, ...(location ? { location: location.url } : {}) } });
      const reg = await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken });
      expectAccepted(t, reg, `registration to an inbox answering ${status}`);
      await triggerStatusCheck(t, lock.lockId, session.accessToken);
      return {
        answer, status, inbox, location,
        ...await inbox.waitFor(1, { predicate: isAbout(lock.lockId), timeoutMs: ARRIVAL_TIMEOUT_MS, what: `the status event to the registration answering ${status}` })
          .then(([d]) => ({ first: d!, missed: '' }), (err: unknown) => ({ first: null, missed: shortenedNote(err) })),
      };
    }));
    await listenedAfterEach(batch, windowMs);
    out.push(...batch);
  }
  return out;
}

/** Waits until `windowMs` has passed since the latest first attempt: every inbox has been listened to that long after its own. */
async function listenedAfterEach(cases: readonly AnsweredDelivery[], windowMs: number): Promise<void> {
  const latest = Math.max(0, ...cases.map((c) => c.first?.receivedAt ?? 0));
  const left = latest + windowMs - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
