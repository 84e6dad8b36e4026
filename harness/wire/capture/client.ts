/**
 * CaptureClient: how a test worker reaches the capture server (server.ts) over its
 * token-protected control API: new inboxes, their answers, and long-poll waits for
 * deliveries, each decoded back to its exact bytes.
 */
import { request as undiciRequest } from 'undici';
import { installDispatcher } from '../dispatcher.js';
import type { CaptureClientLike, CaptureDoors, Delivery, Inbox, InboxResponse } from '../../contracts.js';
import { LockconfError } from '../../run/errors.js';
import { ANSWER_BODY_LIMIT, readBoundedText } from '../bounded-body.js';
import { describeNetworkError } from '../network-words.js';
import { MAX_DELIVERIES, MAX_WAIT_MS, type CaptureConnection, type DeliveryJson } from './protocol.js';

installDispatcher();

const DEFAULT_WAIT_MS = 10_000;
/** A page of deliveries holds about PAGE_BYTES of bodies (pages.ts), in base64 and JSON: room for it, and a bound still. */
const CAPTURE_ANSWER_LIMIT = 4 * ANSWER_BODY_LIMIT;

/** One page of a deliveries listing (`more`: ask again with after=lastSeq; absent from older servers). */
interface DeliveryPageJson {
  deliveries: DeliveryJson[];
  lastSeq: number;
  more?: boolean;
}
/** One long poll at most this long, so a lost connection is noticed. */
const POLL_SLICE_MS = 15_000;

