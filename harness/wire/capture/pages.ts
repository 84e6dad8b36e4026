/**
 * Deliveries listings in pages: a page holds at most `limit` deliveries and
 * about PAGE_BYTES of bodies (always at least one delivery), so no listing
 * builds an answer the size of the whole store. `more` says another page follows
 * (ask again with after=lastSeq).
 */
import type { DeliveryJson, StoredDelivery } from './protocol.js';

/** Body bytes in one page (before base64); a single larger delivery still goes out alone. */
export const PAGE_BYTES = 8 * 1024 * 1024;
/** Deliveries in one page unless the caller asks for fewer. */
export const PAGE_LIMIT = 1000;

export interface DeliveryPage {
  deliveries: DeliveryJson[];
  /** The seq to pass as `after` for the next page (the last one listed, or the newest kept when complete). */
  lastSeq: number;
  more: boolean;
}

function toJson(d: StoredDelivery): DeliveryJson {
  return { ...d, rawBody: d.rawBody.toString('base64') };
}

/** The first index with seq > after (the list is in seq order). */
function firstAfter(list: readonly StoredDelivery[], after: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.seq > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function pageOf(list: readonly StoredDelivery[], after: number, limit: number): DeliveryPage {
  const out: DeliveryJson[] = [];
  let bytes = 0;
  let i = firstAfter(list, after);
  for (; i < list.length && out.length < limit; i++) {
    const d = list[i]!;
    if (out.length > 0 && bytes + d.rawBody.length > PAGE_BYTES) break;
    bytes += d.rawBody.length;
    out.push(toJson(d));
  }
  const more = i < list.length;
  const lastSeq = more ? out.at(-1)!.seq : (list.at(-1)?.seq ?? after);
  return { deliveries: out, lastSeq: Math.max(lastSeq, after), more };
}

/** How many deliveries after `after` are listed (for long polls: min counts them all, not one page). */
export function countAfter(list: readonly StoredDelivery[], after: number): number {
  return list.length - firstAfter(list, after);
}
