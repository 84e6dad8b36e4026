/**
 * What the mock sent where: one record per delivery attempt (the POST to a
 * receiver and its outcome), kept in a bounded in-memory ring and written as one
 * log line through the mock's logger. Shown on GET /deliveries (mock/pages/deliveries.ts).
 *
 * A record never holds a secret: no header value (the custom header's token and
 * X-Signature are the application's), no body, and of the receiver's URL only
 * its origin and path (a query string may carry the application's parameters).
 */

/** How many attempts the ring keeps; the oldest go first. */
export const DELIVERY_LOG_CAPACITY = 500;

/** What the deliverer knows when an attempt's outcome is known. */
export interface DeliveryOutcome {
  /** Where this attempt was sent (after a followed redirect, under a fault, the new address). */
  url: string;
  /** The exact bytes and headers of the delivery. */
  prepared: { body: string; headers: Record<string, string> };
  /** The receiver's status; null when no answer came (refused, timed out, aborted). */
  status: number | null;
  /** An error code when no answer came (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …). */
  error?: string | undefined;
  /** When the attempt started, on the mock's clock (epoch ms). */
  startedAtMs: number;
  /** How long the attempt took, in real milliseconds. */
  durationMs: number;
}

export interface DeliveryRecord {
  /** 1, 2, 3 … in the order outcomes were known; survives the ring's turnover. */
  seq: number;
  startedAtMs: number;
  durationMs: number;
  /** Origin and path of the receiver; a query string is shown as "?…". */
  url: string;
  status: number | null;
  error: string | null;
  /** "ok" for a 2xx, "refused" for any other status, "no answer" when none came. */
  outcome: 'ok' | 'refused' | 'no answer';
  eventType: string | null;
  event: string | null;
  /** LockID of the payload (a bridge event's array joined with ", "). */
  lockId: string | null;
  bytes: number;
  contentType: string | null;
  signed: boolean;
  /** The name of the application's custom header, when one was sent (never its value). */
  customHeader: string | null;
}

const OWN_HEADERS = new Set(['content-type', 'x-signature']);

/** The receiver's URL without anything that may be secret: origin and path, the query elided. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return '(invalid url)';
  }
}

function field(payload: unknown, name: string): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const value = (payload as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return null;
}

export class DeliveryLog {
  readonly #capacity: number;
  readonly #log: (line: string) => void;
  #ring: DeliveryRecord[] = [];
  #seq = 0;

  constructor(opts: { log?: (line: string) => void; capacity?: number } = {}) {
    this.#log = opts.log ?? (() => {});
    this.#capacity = Math.max(1, opts.capacity ?? DELIVERY_LOG_CAPACITY);
  }

  /** Records one attempt and logs it. Never throws: a broken record must not break a delivery. */
  record(outcome: DeliveryOutcome): DeliveryRecord | null {
    try {
      let payload: unknown = null;
      try {
        payload = JSON.parse(outcome.prepared.body);
      } catch {
        // Not JSON (a fault may send something else): the event columns stay empty.
      }
      const headerNames = Object.keys(outcome.prepared.headers).map((h) => h.toLowerCase());
      const status = outcome.status;
      const record: DeliveryRecord = {
        seq: ++this.#seq,
        startedAtMs: outcome.startedAtMs,
        durationMs: Math.max(0, Math.round(outcome.durationMs)),
        url: displayUrl(outcome.url),
        status,
        error: outcome.error ?? null,
        outcome: status === null ? 'no answer' : status >= 200 && status < 300 ? 'ok' : 'refused',
        eventType: field(payload, 'EventType'),
        event: field(payload, 'Event'),
        lockId: field(payload, 'LockID'),
        bytes: Buffer.byteLength(outcome.prepared.body),
        contentType: outcome.prepared.headers['content-type'] ?? null,
        signed: headerNames.includes('x-signature'),
        customHeader: headerNames.find((h) => !OWN_HEADERS.has(h)) ?? null,
      };
      this.#ring.push(record);
      if (this.#ring.length > this.#capacity) this.#ring.splice(0, this.#ring.length - this.#capacity);
      this.#log(describe(record));
      return record;
    } catch {
      return null;
    }
  }

  /** The attempts kept, newest first. */
  records(): DeliveryRecord[] {
    return [...this.#ring].reverse();
  }

  /** How many attempts were recorded since start (including those the ring dropped). */
  total(): number {
    return this.#seq;
  }

  clear(): void {
    this.#ring = [];
  }
}

/** The log line of one attempt: what, where, outcome, time. */
export function describe(record: DeliveryRecord): string {
  const what = [record.eventType, record.event].filter(Boolean).join('/') || 'delivery';
  const result = record.status === null ? `no answer (${record.error ?? 'error'})` : `${record.status}`;
  return `webhook #${record.seq} ${what} → ${record.url}: ${result} in ${record.durationMs} ms`;
}
