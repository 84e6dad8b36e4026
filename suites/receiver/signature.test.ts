/**
 * Webhook receiver › Signature: the receiver verifies X-Signature over the raw
 * body with the API key and compares t with the current time (spec: Signature,
 * items 2-4). Each forged delivery departs from a genuine one in one thing only:
 * it is otherwise fresh, signed and carries the custom header.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { conformance } from '../../harness/receiver/conformance.js';
import { operationApp, lockNameChanged } from './support/events.js';
import { expectAccepted, expectRejected, observeAnswer } from './support/verdicts.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('Signature: what is signed', () => {
  conformance('RECEIVER-SIGNATURE-RAW-BODY', 'a delivery signed over its raw bytes (spaces, escaped unicode, its own key order) is accepted', {}, async (t) => {
    // JSON as another serializer writes it: JSON.stringify(JSON.parse(body)) gives other bytes.
    const body = '{ "EventType" : "configuration", "LockID" : "3F2A9C0B1D4E5F60718293A4", "Event" : "lock_name_changed",\n  "Lock" : { "Name" : "Caf\\u00e9 \\u5317\\u9580" }, "User" : { "UserID" : "6f1c9a52-2d4b-4f7e-9a31-0c5e8b7d2a10", "FirstName" : "Zo\\u00eb", "LastName" : "M\\u00fcller", "PhoneNo" : "+4915112345678", "Email" : "zoe@example.test", "imageInfo" : "n/a" } }';
    t.expect(JSON.stringify(JSON.parse(body)), 'the sample body differs from its re-serialization').not.toBe(body);
    expectAccepted(t, await t.receiver.deliver(body), 'a body laid out by another JSON serializer');
  });

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery whose body was changed after signing is rejected', {}, async (t) => {
    const genuine = JSON.stringify(operationApp(Date.now()));
    const tampered = genuine.replace('"Event":"unlock"', '"Event":"lock"');
    t.expect(tampered, 'the tampered body differs').not.toBe(genuine);
    expectRejected(t, await t.receiver.deliver(tampered, { signedBody: genuine }), 'Event changed after signing');
  });

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery whose body only gained whitespace after signing is rejected', {}, async (t) => {
    const genuine = JSON.stringify(lockNameChanged());
    const spaced = JSON.stringify(JSON.parse(genuine), null, 1);
    t.expect(JSON.stringify(JSON.parse(spaced)), 'same JSON value').toBe(genuine);
    expectRejected(t, await t.receiver.deliver(spaced, { signedBody: genuine }), 'whitespace added after signing');
  });

  conformance('RECEIVER-REJECTS-WRONG-KEY', 'a delivery signed with another key than the API key is rejected', {}, async (t) => {
    const secret = t.receiver.settings.clientSecret;
    const key = secret && secret !== t.receiver.settings.apiKey ? secret : randomBytes(24).toString('base64url');
    t.observe('signed with', secret ? 'the client secret (LOCKCONF_CLIENT_SECRET)' : 'a random key (LOCKCONF_CLIENT_SECRET not set)');
    expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { key }), 'signed with the wrong key');
  });

  conformance('RECEIVER-REJECTS-BODY-ONLY-SIGNATURE', 'a delivery whose v is the HMAC of the body alone is rejected', {}, async (t) => {
    expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { bodyOnly: true }), 'v over the body without "t."');
  });

  conformance('RECEIVER-REJECTS-CHANGED-T', 'a delivery whose t was changed after signing is rejected', {}, async (t) => {
    const now = Date.now();
    expectRejected(t, await t.receiver.deliver(operationApp(now), { t: String(now), signedT: String(now - 1) }), 't one millisecond off the signed t');
  });
});

describe('Signature: the timestamp', () => {
  conformance('RECEIVER-REJECTS-STALE-T', 'a correctly signed delivery whose t is a day old is rejected', {}, async (t) => {
    const then = Date.now() - DAY;
    expectRejected(t, await t.receiver.deliver(operationApp(then), { t: String(then) }), 't a day old');
  });

  conformance('RECEIVER-TOLERANCE-5-MIN', 'a correctly signed delivery whose t is 5 min 30 s old is rejected', {}, async (t) => {
    const recent = Date.now() - 4 * MINUTE;
    observeAnswer(t, 'answer to t 4 min old (within the recommended tolerance)', await t.receiver.deliver(operationApp(recent), { t: String(recent) }));
    const then = Date.now() - 5.5 * MINUTE;
    expectRejected(t, await t.receiver.deliver(operationApp(then), { t: String(then) }), 't 5 min 30 s old');
  });

  conformance('RECEIVER-FUTURE-T', 'the answer to a correctly signed delivery whose t is 10 min ahead is recorded', {}, async (t) => {
    const ahead = Date.now() + 10 * MINUTE;
    observeAnswer(t, 'answer to t 10 min in the future', await t.receiver.deliver(operationApp(ahead), { t: String(ahead) }));
  });
});

describe('Signature: what the spec leaves open', () => {
  conformance('RECEIVER-SIGNATURE-ELEMENT-ORDER', 'the answers to v before t, and to unknown extra elements, are recorded', {}, async (t) => {
    observeAnswer(t, 'answer to "v=…,t=…"', await t.receiver.deliver(operationApp(Date.now()), { signatureHeader: (ts, v) => `v=${v},t=${ts}` }));
    observeAnswer(t, 'answer to "t=…,v=…,k=lockconf"', await t.receiver.deliver(operationApp(Date.now()), { signatureHeader: (ts, v) => `t=${ts},v=${v},k=lockconf` }));
    observeAnswer(t, 'answer to "t=…, v=…" (a space after the comma)', await t.receiver.deliver(operationApp(Date.now()), { signatureHeader: (ts, v) => `t=${ts}, v=${v}` }));
    observeAnswer(t, 'answer to a second, unmatched v before the right one', await t.receiver.deliver(operationApp(Date.now()), { signatureHeader: (ts, v) => `t=${ts},v=${'0'.repeat(64)},v=${v}` }));
  });

  conformance('RECEIVER-TIMESTAMP-UNIT', 'the answer to t in epoch seconds instead of milliseconds is recorded', {}, async (t) => {
    const seconds = String(Math.floor(Date.now() / 1000));
    observeAnswer(t, 'answer to t in epoch seconds', await t.receiver.deliver(operationApp(Date.now()), { t: seconds }));
  });

  conformance('RECEIVER-SIGNATURE-ENCODING', 'the answers to v in lower-case hex, upper-case hex and base64 are recorded', {}, async (t) => {
    observeAnswer(t, 'answer to v in lower-case hex', await t.receiver.deliver(operationApp(Date.now()), { encoding: 'hex' }));
    observeAnswer(t, 'answer to v in upper-case hex', await t.receiver.deliver(operationApp(Date.now()), { encoding: 'HEX' }));
    observeAnswer(t, 'answer to v in base64', await t.receiver.deliver(operationApp(Date.now()), { encoding: 'base64' }));
  });
});
