/**
 * Webhook delivery (spec: Events → Delivery; Errors; Other endpoints named): one
 * POST per event with a JSON body, Content-Type, X-Signature and the registration's
 * own header; no retry after a non-2xx answer, a connection cut without an answer or a timeout; no redirect followed; a status check
 * reaches every listener of the lock.
 */
// Every test of this file leases a fixture set of its own: the sections run side by side.
import { describeLeased as describe } from '../../harness/service/conformance.js';
import { EXCLUSIVE_YIELD_MS, conformance } from '../../harness/service/conformance.js';
import type { Delivery, Inbox } from '../../harness/contracts.js';
import { alone, control, newInbox } from '../support/context.js';
import { ARRIVAL_TIMEOUT_MS, LOOPING_TEST_TIMEOUT_MS, QUIET_WINDOW_MS, RETRY_WINDOW_MS, deliveriesAfter, describeDeliveries, expectDeliveries, expectDelivery, expectNoExtraCopies, expectQuiet, isAbout } from '../support/deliveries.js';
import { deliverToEachAnswer } from '../support/receiver-answers.js';
import { everyRowAndListener } from '../support/every-row.js';
import { checkEachLock, eachListener, lockRoles, registerListeners, statusEventOfEach } from '../support/lock-roles.js';
import { unansweredPort } from '../support/unanswered-port.js';
import { eachRow } from '../support/event-slices.js';
import { charSample, sampleTag } from '../support/char-samples.js';
import { MAX_HOLD_MS, holdFor, senderGaveUp } from '../support/held-answer.js';
import { firstLock, fixtures } from '../support/fixtures.js';
import { runSeed } from '../support/property.js';
import { statusOfSlice } from '../../harness/catalog/slices/receiver-answer-domain.js';
import { INPUTS_LABEL, InputsDigest } from '../../harness/run/generated-inputs.js';
import { statusCheck, statusCheckRoute, triggerStatusCheck } from '../support/status-check.js';
import { expectAccepted, ownerAndGuestRegistered, registerLock, sentFor, type ReceiverUrl, type Registration } from '../support/webhooks.js';
import { is2xx } from '../support/api-endpoints.js';

/** What tells the rows of deliveryOfEveryRow apart in one inbox: two deliveries with one key are copies of one event. */
function rowKey(d: Delivery): string {
  const b = d.json ?? {};
  return JSON.stringify([b.EventType, b.Event, b.Device, b.User?.UserID, b.UserID]);
}

/**
 * On a url two registrations share, a delivery is told to be a registration's by the header and token it named: a delivery
 * that does not arrive so told rests on DELIVERY-CUSTOM-HEADER too (blocked when that failed in the run, else failed).
 */
const TOLD_APART_BY_HEADER = ['DELIVERY-CUSTOM-HEADER'] as const;

