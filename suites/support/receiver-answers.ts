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
 * answers, one per (lock, role) listener (not one window per answer).
 */
import type { Delivery, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { newInbox } from './context.js';
import { ARRIVAL_TIMEOUT_MS, isAbout } from './deliveries.js';
import { arrivalWatch, shortenedNote } from './arrival-watch.js';
import { checkEachLock, lockRoles, registerListeners, type LockSlot, type Role } from './lock-roles.js';

export interface AnsweredDelivery {
  answer: string;
  status: number;
  /** The listener given this answer: its lock and the role of the user who registered (slices `lock`, `role`). */
  lock: LockSlot;
  role: Role;
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
 * The (lock, role) pairs of the fixtures (suites/support/lock-roles.ts: the owner on both locks, the guest on the
 * first) take the answers in turn, a batch of one answer per pair at a time: each pair registers its lock to the
 * inbox of its answer, one status check on each lock reaches the batch's registrations on it, and the batch listens
 * `windowMs` after its latest first attempt before the next batch registers the locks again: every answer's
 * registration is in force for the whole of its window, so a retry the target sends only to a registration still in
 * force is seen too. Each answer is given to one listener, so every lock and role is drawn, not every answer on each.
 */
export async function deliverToEachAnswer(t: SuiteContext, answers: readonly { answer: string; status: number }[], windowMs: number): Promise<AnsweredDelivery[]> {
  const pairs = lockRoles(t);
  const out: AnsweredDelivery[] = [];
  const watch = arrivalWatch(t.target, t.capture);
  for (let i = 0; i < answers.length; i += pairs.length) {
    // A target that has delivered nothing in the run, not even this test's last batch: the answers left are not tried.
    const silence = watch.silence;
    if (silence && out.length > 0 && out.every((c) => c.first === null)) {
      const missed = ` (not tried: ${silence.reason})`;
      answers.slice(i).forEach(({ answer, status }, k) => {
        const pair = pairs[k % pairs.length]!;
        out.push({ answer, status, lock: pair.lock, role: pair.role, inbox: out[0]!.inbox, location: null, first: null, missed });
      });
      break;
    }
    // The pairs of a batch are registered side by side, each lock checked once (its status event reaches each of the
    // batch's registrations on it), and their first attempts awaited together.
    const batch = answers.slice(i, i + pairs.length).map((a, k) => ({ ...a, pair: pairs[k]! }));
    const inboxes = new Map(await Promise.all(batch.map(async ({ status, pair }) => {
      const location = isRedirect(status) ? await newInbox(t, { label: `the Location of a ${status}` }) : null;
      const inbox = await newInbox(t, { label: `answers ${status}`, response: { status, ...(location ? { location: location.url } : {}) } });
      return [pair, { inbox, location }] as const;
    })));
    const listeners = await registerListeners(t, batch.map((b) => b.pair), 'receiver answers', async (p) => inboxes.get(p)!.inbox);
    await checkEachLock(t, listeners);
    const cases = await Promise.all(listeners.map(async (l, k): Promise<AnsweredDelivery> => {
      const { answer, status } = batch[k]!;
      return {
        answer, status, lock: l.lock, role: l.role, inbox: l.registration.inbox, location: inboxes.get(batch[k]!.pair)!.location,
        ...await l.registration.inbox.waitFor(1, { predicate: isAbout(l.fixture.lockId), timeoutMs: ARRIVAL_TIMEOUT_MS, what: `the status event to the ${l.role}'s registration on the ${l.lock} lock, answering ${status}` })
          .then(([d]) => ({ first: d!, missed: '' }), (err: unknown) => ({ first: null, missed: shortenedNote(err) })),
      };
    }));
    await listenedAfterEach(cases, windowMs);
    out.push(...cases);
  }
  return out;
}

/** Waits until `windowMs` has passed since the latest first attempt: every inbox has been listened to that long after its own. */
async function listenedAfterEach(cases: readonly AnsweredDelivery[], windowMs: number): Promise<void> {
  const latest = Math.max(0, ...cases.map((c) => c.first?.receivedAt ?? 0));
  const left = latest + windowMs - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
