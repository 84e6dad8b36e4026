/**
 * Webhook delivery (spec: Delivery, Signature): one POST per event per matching
 * registration; the body is JSON.stringify(payload) and exactly those bytes are
 * signed and sent. Never follows a redirect, never retries (at most once), gives
 * up after deliveryTimeoutMs. Fire and forget: a slow receiver never slows the
 * API, and the caller learns only how many deliveries were attempted.
 *
 * Each destination (origin and path) has its own lane (lanes.ts): a stuck
 * receiver delays only its own deliveries, and a bounded queue drops (with a log
 * line) what it cannot hold. Every attempt ends in #settle, the one place where
 * its outcome (status, duration, error kind) is known.
 */
import { setMaxListeners } from 'node:events';
import type { MockContext } from '../context.js';
import { DeliveryLanes, type Refusal } from './lanes.js';
import { describeOutcome, postOnce, type AttemptErrorKind, type AttemptOutcome } from './post-once.js';
import type { Registration } from './registry.js';
import { SIGNATURE_LAYOUTS, hmacSha256, signatureHeader } from './signature.js';
import { eventRow } from '../events/rows.js';
import { charClasses, mangle } from './chars.js';
import { mangleUrl } from './url-parts.js';
import { receiverAnswerSlice } from './receiver-answers.js';
import { lockSlot, roleOn } from '../world.js';
import type { SliceBreakId } from '../slice-faults.js';

/** signature-stale-timestamp: the timestamp lags the clock by this much. */
const STALE_BY_MS = 10 * 60 * 1000;
/** retry-on-error: how many extra attempts after a non-2xx answer. */
const FAULTY_RETRIES = 2;
/** retry-unanswered, retry-after-timeout: the pause before the one extra attempt after no answer. */
const UNANSWERED_RETRY_AFTER_MS = 300;
/** system-events-unsigned: the rows whose examples in the spec omit X-Signature. */
const UNSIGNED_IN_EXAMPLES = new Set(['lock_battery_alert', 'lock_log_timestamp_drifted']);

export interface DeliveryAttempt {
  url: string;
  status: number | null;
  /** The error kind when there was no answer (timeout, refused, reset, dropped…). */
  error?: AttemptErrorKind;
  durationMs?: number;
}

/** Most attempts remembered for attempts(). */
const ATTEMPTS_KEPT = 1000;

/** Where a lock registration sits, as the slice faults of dimensions `lock` and `role` name it. */
export type RegistrationPlace = { lock: 'first' | 'second' | null; role: 'owner' | 'guest' | null };

/** What one delivery sends: the exact bytes and headers. */
export interface PreparedDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Where its registration sits (slice faults only; null for a user registration or while none is on). */
  where: RegistrationPlace | null;
}

export class WebhookDeliverer {
  readonly #ctx: MockContext;
  /** The signatureLayouts variant: the layout of the next delivery's X-Signature. */
  #layout = 0;
  readonly #lanes = new DeliveryLanes();
  readonly #closing = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #attempts: DeliveryAttempt[] = [];

