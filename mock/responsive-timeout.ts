/**
 * A timeout that counts only responsive time: the time in which this process could have
 * noticed what it waits for. On a machine that keeps up it is a plain timeout; on a
 * loaded one a stall of the whole process counts at most two ticks, so the timer does not
 * fire, in the timers phase right after the stall, before the answer waiting in a socket
 * is read. The mock's delivery timeout (webhooks/post-once.ts) and the capture server's
 * answer delays use it, so a stall neither loses an answered delivery nor reorders a
 * hold and the timeout it is held against.
 */
import { performance } from 'node:perf_hooks';

/** How often the timeout looks at the clock. */
const TIMEOUT_TICK_MS = 100;

/** Calls onExpire once `ms` of responsive time have passed (each tick counts at most two ticks' worth); returns the cancel. */
export function responsiveTimeout(ms: number, onExpire: () => void): () => void {
  let counted = 0;
  let last = performance.now();
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = performance.now();
    counted += Math.min(now - last, 2 * TIMEOUT_TICK_MS);
    last = now;
    if (counted >= ms) onExpire();
    else timer = setTimeout(tick, Math.min(TIMEOUT_TICK_MS, ms - counted));
  };
  timer = setTimeout(tick, Math.min(TIMEOUT_TICK_MS, ms));
  return () => clearTimeout(timer);
}
