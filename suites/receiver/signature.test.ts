/**
 * Webhook receiver › Signature: the receiver verifies X-Signature over the raw
 * body with the API key and compares t with the current time (spec: Signature,
 * items 2-4). Each forged delivery departs from a genuine one in one thing only:
 * it is otherwise fresh, signed and carries the custom header.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { conformance, type ReceiverContext } from '../../harness/receiver/conformance.js';
import type { DeliveryOptions } from '../../harness/receiver/deliveries.js';
import { bodyTimes, wrongKey } from '../../harness/receiver/probes.js';
import { recordDraws, runSeed } from './support/draws.js';
import { ROW_SAMPLES, operationApp } from './support/events.js';
import { expectAccepted, expectRejected, observeAnswer } from './support/verdicts.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The ages of the stale-age slices: well past any tolerance a receiver may choose (the spec recommends 5 minutes). */
const STALE_AGES_MS: Readonly<Record<string, number>> = {
  hours: 6 * 60 * MINUTE,
  'a-day': DAY,
  'a-month': 30 * DAY, // past the 24.8 days a 32-bit millisecond difference holds
  'a-year': 365 * DAY,
  decades: Date.now() - 1_000, // t one second after the epoch
};

describe('Signature: what is signed', () => {
  // RECEIVER-SIGNATURE-RAW-BODY: the layouts of a genuine body (slices raw-layout) are probes.test.ts.

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery whose body was changed after signing (a value, or only whitespace) is rejected, in every form of X-Signature', {}, async (t) => {
    await t.eachSlice('signature-form', (form) => expectTamperedRejected(t, operationApp(Date.now()), { form }, `form ${form}`));
  });

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery whose body was changed after signing (a value, or only whitespace) is rejected, on every event row', {}, async (t) => {
    await t.eachSlice('row', (row) => expectTamperedRejected(t, ROW_SAMPLES[row]!(Date.now()), {}, `row ${row}`));
  });

  conformance('RECEIVER-REJECTS-WRONG-KEY', 'a delivery signed with another key than the API key is rejected, in every form of X-Signature', {}, async (t) => {
    const secret = t.receiver.settings.clientSecret;
    const key = secret && secret !== t.receiver.settings.apiKey ? secret : randomBytes(24).toString('base64url');
    t.observe('signed with', secret ? 'the client secret (LOCKCONF_CLIENT_SECRET)' : 'a random key (LOCKCONF_CLIENT_SECRET not set)');
    await t.eachSlice('signature-form', async (form) => {
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { key, form }), `signed with the wrong key, form ${form}`);
    });
  });

  conformance('RECEIVER-REJECTS-WRONG-KEY', 'a delivery signed with another secret of the application (client secret, webhook token, header name), an empty key or the API key one character off is rejected', {}, async (t) => {
    const draws: Array<Record<string, unknown>> = [];
    await t.eachSlice('wrong-key', async (slice) => {
      // A secret the run was not given (LOCKCONF_CLIENT_SECRET, LOCKCONF_WEBHOOK_HEADER/TOKEN): a random key stands in, as above.
      const held = wrongKey(slice, t.receiver.settings, runSeed(t));
      if (!held) t.observe(`signed for ${slice}`, 'a random key (the run was not given that secret)');
      const wrong = held ?? { key: randomBytes(24).toString('base64url'), position: undefined };
      if (wrong.position !== undefined) draws.push({ slice, position: wrong.position });
      const at = wrong.position === undefined ? '' : ` (character ${wrong.position})`;
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { key: wrong.key }), `signed with the ${slice}${at}`);
    });
    recordDraws(t, draws);
  });

  conformance('RECEIVER-REJECTS-BODY-ONLY-SIGNATURE', 'a delivery whose v is the HMAC of the body alone is rejected, in every form of X-Signature', {}, async (t) => {
    await t.eachSlice('signature-form', async (form) => {
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { bodyOnly: true, form }), `v over the body without "t.", form ${form}`);
    });
  });

  conformance('RECEIVER-REJECTS-CHANGED-T', 'a delivery whose t was changed after signing is rejected', {}, async (t) => {
    const now = Date.now();
    expectRejected(t, await t.receiver.deliver(operationApp(now), { t: String(now), signedT: String(now - 1) }), 't one millisecond off the signed t');
  });
});