  constructor(ctx: MockContext) {
    this.#ctx = ctx;
    // Every attempt in flight listens for the close.
    setMaxListeners(0, this.#closing.signal);
  }

  /** The bytes and headers of one delivery, with the delivery and signature faults applied (slice faults: per event row). */
  prepare(registration: Registration, payload: unknown): PreparedDelivery {
    const ctx = this.#ctx;
    const body = JSON.stringify(payload);
    const toUser = registration.lockId === null;
    const row = eventRow(toUser, payload);
    const where = this.#where(registration);
    // A delivery or signature rule broken on that event row, or for registrations on that lock of the set or made by a user of that role.
    const broken = (id: SliceBreakId) => ctx.faults.breaks(id, { row, ...where });
    const headers: Record<string, string> = {
      'content-type': ctx.faults.has('wrong-content-type') || (toUser && ctx.faults.has('user-deliveries-text-plain')) || broken('DELIVERY-CONTENT-TYPE') ? 'text/plain' : 'application/json',
    };
    const event = (payload as { Event?: unknown } | null)?.Event;
    const unsigned = ctx.faults.has('system-events-unsigned') && typeof event === 'string' && UNSIGNED_IN_EXAMPLES.has(event);
    if (!ctx.faults.has('signature-missing') && !unsigned && !broken('DELIVERY-SIGNATURE-PRESENT')) {
      headers['x-signature'] = this.#sign(body, payload, broken);
    }
    if (!ctx.faults.has('no-custom-header') && registration.header !== null) {
      const token = registration.token ?? '';
      const classes = charClasses(token);
      const cut = broken('DELIVERY-CUSTOM-HEADER') ? token.slice(0, -1) : token;
      const value = mangle(cut, classes, (cls) => ctx.faults.breaks('DELIVERY-CUSTOM-HEADER', { chars: cls }));
      if (value !== null) headers[registration.header.toLowerCase()] = value;
    }
    // Slice faults: a url of that component class delivered to mangled (url-parts.ts); a lock registration on that lock of
    // its set (first, second), or made by a user of that role, loses its url's query (two dimensions at once: lock × url).
    const requirement = toUser ? 'WEBHOOK-USER-REGISTER' : 'WEBHOOK-LOCK-REGISTER';
    const url = mangleUrl(registration.url, (part) => ctx.faults.breaks(requirement, { 'url-part': part }) || (part === 'query' && where !== null && ctx.faults.breaks(requirement, where)));
    return { url, body, headers, where };
  }

  /**
   * Where a lock registration sits, as the slice faults of dimensions `lock` and `role` name it (mock/world.ts lockSlot,
   * roleOn): the lock's place in its fixture set and the registering user's role on it. Null for a user registration,
   * and while no slice fault is on.
   */
  #where(registration: Registration): RegistrationPlace | null {
    const { faults, world } = this.#ctx;
    if (registration.lockId === null || !faults.anySlice()) return null;
    const lock = world.locks.find((l) => l.lockId === registration.lockId);
    return lock ? { lock: lockSlot(world, lock.lockId), role: roleOn(lock, registration.userId) } : null;
  }

  #sign(body: string, payload: unknown, broken: (id: SliceBreakId) => boolean): string {
    const { faults, clock, credentials, options } = this.#ctx;
    const ms = faults.has('signature-stale-timestamp') || broken('SIGNATURE-TIMESTAMP-CURRENT') ? clock.now() - STALE_BY_MS : clock.now();
    // The signatureTimestampSeconds variant: t in epoch seconds.
    const t = String(options.signatureTimestampSeconds ? Math.floor(ms / 1000) : ms);
    const key = faults.has('signature-wrong-key') || broken('SIGNATURE-VALID') ? credentials.clientSecret : credentials.apiKey;
    let signed: string;
    if (faults.has('signature-body-only')) signed = body;
    else if (faults.has('signature-other-bytes')) signed = `${t}.${JSON.stringify(payload, null, 2)}`;
    else signed = `${t}.${body}`;
    const v = hmacSha256(key, signed, options.signatureEncoding);
    const semicolons = faults.has('signature-semicolons') || broken('SIGNATURE-FORMAT');
    if (options.signatureLayouts && !semicolons) return SIGNATURE_LAYOUTS[this.#layout++ % SIGNATURE_LAYOUTS.length]!.header(t, v);
    return signatureHeader({ t, v, separator: semicolons ? ';' : ',' });
  }

