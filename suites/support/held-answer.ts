/**
 * An inbox that holds its answer, to see whether the target gives up waiting: the
 * capture server marks a delivery whose sender closed the connection before the
 * answer (closedBeforeAnswerAt). The spec gives no delivery timeout, so the hold is
 * bounded: a few seconds, or a little longer than the timeout the target advertises
 * (GET /fixtures `deliveryTimeoutMs`, docs/control-protocol-extensions.md).
 */
import type { Delivery, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { fixtures } from './fixtures.js';

/** The longest an inbox holds its answer. */
export const MAX_HOLD_MS = 6_000;
/** How much longer than the advertised delivery timeout the inbox holds its answer. */
const HOLD_MARGIN_MS = 1_000;
/** How often the capture server is asked whether the sender went away. */
const POLL_MS = 100;

/**
 * How long to hold: the advertised timeout plus a margin, or MAX_HOLD_MS when none is
 * advertised; null when the advertised timeout and its margin do not fit in MAX_HOLD_MS
 * (a hold cut to the timeout itself would race the target's own timer).
 */
export function holdFor(t: SuiteContext): { holdMs: number | null; advertisedMs: number | null } {
  const advertisedMs = fixtures(t).deliveryTimeoutMs ?? null;
  if (advertisedMs === null) return { holdMs: MAX_HOLD_MS, advertisedMs };
  return { holdMs: advertisedMs + HOLD_MARGIN_MS <= MAX_HOLD_MS ? advertisedMs + HOLD_MARGIN_MS : null, advertisedMs };
}

/**
 * Waits until the sender of `delivery` closed the connection while the inbox held its
 * answer (the delivery as then recorded), or until the hold is over plus a margin (null).
 */
export async function senderGaveUp(inbox: Inbox, delivery: Delivery, holdMs: number): Promise<Delivery | null> {
  // Counted in responsive time, as the hold is: a stall of this process (a loaded machine) does not end the wait early.
  let waited = Math.max(0, Date.now() - delivery.receivedAt);
  const limit = holdMs + POLL_MS * 5;
  for (;;) {
    const now = (await inbox.deliveries()).find((d) => d.seq === delivery.seq);
    if (now?.closedBeforeAnswerAt !== undefined) return now;
    if (waited >= limit) return null;
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    waited += Math.min(Date.now() - before, 2 * POLL_MS);
  }
}