describe('Delivery', () => {
  conformance('DELIVERY-ONE-POST', 'each event is delivered once, as one POST with a JSON body, on every row and to every listener', { needs: ['user-token', 'second-user', 'capture', 'events'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    const { rows, listeners } = await everyRowAndListener(t);
    // One quiet window for all rows and listeners, then each delivery's copies are counted (a duplicate has the same row key).
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const once = async (what: string, delivery: Delivery, registration: Registration) => {
      t.expect(delivery.method, `${what}: webhook deliveries are HTTP POSTs`).toBe('POST');
      t.expect(delivery.json, `${what}: the delivery body must be JSON; got ${JSON.stringify(delivery.bodyText.slice(0, 80))}`).toBeTypeOf('object');
      const copies = (await registration.inbox.deliveries()).filter((d) => rowKey(d) === rowKey(delivery));
      t.expect(copies.length, `${what}: one event is one delivery; received ${copies.length}`).toBe(1);
    };
    await eachRow(t, rows, ({ row, delivery, registration }) => once(row, delivery, registration));
    await eachListener(t, listeners, (l) => once(`a status check on the ${l.lock} lock, the ${l.role}'s registration`, l.delivery, l.registration));
  });

  conformance('DELIVERY-CONTENT-TYPE', 'every delivery carries Content-Type application/json, on every row and to every listener', { needs: ['user-token', 'second-user', 'capture', 'events'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    const { rows, listeners } = await everyRowAndListener(t);
    const json = (what: string, delivery: Delivery) => {
      const type = delivery.headers['content-type'] ?? '';
      t.expect(/^application\/json\s*(;|$)/i.test(type.trim()), `${what}: Content-Type must be application/json (parameters such as charset allowed); got ${JSON.stringify(type)}`).toBe(true);
    };
    await eachRow(t, rows, ({ row, delivery }) => json(row, delivery));
    await eachListener(t, listeners, (l) => json(`a status check on the ${l.lock} lock, the ${l.role}'s registration`, l.delivery));
  });

  conformance('DELIVERY-CUSTOM-HEADER', 'every delivery carries the registration\'s header set to its token, on every row, to every listener, whatever its characters', { needs: ['user-token', 'second-user', 'capture', 'events'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    const { rows, listeners } = await everyRowAndListener(t);
    const carried = (what: string, delivery: Delivery, registration: Registration) => {
      t.expect(delivery.headers[registration.header], `${what}: the delivery must carry the application-chosen header ${registration.header} set to the registration's token`).toBe(registration.token);
    };
    await eachRow(t, rows, ({ row, delivery, registration }) => carried(row, delivery, registration));
    // Each registration's own header and token, on either lock, whether the owner or a guest registered.
    await eachListener(t, listeners, (l) => carried(`a status check on the ${l.lock} lock, the ${l.role}'s registration`, l.delivery, l.registration));
    // The token is the application's to choose: sent unchanged whatever its characters (one registration at a time, each overwriting the last).
    const lock = firstLock(t);
    const session = await t.flows.userSession(0);
    await t.eachSlice('chars', async (cls) => {
      const token = charSample(cls, sampleTag());
      t.target.redactor.add(token, 'webhook_token');
      const inbox = await newInbox(t, { label: `token with ${cls}` });
      const reg = await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken, token });
      // The empty token: the spec sets no length, nor says which registration values may be refused ("Required and optional
      // status of each webhook registration field …: not shown"); refused, it has no delivery to judge.
      if (cls === 'empty' && !is2xx(reg.response)) t.notTested(`the target refused a registration whose token is the empty string (HTTP ${reg.response.status}); the spec leaves which registration values may be refused open`);
      expectAccepted(t, reg, `registration whose token holds ${cls} characters`);
      await triggerStatusCheck(t, lock.lockId, session.accessToken);
      const d = await expectDelivery(t, inbox, `the status event (token with ${cls} characters)`, { predicate: isAbout(lock.lockId) });
      t.expect(d.headers[reg.header], `a token with ${cls} characters (${token.length} characters): the header ${reg.header} must carry it unchanged`).toBe(token);
    });
  });

  conformance('DELIVERY-SIGNATURE-PRESENT', 'every delivery carries X-Signature, on every row (battery and clock rows included) and to every listener', { needs: ['user-token', 'second-user', 'capture', 'events'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    const { rows, listeners } = await everyRowAndListener(t);
    const signed = (what: string, delivery: Delivery) => {
      t.expect(delivery.headers['x-signature'], `${what}: every webhook delivery must carry an X-Signature header`).toBeTruthy();
    };
    await eachRow(t, rows, ({ row, delivery }) => {
      // The spec's own examples for these two rows omit X-Signature: record what they carry.
      if (/^Lock (battery warning|clock wrong)/.test(row)) t.observe(`${row}: X-Signature`, delivery.headers['x-signature'] ? 'present' : 'absent');
      signed(row, delivery);
    });
    await eachListener(t, listeners, (l) => signed(`a status check on the ${l.lock} lock, the ${l.role}'s registration`, l.delivery));
  });

  conformance('DELIVERY-STATUS-EVERY-CHECK', 'each status check sends one status event, every time, even when nothing changed, on every lock', { needs: ['user-token', 'capture'] }, async (t) => {
    const locks = fixtures(t).locks;
    const session = await t.flows.userSession(0);
    await t.eachSlice('lock', async (slot) => {
      const lock = (slot === 'first' ? locks[0] : locks[1]) ?? t.notTested('the fixtures have a single lock');
      const inbox = await newInbox(t, { label: `three status checks, the ${slot} lock` });
      expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken }));
      for (let i = 1; i <= 3; i++) {
        await triggerStatusCheck(t, lock.lockId, session.accessToken);
        await expectDeliveries(t, inbox, `the ${slot} lock, status check #${i} (the lock's state unchanged): its status event`, { n: i, predicate: isAbout(lock.lockId) });
      }
      await expectQuiet(t, inbox, `the ${slot} lock, three status checks: exactly three status events`, { total: 3, predicate: isAbout(lock.lockId), windowMs: 150, copies: true });
    });
    // "Sent to all listeners": two registrations (the owner's, a guest's) naming one url each receive every check, each
    // delivery told to be theirs by its header and token. Every lock slice above is an own url.
    await t.eachSlice('receiver-url', async () => {
      const lock = locks[0]!;
      if (!t.target.has('second-user')) return t.notTested('the fixtures have no guest on the lock to share a url with');
      const { owner, ownerReg, guestReg } = await ownerAndGuestRegistered(t, lock.lockId, 'shared');
      const regs = [{ who: 'owner', reg: ownerReg }, { who: 'guest', reg: guestReg }];
      for (let i = 1; i <= 3; i++) {
        await triggerStatusCheck(t, lock.lockId, owner.accessToken);
        for (const { who, reg } of regs) {
          await expectDeliveries(t, reg.inbox, `status check #${i} (the lock's state unchanged): the ${who}'s registration, its url shared with the other user's`, { n: i, predicate: (d) => sentFor(reg)(d) && isAbout(lock.lockId)(d), restsOn: TOLD_APART_BY_HEADER });
        }
      }
      for (const { who, reg } of regs) {
        await expectQuiet(t, reg.inbox, `three status checks: exactly three status events for the ${who}'s registration (its url shared)`, { total: 3, predicate: (d) => sentFor(reg)(d) && isAbout(lock.lockId)(d), windowMs: 150, copies: true });
      }
    });
  });

  // Its hour on the target's clock waits for the tests beside it (EXCLUSIVE_YIELD_MS).
  conformance('DELIVERY-NO-RETRY', 'a delivery answered with any non-2xx status (3xx, 4xx, 5xx) is not retried', { needs: ['user-token', 'capture'], timeout: LOOPING_TEST_TIMEOUT_MS + EXCLUSIVE_YIELD_MS }, async (t) => {
    // One registration per answer, each with one event; one retry window per batch of answers (one per lock), each
    // counted from the batch's latest first attempt, while those registrations are in force.
    // The domain of answers (harness/catalog/slices/receiver-answer-domain.ts): the named edges, and one status per class
    // drawn with the run's seed (other-3xx, …); the 2xx answers are DELIVERY-ONE-POST's ("at most once"), judged in the same batches.
    const seed = runSeed(t);
    const slicesOf = (id?: string) => t.slices('receiver-answer', id).map((answer) => ({ answer, status: statusOfSlice(answer, seed) }));
    const answers = [...slicesOf(), ...slicesOf('DELIVERY-ONE-POST')];
    const drawn = answers.filter((a) => a.answer.startsWith('other-'));
    const inputs = new InputsDigest();
    for (const a of drawn) inputs.add(a.status);
    t.observe('receiver answers drawn', { seed, drawn: Object.fromEntries(drawn.map((a) => [a.answer, a.status])), replay: `--seed ${seed}` });
    t.observe(INPUTS_LABEL, inputs.result());
    const cases = await deliverToEachAnswer(t, answers, RETRY_WINDOW_MS);
    let clockMoved = false;
    // Nothing delivered, nothing to retry: no hour on the clock (each answer is not tested below).
    if (t.target.has('clock') && cases.some((c) => c.first !== null)) {
      // A back-off retry may be scheduled on the target's clock: an hour later, listen once more
      // (alone: the clock is every test's, and it is back at real time afterwards).
      await alone(t, async () => {
        await control(t).advanceClock(3_600_000);
        await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
      });
      clockMoved = true;
    }
    const listened = `listened ${RETRY_WINDOW_MS} ms after its first attempt${clockMoved ? ', and again after the target\'s clock moved on by an hour' : ''}`;
    const byAnswer = new Map(cases.map((c) => [c.answer, c]));
    // Each answer on the listener it was given to (lock × role, in turn): one slice of all three.
    const eachAnswer = (fn: (answer: string, c: (typeof cases)[number]) => Promise<void>) => eachListener(t, t.slices('receiver-answer').map((answer) => byAnswer.get(answer)!), (c) => fn(c.answer, c), (c) => ({ 'receiver-answer': c.answer }));
    await eachAnswer(async (answer, c) => {
      if (!c.first) return t.notTested(`the target made no attempt to deliver the status event to the registration answering ${answer} within ${ARRIVAL_TIMEOUT_MS} ms${c.missed}, so there was nothing it could retry (DELIVERY-STATUS-EVERY-CHECK judges the delivery itself)`);
      t.expect(c.first.answeredStatus, 'the inbox answered as told').toBe(c.status);
      const again = await c.inbox.deliveries();
      const retried = `the ${c.role}'s registration on the ${c.lock} lock, after answering ${c.status}${answer === String(c.status) ? '' : ` (${answer}, drawn with seed ${seed})`}: the event must not be retried (${listened}); received: ${describeDeliveries(again)}`;
      expectNoExtraCopies(t, again.length, 1, retried);
      t.expect(again.length, retried).toBe(1);
      if (c.location) {
        const followed = await c.location.deliveries();
        t.expect(followed.length, `after answering ${answer}: the event must not be sent again to the Location it named (${listened}); received: ${describeDeliveries(followed)}`).toBe(0);
      }
    });
    // "Each event is delivered at most once", whatever 2xx the receiver answers.
    await t.check('DELIVERY-ONE-POST', () => eachAnswer(async (answer, c) => {
      if (!c.first) return t.notTested(`the target made no attempt to deliver the status event to the registration answering ${c.status} within ${ARRIVAL_TIMEOUT_MS} ms`);
      t.expect(c.first.answeredStatus, 'the inbox answered as told').toBe(c.status);
      const again = await c.inbox.deliveries();
      t.expect(again.length, `the ${c.role}'s registration on the ${c.lock} lock, after answering ${c.status}${answer === String(c.status) ? '' : ` (${answer}, drawn with seed ${seed})`}: the event must not be delivered again (${listened}); received: ${describeDeliveries(again)}`).toBe(1);
    }));
  });

  // Each listener (lock × role) its own port that cuts every connection: one status check per lock, every first attempt awaited together.
  conformance('DELIVERY-NO-RETRY-UNANSWERED', 'a delivery whose connection was cut without an answer is not attempted again, to any listener', { needs: ['user-token', 'capture'] }, async (t) => {
    const probe = await newInbox(t, { label: 'loopback probe' });
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(probe.url).hostname)) {
      t.notTested('the target reaches this machine through the capture server only, so a connection cut without an answer cannot be arranged');
    }
    // Every attempt is seen (the port accepts and resets): the first is the delivery, any further one a retry,
    // whatever order the target fans out in and however long it takes.
    const pairs = lockRoles(t);
    const ports = new Map(await Promise.all(pairs.map(async (p) => [p, await unansweredPort()] as const)));
    try {
      const listeners = await registerListeners(t, pairs, 'cuts every connection', async (p) => ({ ...probe, url: ports.get(p)!.url }));
      await checkEachLock(t, listeners);
      // registerListeners keeps the pairs' order: listener k is pairs[k]'s.
      const firsts = await Promise.all(listeners.map((_l, k) => ports.get(pairs[k]!)!.firstAttempt(ARRIVAL_TIMEOUT_MS)));
      const latest = Math.max(0, ...firsts.map((f) => f ?? 0));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, latest + RETRY_WINDOW_MS - Date.now())));
      await eachListener(t, listeners, (l) => {
        const k = listeners.indexOf(l);
        const first = firsts[k] ?? null;
        if (first === null) return t.notTested(`the target made no attempt to deliver the status event to the ${l.role}'s registration on the ${l.lock} lock within ${ARRIVAL_TIMEOUT_MS} ms, so there was nothing it could retry (DELIVERY-STATUS-EVERY-CHECK judges the delivery itself)`);
        const attempts = ports.get(pairs[k]!)!.attempts();
        t.observe(`attempts (ms after the first): the ${l.role} on the ${l.lock} lock`, attempts.map((at) => at - first));
        const again = `the ${l.role}'s registration on the ${l.lock} lock: after its connection was reset without an answer, the event must not be attempted again (listened ${RETRY_WINDOW_MS} ms after the first attempt)`;
        expectNoExtraCopies(t, attempts.length, 1, `${again}: ${attempts.length} attempts`);
        t.expect(attempts.length, again).toBe(1);
      });
    } finally {
      await Promise.all([...ports.values()].map((port) => port.close()));
    }
  });

  // Each listener (lock × role) its own inbox holding its answer, side by side: one hold for all.
  conformance('DELIVERY-NO-RETRY-TIMEOUT', 'a delivery the target gave up waiting for is not sent again, to any listener', { needs: ['user-token', 'capture'], timeout: 30_000 + MAX_HOLD_MS }, async (t) => {
    const { holdMs, advertisedMs } = holdFor(t);
    t.observe('delivery timeout advertised in GET /fixtures', advertisedMs ?? 'none');
    if (holdMs === null) return t.notTested(`GET /fixtures advertises a delivery timeout of ${advertisedMs} ms: with its margin it is beyond the longest hold of an inbox (${MAX_HOLD_MS} ms)`);
    const held = await statusEventOfEach(t, await registerListeners(t, lockRoles(t), `holds its answer ${holdMs} ms`, (_p, label) => newInbox(t, { label, response: { status: 200, delayMs: holdMs } })));
    const gaveUp = await Promise.all(held.map((l) => senderGaveUp(l.registration.inbox, l.delivery, holdMs)));
    // From now on the inboxes answer at once: a retry is recorded without being held again.
    await Promise.all(held.map((l) => l.registration.inbox.setResponse({ status: 200 })));
    await new Promise((resolve) => setTimeout(resolve, RETRY_WINDOW_MS));
    await eachListener(t, held, async (l) => {
      const g = gaveUp[held.indexOf(l)] ?? null;
      if (!g) {
        const advertised = advertisedMs === null ? 'GET /fixtures advertises none' : `GET /fixtures advertises ${advertisedMs} ms`;
        return t.notTested(`the target did not give up within the inbox's hold of ${holdMs} ms (the spec gives no delivery timeout; ${advertised})`);
      }
      t.observe(`the target gave up after (ms): the ${l.role} on the ${l.lock} lock`, g.closedBeforeAnswerAt! - l.delivery.receivedAt);
      await expectQuiet(t, l.registration.inbox, `the ${l.role}'s registration on the ${l.lock} lock, after the target gave up waiting for the answer: the event must not be sent again`, { total: 1, windowMs: 0, copies: true });
    });
  });

  // Each listener (lock × role) answers 302 naming a Location inbox of its own: one status check per lock, one window for all.
  conformance('DELIVERY-NO-REDIRECT', 'a 302 answer is not followed, from any listener', { needs: ['user-token', 'capture'] }, async (t) => {
    for (const answer of t.slices('receiver-answer')) {
      const status = Number(answer);
      const locations = new Map<string, Inbox>();
      const listeners = await statusEventOfEach(t, await registerListeners(t, lockRoles(t), `answers ${status}`, async (p, label) => {
        const target = await newInbox(t, { label: `the Location of a ${status}: the ${p.role} on the ${p.lock} lock` });
        locations.set(`${p.lock}/${p.role}`, target);
        return newInbox(t, { label, response: { status, location: target.url } });
      }));
      await new Promise((resolve) => setTimeout(resolve, RETRY_WINDOW_MS));
      await eachListener(t, listeners, async (l) => {
        await expectQuiet(t, locations.get(`${l.lock}/${l.role}`)!, `the Location of a ${status} answer to the ${l.role}'s registration on the ${l.lock} lock: redirections are not followed`, { windowMs: 0 });
        await expectQuiet(t, l.registration.inbox, `the ${l.role}'s redirecting inbox on the ${l.lock} lock: no second attempt`, { total: 1, windowMs: 0, copies: true });
      }, { 'receiver-answer': answer });
    }
  });
});

