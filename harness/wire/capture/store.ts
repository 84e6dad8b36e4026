/**
 * What the capture server keeps: inboxes and the deliveries they received, in
 * memory, within fixed bounds. When a bound is reached the server refuses new
 * input with a clear 4xx (CaptureFull) instead of dropping anything it already
 * holds; deliveries to unknown inboxes (a debugging aid, not test evidence) are
 * kept in a small ring of their own so they can never fill the store.
 */
import { randomBytes } from 'node:crypto';
import type { InboxResponse } from '../../contracts.js';
import { MAX_DELIVERIES, MAX_DELIVERY_BYTES, MAX_INBOXES, type StoredDelivery } from './protocol.js';

/** Deliveries to unknown inboxes kept (the oldest go first). */
export const MAX_STRAY_DELIVERIES = 1000;

export interface InboxState {
  id: string;
  response: InboxResponse;
  deliveries: StoredDelivery[];
}

/** The store is full: the request is refused (429), nothing kept is dropped. */
export class CaptureFull extends Error {
  readonly statusCode = 429;
  readonly errorCode = 'capture_full';
}

function slug(label: string | undefined): string {
  const s = (label ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const id = randomBytes(6).toString('hex');
  return s ? `${s}-${id}` : id;
}

export class CaptureStore {
  readonly inboxes = new Map<string, InboxState>();
  /** Every delivery kept, oldest first (unknown inboxes included). */
  #all: StoredDelivery[] = [];
  #kept = 0;
  #bytes = 0;
  #stray = 0;
  readonly #strays = new WeakSet<StoredDelivery>();
  private seq = 0;
  private readonly waiters = new Set<{ check: () => void; done: () => void }>();
  private closed = false;

  /** Set once the server listens (the address is known only then). */
  publicBaseUrl = '';

  constructor(private readonly limits = { deliveries: MAX_DELIVERIES, bytes: MAX_DELIVERY_BYTES, inboxes: MAX_INBOXES }) {}

  get all(): readonly StoredDelivery[] {
    return this.#all;
  }

  /** Bytes of delivery bodies kept for known inboxes. */
  get bytes(): number {
    return this.#bytes;
  }

  createInbox(label: string | undefined, response: InboxResponse | undefined): { id: string; url: string } {
    if (this.inboxes.size >= this.limits.inboxes) {
      throw new CaptureFull(`the capture server holds ${this.inboxes.size} inboxes (limit ${this.limits.inboxes}); delete some first`);
    }
    const id = slug(label);
    this.inboxes.set(id, { id, response: response ?? {}, deliveries: [] });
    return { id, url: this.urlOf(id) };
  }

  /** Removes an inbox and frees what it held. */
  deleteInbox(id: string): void {
    const inbox = this.inboxes.get(id);
    if (!inbox) return;
    this.inboxes.delete(id);
    if (inbox.deliveries.length === 0) return;
    const gone = new Set(inbox.deliveries);
    this.#all = this.#all.filter((d) => !gone.has(d));
    for (const d of inbox.deliveries) this.#bytes -= d.rawBody.length;
    this.#kept -= inbox.deliveries.length;
  }

  urlOf(id: string): string {
    return `${this.publicBaseUrl}/inbox/${id}`;
  }

  /** Throws CaptureFull when a delivery of this size would not fit (the sender gets a 429). */
  assertRoom(bodyBytes: number): void {
    if (this.#kept >= this.limits.deliveries) {
      throw new CaptureFull(`the capture server holds ${this.#kept} deliveries (limit ${this.limits.deliveries}); nothing more is stored`);
    }
    if (this.#bytes + bodyBytes > this.limits.bytes) {
      throw new CaptureFull(`the capture server holds ${this.#bytes} bytes of deliveries (limit ${this.limits.bytes}); nothing more is stored`);
    }
  }

  record(d: Omit<StoredDelivery, 'seq'>): StoredDelivery {
    const stored = { seq: ++this.seq, ...d };
    const inbox = this.inboxes.get(stored.inbox);
    if (inbox) {
      this.assertRoom(stored.rawBody.length);
      inbox.deliveries.push(stored);
      this.#kept += 1;
      this.#bytes += stored.rawBody.length;
    } else {
      this.#stray += 1;
      this.#strays.add(stored);
      // Only stray deliveries are ever dropped, and only the oldest of them.
      if (this.#stray > MAX_STRAY_DELIVERIES) this.#dropOldestStray();
    }
    this.#all.push(stored);
    for (const w of [...this.waiters]) w.check();
    return stored;
  }

  #dropOldestStray(): void {
    const at = this.#all.findIndex((d) => this.#strays.has(d));
    if (at >= 0) {
      this.#all.splice(at, 1);
      this.#stray -= 1;
    }
  }

  /** The sender closed the connection before the inbox answered this delivery (it held its answer). */
  markClosedBeforeAnswer(d: StoredDelivery, at: number): void {
    if (d.closedBeforeAnswerAt !== undefined) return;
    d.closedBeforeAnswerAt = at;
    for (const w of [...this.waiters]) w.check();
  }

  /** Resolves when `ready()` holds or after timeoutMs; released early by releaseAll(). */
  waitUntil(ready: () => boolean, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (ready() || timeoutMs <= 0 || this.closed || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        done: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          signal.removeEventListener('abort', waiter.done);
          resolve();
        },
        check: () => {
          if (ready()) waiter.done();
        },
      };
      const timer = setTimeout(waiter.done, timeoutMs);
      this.waiters.add(waiter);
      signal.addEventListener('abort', waiter.done);
    });
  }

  /** The server is closing: answer every long poll now, and any later one at once. */
  releaseAll(): void {
    this.closed = true;
    for (const w of [...this.waiters]) w.done();
  }
}
