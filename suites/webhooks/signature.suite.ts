/**
 * Webhook signatures (spec: Events → Signature): X-Signature is t=…,v=…; v is
 * HMAC-SHA256 over "<t>.<body>" keyed with the API key; t is current. Judged on
 * the raw bytes received, against the target's clock. The encoding of v is not
 * shown: hex and base64 are both accepted, and which one was seen is recorded.
 * With the events capability every event row is judged, each a slice of its own.
 */
// Every test of this file leases a fixture set of its own: the sections run side by side.
import { describeLeased as describe } from '../../harness/service/conformance.js';
import { conformance } from '../../harness/service/conformance.js';
import type { Delivery } from '../../harness/contracts.js';
import type { SuiteContext } from '../support/context.js';
import { control, newInbox } from '../support/context.js';
import { LOOPING_TEST_TIMEOUT_MS, expectDeliveries, isAbout, isEvent } from '../support/deliveries.js';
import { firstLock, user } from '../support/fixtures.js';
import { isLockconfError } from '../../harness/run/errors.js';
import { parseSignatureHeader } from '../../harness/wire/signature.js';
import { TOLERANCE_MS, formatProblems, freshnessVerdict, hmacMatched, hmacVerdict, signatureHeader } from '../support/signatures.js';
import { triggerStatusCheck } from '../support/status-check.js';
import { everyRowAndListener } from '../support/every-row.js';
import { eachListener, statusEventPerListener, type ListenerDelivery } from '../support/lock-roles.js';
import { eachRow } from '../support/event-slices.js';
import { expectAccepted, registerLock } from '../support/webhooks.js';

/**
 * Deliveries to sign-check: a status check, and with events a lock rename to a
 * name with non-ASCII characters (the body's bytes are then not plain ASCII).
 */
async function someDeliveries(t: SuiteContext): Promise<Delivery[]> {
  const lock = firstLock(t);
  const session = await t.flows.userSession(0);
  const inbox = await newInbox(t, { label: 'signed deliveries' });
  expectAccepted(t, await registerLock(t, { lockId: lock.lockId, inbox, accessToken: session.accessToken }));
  await triggerStatusCheck(t, lock.lockId, session.accessToken);
  const got = await expectDeliveries(t, inbox, 'the status event of a status check', { predicate: isAbout(lock.lockId) });
  if (t.target.has('events')) {
    const name = `Tür «Süd» 🔒 \\ "quoted" ${Date.now().toString(36)}`;
    try {
      await control(t).emit({ kind: 'lock_name_changed', lockId: lock.lockId, userId: user(t, 0).userId, value: name });
    } catch (err) {
      // A target whose control refuses this name: the status check's delivery is still judged.
      if (!isLockconfError(err, 'ERR_CONTROL')) throw err;
      t.observe('rename through control refused; judged the status check delivery alone', err.message);
      return got;
    }
    got.push(...(await expectDeliveries(t, inbox, 'lock_name_changed', { predicate: isEvent('lock_name_changed') })));
  }
  return got;
}

/**
 * Every event row (slices `row`, with the events capability: everyRowAndListener) and every fixture lock (slices
 * `lock`: the status event of a registration on each, whoever registered it; without events, the owner's), then the
 * deliveries of someDeliveries (a status check, a non-ASCII rename), each judged by check.
 */
async function everyRowAndSome(t: SuiteContext, check: (d: Delivery, row: string) => void | Promise<void>): Promise<void> {
  let listeners: ListenerDelivery[];
  if (t.target.has('events') && t.target.has('second-user')) {
    const every = await everyRowAndListener(t);
    await eachRow(t, every.rows, ({ row, delivery }) => check(delivery, row));
    listeners = every.listeners;
  } else {
    listeners = await statusEventPerListener(t, 'signed deliveries', ['owner']);
  }
  await eachListener(t, listeners, (l) => check(l.delivery, `a status check on the ${l.lock} lock, the ${l.role}'s registration`));
  for (const d of await someDeliveries(t)) await check(d, `delivery #${d.seq}`);
}

describe('Signature', () => {
  conformance('SIGNATURE-FORMAT', 'X-Signature is comma-separated prefix=value elements with t and v', { needs: ['user-token', 'capture'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    await everyRowAndSome(t, (d, row) => {
      const header = signatureHeader(d);
      const problems = formatProblems(header);
      t.expect(problems, `${row}: X-Signature must be comma-separated prefix=value elements, t the timestamp, v the signature; header ${JSON.stringify(header)}`).toEqual([]);
    });
  });

  conformance('SIGNATURE-VALID', 'v is HMAC-SHA256 of "<t>.<raw body>" keyed with the API key', { needs: ['user-token', 'capture'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    await everyRowAndSome(t, (d, row) => {
      const v = hmacVerdict(t, d);
      t.expect(hmacMatched(v.code), `${row} (${d.rawBody.length} bytes): expected v = HMAC-SHA256(API key, t + "." + body) in hex or base64; ${v.code}: ${v.detail}`).toBe(true);
    });
  });

  conformance('SIGNATURE-TIMESTAMP-CURRENT', 't is within 5 minutes of the target\'s clock', { needs: ['user-token', 'capture'], timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    await everyRowAndSome(t, async (d, row) => {
      const v = await freshnessVerdict(t, d);
      t.observe(`${row}: signature timestamp age (ms)`, v.ageMs);
      // Judged on its own: a signature that does not verify is SIGNATURE-VALID's business.
      const raw = parseSignatureHeader(signatureHeader(d) ?? '').t;
      t.expect(v.ageMs, `${row}: the timestamp must be current, but t ${JSON.stringify(raw?.slice(0, 40) ?? null)} cannot be read as a time (epoch seconds or milliseconds, decimal seconds, ISO 8601) (${v.code}: ${v.detail})`).not.toBeNull();
      t.expect(Math.abs(v.ageMs!) <= TOLERANCE_MS, `${row}: the timestamp must be current, within the recommended 5-minute tolerance of the target's clock; it is ${v.ageMs} ms ${v.ageMs! >= 0 ? 'old' : 'ahead'}`).toBe(true);
    });
  });

  conformance('SIGNATURE-ENCODING', 'text encoding of the signature value (not shown)', { needs: ['user-token', 'capture'] }, async (t) => {
    for (const d of await someDeliveries(t)) {
      const v = hmacVerdict(t, d);
      const raw = parseSignatureHeader(signatureHeader(d) ?? '').t;
      t.observe(`delivery #${d.seq}`, { encoding: v.encoding, timestamp: raw, timestampUnit: v.timestampUnit ?? (raw === null ? null : 'unreadable'), verdict: v.code });
    }
  });
});
