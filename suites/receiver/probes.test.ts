/**
 * Webhook receiver › adversarial probes (issue 34): deliveries one byte, one
 * element or one character away from a genuine one, each drawn from a declared
 * domain (harness/catalog/slices/receiver.ts) with named edges and draws from the
 * run's seed (harness/receiver/probes.ts), recorded and replayable with --seed.
 * A forgery is rejected (non-2xx); a genuine delivery in an unusual but legal
 * layout is accepted (2xx). Each probe is judged by the rule it tests.
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/receiver/conformance.js';
import { recordDraws, runSeed } from './support/draws.js';
import { alteredV, bodyByteProbe, bodyKeyProbe, breachedHeader, disguisedHeader, normalizationProbe, rawLayoutBody, surroundProbe } from '../../harness/receiver/probes.js';
import { lockNameChanged, operationApp } from './support/events.js';
import { expectAccepted, expectRejected } from './support/verdicts.js';

const DAY = 24 * 60 * 60_000;

/** A JSON text no JSON.stringify writes (blanks, escaped unicode, its own key order): a body as another serializer lays it out. */
const OTHER_SERIALIZER = '{ "EventType" : "configuration", "LockID" : "3F2A9C0B1D4E5F60718293A4", "Event" : "lock_name_changed",\n  "Lock" : { "Name" : "Caf\\u00e9 \\u5317\\u9580" }, "User" : { "UserID" : "6f1c9a52-2d4b-4f7e-9a31-0c5e8b7d2a10", "FirstName" : "Zo\\u00eb", "LastName" : "M\\u00fcller", "PhoneNo" : "+4915112345678", "Email" : "zoe@example.test", "imageInfo" : "n/a" } }';

/** What a receiver that rewrites a body before verifying it would verify: re-serialized, trimmed, in NFC. */
function rewrites(body: string): string[] {
  return [JSON.stringify(JSON.parse(body)), body.trim(), body.normalize('NFC')];
}


describe('Signature: one byte of the body changed after signing', () => {
  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery with one byte of its body changed after signing (first, last, inside a string, a digit, drawn) is rejected', {}, async (t) => {
    const draws: Array<Record<string, unknown>> = [];
    await t.eachSlice('body-byte', async (slice) => {
      const genuine = JSON.stringify(operationApp(Date.now()));
      const probe = bodyByteProbe(genuine, slice, runSeed(t));
      draws.push({ slice, position: probe.position, was: probe.was, now: probe.now });
      expectRejected(t, await t.receiver.deliver(probe.body, { signedBody: genuine }), `byte ${probe.position} of ${genuine.length} changed from ${JSON.stringify(probe.was)} to ${JSON.stringify(probe.now)} after signing (${slice})`);
    });
    recordDraws(t, draws);
  });

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery with bytes added around its JSON after signing (a blank, a newline, a byte order mark) is rejected', {}, async (t) => {
    await t.eachSlice('body-surround', async (slice) => {
      const genuine = JSON.stringify(operationApp(Date.now()));
      expectRejected(t, await t.receiver.deliver(surroundProbe(genuine, slice), { signedBody: genuine }), `${slice} added after signing`);
    });
  });

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery with one member added to its JSON after signing (a repeated key, a new key) is rejected', {}, async (t) => {
    await t.eachSlice('body-key', async (slice) => {
      const probe = bodyKeyProbe(operationApp(Date.now()), slice);
      expectRejected(t, await t.receiver.deliver(probe.sent, { signedBody: probe.signed }), `a member added after signing (${slice})`);
    });
  });

  conformance('RECEIVER-REJECTS-TAMPERED-BODY', 'a delivery signed over one Unicode normalization form of a lock name and sent in the other is rejected', {}, async (t) => {
    await t.eachSlice('normalization', async (slice) => {
      const probe = normalizationProbe(JSON.stringify(lockNameChanged()), slice);
      expectRejected(t, await t.receiver.deliver(probe.sent, { signedBody: probe.signed }), `the lock name ${slice}`);
    });
  });
});

describe('Signature: a genuine body verified as received', () => {
  conformance('RECEIVER-SIGNATURE-RAW-BODY', 'a correctly signed body is accepted in any layout (another serializer, whitespace around the JSON, NFD text)', {}, async (t) => {
    await t.eachSlice('raw-layout', async (slice) => {
      const plain = JSON.stringify(lockNameChanged());
      const body = rawLayoutBody(plain, slice, OTHER_SERIALIZER);
      t.expect(rewrites(body).some((rewritten) => rewritten !== body), `the ${slice} body is not what a receiver that re-serializes, trims or normalizes it would verify`).toBe(true);
      expectAccepted(t, await t.receiver.deliver(body), `a body in the layout ${slice}, signed as sent`);
    });
  });
});

describe('Signature: the value of v', () => {
  conformance('RECEIVER-REJECTS-ALTERED-V', 'a delivery whose v is the signature changed by one character (first, last, drawn, dropped), cut to a prefix (half, one byte short, one digit) or with bytes appended is rejected', {}, async (t) => {
    const draws: Array<Record<string, unknown>> = [];
    await t.eachSlice('v-alteration', async (slice) => {
      let position = -1;
      const res = await t.receiver.deliver(operationApp(Date.now()), {
        signatureHeader: (ts, v) => {
          const altered = alteredV(v, slice, runSeed(t));
          position = altered.position;
          return `t=${ts},v=${altered.v}`;
        },
      });
      draws.push({ slice, position });
      expectRejected(t, res, `v with ${slice} (character ${position})`);
    });
    recordDraws(t, draws);
  });
});

describe('Signature: the elements of X-Signature', () => {
  conformance('RECEIVER-REJECTS-INCOMPLETE-SIGNATURE', 'a delivery whose X-Signature lacks t, lacks v, or has an empty v, or an operation event with no X-Signature at all, is rejected', {}, async (t) => {
    await t.eachSlice('element-breach', async (slice) => {
      // The operation row's example carries X-Signature: its absence is no reading of the two rows whose examples omit it (RECEIVER-UNSIGNED).
      const header = breachedHeader('t', 'v', slice) === null ? null : (ts: string, v: string) => breachedHeader(ts, v, slice)!;
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { signatureHeader: header }), slice === 'no-header' ? 'an operation event without X-Signature' : `X-Signature with ${slice}`);
    });
  });

  conformance('RECEIVER-REJECTS-STALE-T', 'a delivery signed a day ago, with a fresh t added after or before the signed one, is rejected', {}, async (t) => {
    await t.eachSlice('stale-disguise', async (slice) => {
      const then = Date.now() - DAY;
      const fresh = String(Date.now());
      expectRejected(t, await t.receiver.deliver(operationApp(Date.now()), { at: then, signatureHeader: (ts, v) => disguisedHeader(ts, v, fresh, slice) }), `a day-old signed t with a ${slice} (the body's own times current)`);
    });
  });
});
