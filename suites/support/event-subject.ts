/**
 * User events about every kind of subject (slice dimension `subject`,
 * harness/catalog/slices/webhooks-events.ts): "All carry EventType=authorization,
 * UserID (string UUID), LockID, EventID, timeStamp and Timestamp" holds whoever the
 * event is about: a member of the lock (the guest), its owner, or a user who is not a
 * member of it (the guest on a lock of the set whose guestUserIds leave them out).
 * The delivery is caught by its Event alone, never by the fields the slice judges.
 */
import type { z } from 'zod';
import type { ControlEvent, Delivery, FixtureLock, FixtureUser, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { control } from './context.js';
import { expectDelivery } from './deliveries.js';
import { listenToUser } from './events.js';
import { firstLock, fixtures, sameId, user } from './fixtures.js';

/** One user registration per fixture user, opened when first needed (a second one would overwrite the first). */
export class UserInboxes {
  readonly #open = new Map<number, Promise<Inbox>>();
  readonly #t: SuiteContext;
  constructor(t: SuiteContext) {
    this.#t = t;
  }

  of(index: number): Promise<Inbox> {
    let inbox = this.#open.get(index);
    if (!inbox) this.#open.set(index, (inbox = listenToUser(this.#t, index)));
    return inbox;
  }
}

interface Subject {
  /** The subject's place in fixtures.users (whose user registration hears of the event). */
  index: number;
  user: FixtureUser;
  lock: FixtureLock;
}

/** The subject and lock of a relation, or not tested when the fixtures cannot tell one. */
function subjectFor(t: SuiteContext, relation: string): Subject {
  if (relation === 'owner') return { index: 0, user: user(t, 0), lock: firstLock(t) };
  if (relation === 'member') return { index: 1, user: user(t, 1), lock: firstLock(t) };
  const guest = user(t, 1);
  // Only a lock that says who its guests are tells that the guest is not one of them.
  const lock = fixtures(t).locks.find((l) => Array.isArray(l.guestUserIds) && !sameId(l.ownerUserId, guest.userId) && !l.guestUserIds.some((id) => sameId(id, guest.userId)));
  if (!lock) t.notTested('no fixture lock is known not to count the second user among its members: none lists guestUserIds leaving them out (control-protocol-extensions.md, GET /fixtures)');
  return { index: 1, user: guest, lock };
}

/**
 * For each subject relation: the target emits the event about that subject on that lock, and the delivery to the
 * subject's user registration must carry every field of the row (its schema: suites/schemas/events.ts). A refused
 * control request makes the slice not tested. `valueFor`: the row's value (UserType, AccessType) for a relation.
 */
export async function eachSubject(t: SuiteContext, inboxes: UserInboxes, kind: string, schema: z.ZodType, valueFor?: (relation: string) => string): Promise<void> {
  await t.eachSlice('subject', async (relation) => {
    const subject = subjectFor(t, relation);
    const inbox = await inboxes.of(subject.index);
    const value = valueFor?.(relation);
    const d = await emitAndCatchEvent(t, inbox, { kind, lockId: subject.lock.lockId, userId: subject.user.userId, ...(value ? { value } : {}) });
    const what = `user event ${kind} about ${relation === 'non-member' ? 'a user who is not a member of the lock' : `the lock's ${relation}`} (delivery #${d.seq})`;
    const parsed = schema.safeParse(d.json);
    const issues = parsed.success ? '' : parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    t.expect(parsed.success, `${what}: every user event carries EventType=authorization, UserID, LockID, EventID, timeStamp and Timestamp (and the row's extra field); ${issues}; payload ${d.bodyText.slice(0, 300)}`).toBe(true);
    t.observe(`${kind} [subject=${relation}]`, { LockID: d.json?.LockID ?? null, UserID: d.json?.UserID ?? null });
  });
}

/** Emits the event and waits for the next delivery of that Event in the inbox (whatever else it carries). */
async function emitAndCatchEvent(t: SuiteContext, inbox: Inbox, request: ControlEvent): Promise<Delivery> {
  const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
  await control(t).emit(request);
  const what = `${request.kind}${request.value ? ` (${request.value})` : ''}: the ${request.kind} event`;
  return expectDelivery(t, inbox, what, { predicate: (d) => !seen.has(d.seq) && d.json?.Event === request.kind });
}