describe('Signature: the timestamp', () => {
  conformance('RECEIVER-REJECTS-STALE-T', 'a correctly signed delivery whose t is a day old is rejected, in every form of X-Signature', {}, async (t) => {
    await t.eachSlice('signature-form', async (form) => {
      const then = Date.now() - DAY;
      // The body's own times are current: only t is stale (a receiver reading the body's time instead of t is caught).
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { at: then, form }), `t a day old (the body's timeStamp current), form ${form}`);
    });
  });

  conformance('RECEIVER-REJECTS-STALE-T', 'a correctly signed delivery whose t is hours, a day, a month, a year or decades old is rejected', {}, async (t) => {
    await t.eachSlice('stale-age', async (age) => {
      const then = Date.now() - STALE_AGES_MS[age]!;
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { at: then }), `t ${age.replace('-', ' ')} old (${Math.round(STALE_AGES_MS[age]! / DAY)} days; the body's timeStamp current)`);
    });
  });

  conformance('RECEIVER-REJECTS-STALE-T', 'a correctly signed delivery whose t is a day old is rejected when the body\'s own timeStamp, Timestamp or both are current', {}, async (t) => {
    await t.eachSlice('body-time', async (slice) => {
      const now = Date.now();
      const then = now - DAY;
      expectRejected(t, await t.receiver.deliver(bodyTimes(operationApp(then), slice, now), { at: then }), `t a day old, the body with ${slice}`);
    });
  });

  conformance('RECEIVER-TOLERANCE-5-MIN', 'a correctly signed delivery whose t is 4 min or 4 min 55 s old is accepted, 5 min 5 s or 5 min 30 s old rejected', {}, async (t) => {
    await t.eachSlice('t-age', async (slice) => {
      const { ageMs, accepted } = T_AGES[slice]!;
      const then = Date.now() - ageMs;
      const res = await t.receiver.deliver(operationApp(Date.now()), { at: then }); // the body's own times current: only t ages
      const what = `t ${slice.replace(/^(inside|beyond)-/, '').replace(/-/g, ' ')} old`;
      if (accepted) expectAccepted(t, res, `${what} (within the recommended 5-minute tolerance)`);
      else expectRejected(t, res, `${what} (beyond the recommended 5-minute tolerance)`);
    });
  });

  conformance('RECEIVER-FUTURE-T', 'the answer to a correctly signed delivery whose t is 10 min, or a day, ahead is recorded', {}, async (t) => {
    const ahead = Date.now() + 10 * MINUTE;
    observeAnswer(t, 'answer to t 10 min in the future', await t.receiver.deliver(operationApp(ahead), { t: String(ahead) }));
    const farAhead = Date.now() + DAY;
    observeAnswer(t, 'answer to t a day in the future', await t.receiver.deliver(operationApp(farAhead), { t: String(farAhead) }));
  });
});

describe('Signature: the forms a conforming service may send', () => {
  conformance('RECEIVER-SIGNATURE-FORMS', 'a correctly signed delivery is accepted in every layout of X-Signature (order, blanks, other elements)', {}, acceptsEveryDeclaredForm);

  conformance('RECEIVER-SIGNATURE-ENCODINGS', 'a correctly signed delivery is accepted with v in upper-case hex or base64 and t in epoch seconds', {}, acceptsEveryDeclaredForm);

  conformance('RECEIVER-SIGNATURE-SECOND-V', 'the answer to a second v that is not the signature, before the right one, is recorded', {}, async (t) => {
    observeAnswer(t, 'answer to "t=…,v=<not the signature>,v=…"', await t.receiver.deliver(operationApp(Date.now()), { signatureHeader: (ts, v) => `t=${ts},v=${'0'.repeat(64)},v=${v}` }));
  });
});


/** The ages of t of the slices t-age, and whether a 5-minute tolerance takes them. */
const T_AGES: Readonly<Record<string, { ageMs: number; accepted: boolean }>> = {
  'inside-4-min': { ageMs: 4 * MINUTE, accepted: true },
  'inside-4-min-55-s': { ageMs: 4 * MINUTE + 55_000, accepted: true },
  'beyond-5-min-5-s': { ageMs: 5 * MINUTE + 5_000, accepted: false },
  'beyond-5-min-30-s': { ageMs: 5.5 * MINUTE, accepted: false },
};

/** Every form of X-Signature declared for the test's requirement, correctly signed, accepted. */
async function acceptsEveryDeclaredForm(t: ReceiverContext): Promise<void> {
  await t.eachSlice('signature-form', async (form) => {
    const res = await t.receiver.deliver(operationApp(Date.now()), { form });
    expectAccepted(t, res, `X-Signature in the form ${form} (${JSON.stringify(redactedForm(res.sent.headers['x-signature'] ?? ''))})`);
  });
}

/** Both tamperings of one genuine delivery (a value changed; only whitespace added), each rejected. */
async function expectTamperedRejected(t: ReceiverContext, payload: Record<string, unknown>, opts: DeliveryOptions, what: string): Promise<void> {
  const genuine = JSON.stringify(payload);
  const changed = JSON.stringify({ ...payload, Event: `${String(payload.Event)}_changed` });
  const spaced = JSON.stringify(payload, null, 1);
  t.expect(JSON.stringify(JSON.parse(spaced)), 'the spaced body is the same JSON value').toBe(genuine);
  expectRejected(t, await t.receiver.deliver(changed, { ...opts, signedBody: genuine }), `${what}: Event changed after signing`);
  expectRejected(t, await t.receiver.deliver(spaced, { ...opts, signedBody: genuine }), `${what}: whitespace added after signing`);
}

/** The header's layout with v shortened: what a reader needs to see the form, not the HMAC. */
function redactedForm(header: string): string {
  return header.replace(/v=([^,\s]{8})[^,\s]*/g, 'v=$1…');
}
