/**
 * The two judgements of a receiver suite, worded once: a genuine delivery is
 * accepted (2xx), a forged one is refused (anything else, or no answer). Both
 * assert on the class of the status, so a failure shows what was seen.
 */
import { statusClass, type DeliveryResult } from '../../../harness/receiver/deliveries.js';
import type { ReceiverContext } from '../../../harness/receiver/conformance.js';

function answered(res: DeliveryResult): string {
  return res.status === null ? `no answer (${res.error ?? 'closed'})` : `HTTP ${res.status}`;
}

/** The receiver accepted the delivery: any 2xx. */
export function expectAccepted(t: ReceiverContext, res: DeliveryResult, what: string): void {
  t.expect(statusClass(res.status), `${what}: a genuine delivery must be accepted with 2xx; answered ${answered(res)}`).toBe('2xx');
}

/** The receiver refused the delivery: anything but 2xx. */
export function expectRejected(t: ReceiverContext, res: DeliveryResult, what: string): void {
  t.expect(statusClass(res.status), `${what}: a forged delivery must not be accepted; answered ${answered(res)}`).not.toBe('2xx');
}

/** For INFO requirements: what the receiver answered, recorded. */
export function observeAnswer(t: ReceiverContext, label: string, res: DeliveryResult): void {
  t.observe(label, res.status === null ? 'no answer' : res.status);
}
