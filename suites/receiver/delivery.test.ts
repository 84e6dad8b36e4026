/**
 * Webhook receiver › Delivery and the registration's custom header: the
 * application-chosen header lets the receiver recognize the sender; what the
 * spec leaves open (unsigned deliveries, replays, how fast to answer) is recorded.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { conformance } from '../../harness/receiver/conformance.js';
import { operationApp } from './support/events.js';
import { expectAccepted, expectRejected, observeAnswer } from './support/verdicts.js';

describe('Webhook registration: header and token', () => {
  conformance('RECEIVER-CUSTOM-HEADER', 'a correctly signed delivery without the registered header, or with a wrong token in it, is rejected', {}, async (t) => {
    if (!t.receiver.settings.header) t.notTested('LOCKCONF_WEBHOOK_HEADER and LOCKCONF_WEBHOOK_TOKEN are not set');
    await t.slice({ 'custom-header-breach': 'missing' }, async () => {
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { customToken: null }), 'no custom header');
    });
    await t.slice({ 'custom-header-breach': 'wrong-token' }, async () => {
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { customToken: randomBytes(16).toString('hex') }), 'wrong custom token');
    });
  });
});

/** The Content-Type of each slice: the media type application/json, bare or with a charset parameter. */
const CONTENT_TYPES: Readonly<Record<string, string>> = { bare: 'application/json', 'charset-utf-8': 'application/json; charset=utf-8' };

describe('Delivery', () => {
  conformance('RECEIVER-CONTENT-TYPE', 'a correctly signed delivery is accepted with Content-Type application/json, bare or with a charset', {}, async (t) => {
    await t.eachSlice('content-type', async (slice) => {
      const contentType = CONTENT_TYPES[slice]!;
      expectAccepted(t, await t.receiver.deliver(operationApp(Date.now()), { contentType }), `Content-Type ${contentType}`);
    });
  });

  conformance('RECEIVER-UNSIGNED', 'the answer to a delivery without X-Signature is recorded', {}, async (t) => {
    observeAnswer(t, 'answer to an unsigned lock battery warning', await t.receiver.deliver({ LockID: '3F2A9C0B1D4E5F60718293A4', EventType: 'system', Event: 'lock_battery_alert', warningLevel: 'lock_state_battery_warning_1week', userID: 'zoë' }, { signatureHeader: null }));
  });

  conformance('RECEIVER-REPLAY', 'the answer to the same signed delivery sent twice is recorded', {}, async (t) => {
    const first = await t.receiver.deliver(operationApp(Date.now()));
    observeAnswer(t, 'answer to the first delivery', first);
    observeAnswer(t, 'answer to the same delivery again (same headers and bytes)', await t.receiver.resend(first.sent));
  });

  conformance('RECEIVER-ANSWER-TIME', 'the time the receiver takes to answer a delivery is recorded', {}, async (t) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.receiver.deliver(operationApp(Date.now()));
      expectAccepted(t, res, `timed delivery ${i + 1}`);
      times.push(res.durationMs);
    }
    const sorted = [...times].sort((a, b) => a - b);
    t.observe('answer times (ms)', times);
    t.observe('median answer time (ms)', sorted[Math.floor(sorted.length / 2)]);
    t.observe('slowest answer (ms)', sorted.at(-1));
  });
});