  /** Starts delivering in the background; returns at once. */
  deliver(registration: Registration, payload: unknown): void {
    if (this.#ctx.options.deliveries === false) return; // a silent target (MockOptions.deliveries)
    const prepared = this.prepare(registration, payload);
    const twice = this.#ctx.faults.has('duplicate-delivery') || this.#ctx.faults.breaks('DELIVERY-ONE-POST', { row: eventRow(registration.lockId === null, payload), ...prepared.where });
    const copies = twice ? 2 : 1;
    // The jitter variant: each delivery waits its own random time, so one event's deliveries fan out in a random order.
    const delayMs = this.#ctx.jitter?.deliveryDelayMs() ?? 0;
    for (let i = 0; i < copies; i++) {
      if (delayMs > 0) this.#later(delayMs, () => this.#schedule(prepared.url, prepared, 0, false));
      else this.#schedule(prepared.url, prepared, 0, false);
    }
  }

  /** Runs `start` after `ms` (counted in flight meanwhile, so idle() waits for it); never once the deliverer closes. */
  #later(ms: number, start: () => void): void {
    let done!: () => void;
    const wait = new Promise<void>((resolve) => (done = resolve)).finally(() => this.#inFlight.delete(wait));
    this.#inFlight.add(wait);
    const onClosing = () => {
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      this.#closing.signal.removeEventListener('abort', onClosing);
      if (!this.#closing.signal.aborted) start();
      done();
    }, ms);
    this.#closing.signal.addEventListener('abort', onClosing, { once: true });
  }

  /** Queues one attempt on its destination's lane; follow-ups (faults only) are queued the same way. */
  #schedule(url: string, prepared: PreparedDelivery, attempt: number, followed: boolean): void {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      this.#settle({ url, status: null, durationMs: 0, errorKind: 'bad-url' }, prepared, this.#ctx.clock.now());
      return;
    }
    let done!: () => void;
    const job = new Promise<void>((resolve) => (done = resolve)).finally(() => this.#inFlight.delete(job));
    this.#inFlight.add(job);
    const refusal = this.#lanes.enqueue(parsed, async (dispatcher) => {
      try {
        const startedAtMs = this.#ctx.clock.now();
        const outcome = await postOnce({
          url, body: prepared.body, headers: prepared.headers, dispatcher,
          timeoutMs: this.#ctx.options.deliveryTimeoutMs, closing: this.#closing.signal,
        });
        this.#settle(outcome, prepared, startedAtMs);
        await this.#followUp(outcome, prepared, attempt, followed);
      } finally {
        done();
      }
    });
    if (refusal) {
      this.#settle({ url, status: null, durationMs: 0, errorKind: 'dropped' }, prepared, this.#ctx.clock.now(), refusal);
      done();
    }
  }

  /** Only under faults: follow a redirect (follow-redirects, DELIVERY-NO-REDIRECT@receiver-answer) or retry a failure (retry-on-error, DELIVERY-NO-RETRY@receiver-answer, retry-unanswered, retry-after-timeout). */
  async #followUp(outcome: AttemptOutcome, prepared: PreparedDelivery, attempt: number, followed: boolean): Promise<void> {
    const { faults } = this.#ctx;
    if (this.#closing.signal.aborted) return;
    const status = outcome.status;
    // The receiver's answer, as the slice faults of DELIVERY-NO-REDIRECT, DELIVERY-NO-RETRY and DELIVERY-ONE-POST name it (receiver-answer=302, =other-4xx).
    const answer = receiverAnswerSlice(status);
    // The registration's lock and role (slices `lock`, `role`): a redirect followed, or a non-2xx answer retried, for that registration only.
    const where = prepared.where ?? {};
    const redirect = !followed && outcome.location && status !== null && status >= 300 && status < 400;
    // (The lock and role slices of DELIVERY-NO-REDIRECT follow a 302 only, the status the spec names: another redirect is DELIVERY-NO-RETRY's answer.)
    if (redirect && (faults.has('follow-redirects') || faults.breaks('DELIVERY-NO-REDIRECT', { 'receiver-answer': answer, ...(status === 302 ? where : {}) }))) {
      this.#schedule(outcome.location!, prepared, attempt, true);
      return;
    }
    // An answer that is not 2xx (no answer at all is retry-unanswered's and retry-after-timeout's).
    const failed = status !== null && (status < 200 || status >= 300);
    if (faults.has('retry-on-error') && failed && attempt < FAULTY_RETRIES) this.#schedule(outcome.url, prepared, attempt + 1, followed);
    // (A 302 is DELIVERY-NO-REDIRECT's answer: the lock and role slices of DELIVERY-NO-RETRY leave it alone, as its answers do.)
    else if (failed && attempt === 0 && faults.breaks('DELIVERY-NO-RETRY', { 'receiver-answer': answer, ...(status === 302 ? {} : where) })) this.#schedule(outcome.url, prepared, attempt + 1, followed);
    // A 2xx answer taken for a failure: the event is sent again (at most once, whatever 2xx the receiver answers).
    else if (!failed && status !== null && attempt === 0 && faults.breaks('DELIVERY-ONE-POST', { 'receiver-answer': answer })) this.#schedule(outcome.url, prepared, attempt + 1, followed);
    else if ((faults.has('retry-after-timeout') || faults.breaks('DELIVERY-NO-RETRY-TIMEOUT', where)) && outcome.errorKind === 'timeout' && attempt === 0) {
      await new Promise((resolveWait) => setTimeout(resolveWait, UNANSWERED_RETRY_AFTER_MS));
      this.#schedule(outcome.url, prepared, attempt + 1, followed);
    } else if ((faults.has('retry-unanswered') || faults.breaks('DELIVERY-NO-RETRY-UNANSWERED', where)) && status === null && outcome.errorKind !== 'timeout' && attempt === 0) {
      await new Promise((resolveWait) => setTimeout(resolveWait, UNANSWERED_RETRY_AFTER_MS));
      this.#schedule(outcome.url, prepared, attempt + 1, followed);
    }
  }

  /** The one place an attempt's outcome is known: it is remembered and logged here. */
  #settle(outcome: AttemptOutcome, prepared: PreparedDelivery, startedAtMs: number, refusal?: Refusal): void {
    this.#ctx.deliveryLog?.record({ url: outcome.url, prepared, status: outcome.status, error: outcome.errorCode ?? outcome.errorKind, startedAtMs, durationMs: outcome.durationMs });
    this.#attempts.push({
      url: outcome.url,
      status: outcome.status,
      durationMs: outcome.durationMs,
      ...(outcome.errorKind ? { error: outcome.errorKind } : {}),
    });
    if (this.#attempts.length > ATTEMPTS_KEPT) this.#attempts = this.#attempts.slice(-ATTEMPTS_KEPT / 2);
    // Only the receiver's origin: its path, query and headers may carry the application's secrets.
    const origin = safeOrigin(outcome.url);
    const timeoutMs = this.#ctx.options.deliveryTimeoutMs;
    const said = describeOutcome(outcome, timeoutMs);
    const detail = { origin, status: outcome.status, durationMs: outcome.durationMs, errorKind: outcome.errorKind ?? null };
    if (refusal) {
      const line = `webhook delivery to ${origin} dropped: ${refusal.waiting} deliveries already waiting (limit ${refusal.limit}${refusal.reason === 'lane-full' ? ' for this receiver' : ' in all'})`;
      this.#ctx.log(line);
      this.#ctx.logger?.warn({ delivery: { ...detail, waiting: refusal.waiting, limit: refusal.limit } }, line);
      return;
    }
    if (outcome.status === null || outcome.errorKind) {
      this.#ctx.log(`webhook delivery to ${origin} ${said}`);
      this.#ctx.logger?.warn({ delivery: detail }, `webhook delivery ${said}`);
    } else {
      this.#ctx.logger?.info({ delivery: detail }, `webhook delivery ${said}`);
    }
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
    await this.#lanes.close();
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}