function toDelivery(d: DeliveryJson): Delivery {
  const rawBody = Buffer.from(d.rawBody, 'base64');
  const bodyText = rawBody.toString('utf8');
  let json: unknown;
  try {
    json = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  return { ...d, rawBody, bodyText, json };
}

/** A delivery whose body was too large to read is evidence of its own: the test that waits for it fails saying so. */
function refuseTooLarge(list: Delivery[], inbox: string): Delivery[] {
  const huge = list.find((d) => d.bodyTooLarge);
  if (!huge) return list;
  const mib = huge.bodyTooLarge!.limitBytes / (1024 * 1024);
  throw new LockconfError(
    'ERR_ANSWER_TOO_LARGE',
    `the target's webhook delivery (${huge.method} to inbox ${inbox}) had a body larger than ${mib} MiB, not read: the capture server answered 413 and kept its first ${huge.rawBody.length} bytes`,
  );
}

/** The longest inbox label the capture server takes (schemas.ts). */
const LABEL_MAX = 200;

export class CaptureClient implements CaptureClientLike {
  private readonly label: string | undefined;

  constructor(
    private readonly conn: CaptureConnection,
    opts: { label?: string } = {},
  ) {
    this.label = opts.label;
  }

  async newInbox(opts: { label?: string; response?: InboxResponse } = {}): Promise<Inbox> {
    // The test's name, then the inbox's own label: a label only names the inbox in reports, cut to the capture server's 200 characters.
    const label = [this.label, opts.label].filter(Boolean).join(' ').slice(0, LABEL_MAX) || undefined;
    const created = (await this.call('POST', '/inboxes', { ...(label ? { label } : {}), ...(opts.response ? { response: opts.response } : {}) })) as {
      id: string;
      url: string;
    };
    return new CaptureInbox(created.id, created.url, this, this.conn.doors);
  }

  /** Every delivery the server kept after `after` (debugging: includes unknown inboxes), page by page. */
  async allDeliveries(after = 0): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (let from = after; ;) {
      const r = (await this.call('GET', `/deliveries?after=${from}`)) as DeliveryPageJson;
      out.push(...r.deliveries.map(toDelivery));
      if (!r.more || r.deliveries.length === 0) return out;
      from = r.lastSeq;
    }
  }

  /** @internal */
  async call(method: string, path: string, json?: unknown, timeoutMs = 10_000, signal?: AbortSignal): Promise<unknown> {
    let res;
    try {
      res = await undiciRequest(this.conn.controlUrl + path, {
        method: method as 'GET',
        headers: { 'x-capture-token': this.conn.token, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: json !== undefined ? JSON.stringify(json) : null,
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new LockconfError('ERR_CAPTURE', `capture server ${method} ${path.split('?')[0]} failed: ${describeNetworkError(err, { timeoutMs })}`, { cause: err });
    }
    const text = await readBoundedText(res.body, `capture server ${method} ${path.split('?')[0]}`, { headers: res.headers, code: 'ERR_CAPTURE', limit: CAPTURE_ANSWER_LIMIT });
    if (res.statusCode >= 400) {
      let code = '';
      try {
        const body = JSON.parse(text) as { error?: string; message?: string };
        code = ` (${body.error ?? ''}${body.message ? `: ${body.message}` : ''})`;
      } catch {
        // not JSON
      }
      throw new LockconfError('ERR_CAPTURE', `capture server ${method} ${path.split('?')[0]} answered ${res.statusCode}${code}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  }
}

class CaptureInbox implements Inbox {
  /**
   * Highest seq already handed to the caller (collectFor returns what came after). A high-water mark, so on an
   * inbox several registrations share, "what came after" depends on the order their deliveries arrived in: such
   * tests count every delivery (deliveries()) per registration, by the header and token each named.
   */
  private seen = 0;

  constructor(
    readonly id: string,
    readonly url: string,
    private readonly client: CaptureClient,
    private readonly doors: CaptureDoors | undefined,
  ) {}

  doorUrl(door: keyof CaptureDoors): { url: string } | { missing: string } {
    const d = this.doors?.[door];
    if (!d) return { missing: 'the capture server opened no other door for this run' };
    return 'base' in d ? { url: `${d.base}/inbox/${this.id}` } : d;
  }

  async setResponse(response: InboxResponse): Promise<void> {
    await this.client.call('PUT', `/inboxes/${this.id}/response`, response);
  }

  /** A long poll, then the further pages of the answer (the server lists one page at a time). */
  private async poll(after: number, min: number, timeoutMs: number, signal?: AbortSignal): Promise<Delivery[]> {
    const wait = Math.max(0, Math.round(timeoutMs));
    const out: Delivery[] = [];
    for (let from = after, first = true; ; first = false) {
      const query = first ? `after=${from}&min=${min}&timeoutMs=${wait}` : `after=${from}`;
      const r = (await this.client.call('GET', `/inboxes/${this.id}/deliveries?${query}`, undefined, (first ? wait : 0) + 10_000, signal)) as DeliveryPageJson;
      out.push(...r.deliveries.map(toDelivery));
      if (!r.more || r.deliveries.length === 0) return refuseTooLarge(out, this.id);
      from = r.lastSeq;
    }
  }

  private markSeen(list: Delivery[]): void {
    for (const d of list) this.seen = Math.max(this.seen, d.seq);
  }

  async deliveries(): Promise<Delivery[]> {
    const list = await this.poll(0, 0, 0);
    this.markSeen(list);
    return list;
  }

  async waitFor(n: number, opts: { predicate?: (d: Delivery) => boolean; timeoutMs?: number; signal?: AbortSignal; what?: string } = {}): Promise<Delivery[]> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_MS;
    const predicate = opts.predicate ?? (() => true);
    const deadline = Date.now() + timeoutMs;
    let all: Delivery[] = [];
    for (;;) {
      opts.signal?.throwIfAborted(); // an ended wait hands nothing out (nothing is marked seen)
      const matching = all.filter(predicate);
      if (matching.length >= n) {
        const result = matching.slice(0, n);
        this.markSeen(result);
        return result;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new LockconfError(
          'ERR_DELIVERY_TIMEOUT',
          `inbox ${this.id}: waited ${timeoutMs} ms for ${n} deliver${n === 1 ? 'y' : 'ies'}${opts.predicate ? ' matching the condition' : ''}; ` +
            `${matching.length} arrived${opts.predicate ? ` (${all.length} in all)` : ''}`,
        );
      }
      // Without a predicate the server can count for us; with one, wake on every new arrival.
      const min = opts.predicate ? all.length + 1 : n;
      all = await this.poll(0, min, Math.min(remaining, POLL_SLICE_MS), opts.signal);
    }
  }

  /**
   * Waits the window, then returns the deliveries not yet handed out by this
   * inbox (by waitFor, deliveries or an earlier collectFor). After waitFor(1)
   * that is "anything more"; on a fresh inbox it is everything that arrived.
   */
  async collectFor(windowMs: number): Promise<Delivery[]> {
    const from = this.seen;
    // A long poll that cannot be satisfied doubles as a server-side timer.
    const list = await this.poll(from, MAX_DELIVERIES, windowMs);
    this.markSeen(list);
    return list;
  }
}
