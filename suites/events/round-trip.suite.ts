/**
 * Property-based round trip (spec: Events → Lock events, Signature): a lock renamed
 * to an arbitrary name — any Unicode, quotes, backslashes, emoji, combining marks —
 * reports exactly that name in Lock.Name, and the delivery's signature verifies
 * over the raw bytes received.
 */
import { PrerequisiteFailed } from '../support/prerequisite.js';
import fc from 'fast-check';
// Every test of this file leases a fixture set of its own: the sections run side by side.
import { describeLeased as describe } from '../../harness/service/conformance.js';
import { conformance } from '../../harness/service/conformance.js';
import { isLockconfError } from '../../harness/run/errors.js';
import type { Delivery } from '../../harness/contracts.js';
import { control } from '../support/context.js';
import { ARRIVAL_TIMEOUT_MS, isEvent } from '../support/deliveries.js';
import { listenToLock, owner } from '../support/events.js';
import { firstLock } from '../support/fixtures.js';
import { checkProperty } from '../support/property.js';
import { hmacMatched, hmacVerdict } from '../support/signatures.js';

/**
 * Printable names: no control characters, no surrounding blanks (a target may trim those), at most 100 UTF-16 units,
 * already in NFC (a target may normalise a name it stores).
 */
const lockName = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }),
    fc.string({ unit: fc.constantFrom('"', '\\', '/', '\u2028', '\u00e9', 'e\u0301', '\u{1F512}', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', '<', '&', "'", '%', '+', 'A'), minLength: 1, maxLength: 12 }),
  )
  .filter((s) => s === s.normalize('NFC') && s.trim() === s && s.length > 0 && s.length <= 100 && !/[\u0000-\u001f\u007f-\u009f]/.test(s));

describe('Lock events', () => {
  conformance('EVENT-LOCK-NAME-CHANGED', 'property: an arbitrary new lock name arrives exactly, in a delivery that verifies',
    { needs: ['user-token', 'capture', 'events'], timeout: 120_000 },
    async (t) => {
      const lock = firstLock(t);
      const inbox = await listenToLock(t, lock, ['configuration']);
      await checkProperty(t, {
        rule: 'Lock.Name must be the new name, and the delivery must verify',
        arbitrary: lockName,
        numRuns: 10,
        examples: ['Tür «Süd» 🔒 "x" \\ y', '\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627'],
        show: (name) => ({ name, codePoints: [...name].map((c) => c.codePointAt(0)!.toString(16)) }),
      }, async (name) => {
        const seen = new Set((await inbox.deliveries()).map((d) => d.seq));
        try {
          await control(t).emit({ kind: 'lock_name_changed', lockId: lock.lockId, userId: owner(t).userId, value: name });
        } catch (err) {
          // The target's control refuses this name (a 4xx): not a name this target can be renamed to; skip it.
          if (isLockconfError(err, 'ERR_CONTROL') && /answered 4\d\d/.test(err.message)) fc.pre(false);
          throw err;
        }
        let d: Delivery;
        try {
          [d] = (await inbox.waitFor(1, { predicate: (x) => !seen.has(x.seq) && isEvent('lock_name_changed')(x), timeoutMs: ARRIVAL_TIMEOUT_MS })) as [Delivery];
        } catch {
          // The registration names configuration alone: none arriving at all may be that group's
          // filter (blocked when WEBHOOK-GROUP-CONFIGURATION failed in the run; failed otherwise).
          throw new PrerequisiteFailed(['EVENT-LOCK-NAME-CHANGED', 'WEBHOOK-GROUP-CONFIGURATION'], `no lock_name_changed delivery within ${ARRIVAL_TIMEOUT_MS} ms for the name ${JSON.stringify(name)}`);
        }
        const got = d.json?.Lock?.Name;
        if (got !== name) return `renamed to ${JSON.stringify(name)}, Lock.Name arrived as ${JSON.stringify(got)}`;
        await t.check('SIGNATURE-VALID', () => {
          const v = hmacVerdict(t, d);
          t.expect(hmacMatched(v.code), `delivery for the name ${JSON.stringify(name)}: ${v.detail}`).toBe(true);
        });
        return null;
      });
    });
});