describe('Other endpoints named', () => {
  // Listeners are registrations, not urls: with `receiver-url=shared` the owner's and the guest's registrations name one
  // inbox, and each delivery is told to be theirs by the header and token each named (never by arrival order).
  conformance('DELIVERY-STATUS-CHECK-FANOUT', 'a status check, made by the owner or by a guest, reaches every listener of the lock, two sharing one url each', { needs: ['user-token', 'second-user', 'capture'] }, async (t) => {
    const lock = firstLock(t);
    // One registration per lock per user: the shared pair overwrites the own pair, so the urls go one after the other.
    for (const receiverUrl of t.slices('receiver-url')) {
      const { owner, guest, ownerReg, guestReg } = await ownerAndGuestRegistered(t, lock.lockId, receiverUrl as ReceiverUrl);
      const regs = [{ who: 'owner', reg: ownerReg }, { who: 'guest', reg: guestReg }];
      let checks = 0;
      for (const role of t.slices('role')) {
        await t.slice({ role, 'receiver-url': receiverUrl }, async () => {
          const checker = role === 'owner' ? owner : guest;
          const seen = new Set((await ownerReg.inbox.deliveries()).concat(await guestReg.inbox.deliveries()).map((d) => d.seq));
          await triggerStatusCheck(t, lock.lockId, checker.accessToken);
          checks++;
          for (const { who, reg } of regs) {
            const what = `a status check by the ${role}: the ${who}'s registration${receiverUrl === 'shared' ? ' (its url shared with the other user\'s registration: a delivery carrying its own header and token)' : ''} ("all listeners of that lock")`;
            // An own url's inbox is the registration's alone; on a shared url its header and token tell its deliveries apart.
            const mine = receiverUrl === 'shared' ? sentFor(reg) : () => true;
            const got = await expectDelivery(t, reg.inbox, what, { predicate: (d) => !seen.has(d.seq) && mine(d) && isAbout(lock.lockId)(d), ...(receiverUrl === 'shared' ? { restsOn: TOLD_APART_BY_HEADER } : {}) });
            t.expect(got.json?.EventType, `${what}: the status event`).toBe('status');
          }
        });
      }
      // "Each event is delivered at most once": per registration, so the shared url holds one delivery per check for each.
      if (receiverUrl === 'shared' && t.slices('receiver-url', 'DELIVERY-ONE-POST').includes('shared')) {
        await t.check('DELIVERY-ONE-POST', () => t.slice({ 'receiver-url': 'shared' }, async () => {
          const all = await deliveriesAfter(ownerReg.inbox, QUIET_WINDOW_MS);
          for (const { who, reg } of regs) {
            const mine = all.filter(sentFor(reg));
            t.expect(mine.length <= checks, `${checks} status checks, the ${who}'s registration (its url shared with the other user's): each check's event at most once for it (listened ${QUIET_WINDOW_MS} ms); received ${mine.length}: ${describeDeliveries(mine)}`).toBe(true);
          }
        }));
      }
    }
  });

  conformance('DELIVERY-STATUS-CHECK-ENDPOINT', 'method, request and response of the status check (not shown)', { needs: ['user-token'] }, async (t) => {
    const lock = firstLock(t);
    const session = await t.flows.userSession(0);
    const route = statusCheckRoute(t, lock.lockId);
    const res = await statusCheck(t, lock.lockId, session.accessToken);
    t.observe('route (profile.statusCheck)', t.target.profile.statusCheck ?? { method: route.method, path: '/remoteoperate/{lockId}/status (default)' });
    t.observe('answer', { status: res.status, body: res.json ?? res.text.slice(0, 300), rotatesToken: Boolean(res.headers['x-access-token']) });
  });
});
