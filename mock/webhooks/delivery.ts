/**
 * Webhook delivery (spec: Delivery, Signature): one POST per event per matching
 * registration; the body is JSON.stringify(payload) and exactly those bytes are
 * signed and sent. Never follows a redirect, never retries, gives up after
 * deliveryTimeoutMs. Fire and forget: a slow receiver never slows the API, and the
 * caller learns only how many deliveries were attempted.
 */
import { Agent, request } from 'undici';
import type { MockContext } from '../context.js';
import type { Registration } from './registry.js';
import { hmacSha256, signatureHeader } from './signature.js';

/** signature-stale-timestamp: the timestamp lags the clock by this much. */
const STALE_BY_MS = 10 * 60 * 1000;
/** retry-on-error: how many extra attempts after a non-2xx answer. */
const FAULTY_RETRIES = 2;
/** retry-unanswered: the pause before the one extra attempt after no answer. */
const UNANSWERED_RETRY_AFTER_MS = 300;
/** system-events-unsigned: the rows whose examples in the spec omit X-Signature. */
const UNSIGNED_IN_EXAMPLES = new Set(['lock_battery_alert', 'lock_log_timestamp_drifted']);

export interface DeliveryAttempt {
  url: string;
  status: number | null;
  error?: string;
}

/** What one delivery sends: the exact bytes and headers. */
export interface PreparedDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export class WebhookDeliverer {
  readonly #ctx: MockContext;
  readonly #agent: Agent;
  readonly #closing = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #attempts: DeliveryAttempt[] = [];

  constructor(ctx: MockContext) {
    this.#ctx = ctx;
    // A dispatcher of our own, so close() can drop every socket it opened.
    this.#agent = new Agent({ connections: 16, keepAliveTimeout: 1_000 });
  }

  /** The bytes and headers of one delivery, with the delivery and signature faults applied. */
  prepare(registration: Registration, payload: unknown): PreparedDelivery {
    const ctx = this.#ctx;
    const body = JSON.stringify(payload);
    const toUser = registration.lockId === null;
    const headers: Record<string, string> = {
      'content-type': ctx.faults.has('wrong-content-type') || (toUser && ctx.faults.has('user-deliveries-text-plain')) ? 'text/plain' : 'application/json',
    };
    const event = (payload as { Event?: unknown } | null)?.Event;
    const unsigned = ctx.faults.has('system-events-unsigned') && typeof event === 'string' && UNSIGNED_IN_EXAMPLES.has(event);
    if (!ctx.faults.has('signature-missing') && !unsigned) {
      headers['x-signature'] = this.#sign(body, payload);
    }
    if (!ctx.faults.has('no-custom-header')) {
      headers[registration.header.toLowerCase()] = registration.token;
    }
    return { url: registration.url, body, headers };
  }

  #sign(body: string, payload: unknown): string {
    const { faults, clock, credentials, options } = this.#ctx;
    const ms = faults.has('signature-stale-timestamp') ? clock.now() - STALE_BY_MS : clock.now();
    // The signatureTimestampSeconds variant: t in epoch seconds.
    const t = String(options.signatureTimestampSeconds ? Math.floor(ms / 1000) : ms);
    const key = faults.has('signature-wrong-key') ? credentials.clientSecret : credentials.apiKey;
    let signed: string;
    if (faults.has('signature-body-only')) signed = body;
    else if (faults.has('signature-other-bytes')) signed = `${t}.${JSON.stringify(payload, null, 2)}`;
    else signed = `${t}.${body}`;
    const v = hmacSha256(key, signed, options.signatureEncoding);
    return signatureHeader({ t, v, separator: faults.has('signature-semicolons') ? ';' : ',' });
  }

  /** Starts delivering in the background; returns at once. */
  deliver(registration: Registration, payload: unknown): void {
    const prepared = this.prepare(registration, payload);
    const copies = this.#ctx.faults.has('duplicate-delivery') ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      const job = this.#send(prepared).finally(() => this.#inFlight.delete(job));
      this.#inFlight.add(job);
    }
  }

  async #send(prepared: PreparedDelivery): Promise<void> {
    const { faults } = this.#ctx;
    let url = prepared.url;
    let followed = false;
    for (let attempt = 0; ; attempt++) {
      const startedAtMs = this.#ctx.clock.now();
      const started = performance.now();
      const result = await this.#post(url, prepared);
      this.#record({ url, status: result.status, ...(result.error ? { error: result.error } : {}) });
      this.#ctx.deliveryLog?.record({ url, prepared, status: result.status, error: result.error, startedAtMs, durationMs: performance.now() - started });
      if (faults.has('follow-redirects') && !followed && result.location && result.status !== null && result.status >= 300 && result.status < 400) {
        followed = true;
        url = result.location;
        continue;
      }
      const failed = result.status === null || result.status < 200 || result.status >= 300;
      if (faults.has('retry-on-error') && failed && attempt < FAULTY_RETRIES) continue;
      if (faults.has('retry-unanswered') && result.status === null && attempt === 0) {
        await new Promise((resolveWait) => setTimeout(resolveWait, UNANSWERED_RETRY_AFTER_MS));
        continue;
      }
      return;
    }
  }

  async #post(url: string, prepared: PreparedDelivery): Promise<{ status: number | null; location?: string; error?: string }> {
    const timeoutMs = this.#ctx.options.deliveryTimeoutMs;
    try {
      const response = await request(url, {
        method: 'POST',
        headers: prepared.headers,
        body: prepared.body,
        dispatcher: this.#agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.any([this.#closing.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body.dump();
      const location = response.headers.location;
      const out: { status: number; location?: string } = { status: response.statusCode };
      if (typeof location === 'string') {
        try {
          out.location = new URL(location, url).href;
        } catch {
          // An unusable Location is simply not followed.
        }
      }
      return out;
    } catch (err) {
      const code = (err as { code?: string; name?: string }).code ?? (err as Error).name ?? 'error';
      // Only the receiver's origin and an error code: URLs and headers may carry the application's secrets.
      this.#ctx.log(`webhook delivery to ${safeOrigin(url)} failed: ${code}`);
      return { status: null, error: code };
    }
  }

  #record(attempt: DeliveryAttempt): void {
    this.#attempts.push(attempt);
    if (this.#attempts.length > 1000) this.#attempts = this.#attempts.slice(-500);
  }

  /** The most recent POSTs made (status null: no answer), oldest first. */
  attempts(): DeliveryAttempt[] {
    return [...this.#attempts];
  }

  /** Resolves when every delivery started so far has finished (tests). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Abandons deliveries in flight and closes the sockets. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.idle();
    await this.#agent.close();
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}
