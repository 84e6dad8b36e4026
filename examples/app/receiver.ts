/**
 * An example webhook receiver for the Lock Access Service: what an application
 * does with each delivery before it trusts it. Read it as documentation.
 *
 * Every delivery is one POST with a JSON body and these headers (spec: Events ›
 * Delivery and Signature):
 *   Content-Type: application/json
 *   X-Signature:  t=<timestamp>,v=<HMAC-SHA256 of "<t>.<raw body>", keyed with your API key>
 *   <your header>: <your token>     (the `header` and `token` of your registration)
 *
 * The rules this receiver follows, in order:
 *   1. The custom header carries the token you registered (compared in constant time).
 *   2. The signature is computed over the RAW BYTES of the body, exactly as received:
 *      never over JSON you parsed and serialized again (key order, spaces and
 *      escapes would differ, and a changed body could pass).
 *   3. The signature is keyed with the API key (not the client secret), covers
 *      t + "." + body, and is compared in constant time (crypto.timingSafeEqual).
 *   4. t is compared with the current time: older than the tolerance (5 minutes,
 *      as the spec recommends) is refused, and so is t too far in the future.
 *   5. Anything that passes is accepted with 2xx, whatever its EventType: the
 *      service never retries, so an event refused for its shape is lost. Events
 *      you do not handle are acknowledged and ignored.
 *   6. Answer fast (hand the event to a queue); slow answers risk losing events.
 *
 * Use it as a fastify plugin (`app.register(webhookReceiver(options))`) or on its
 * own (`startWebhookReceiver(options)`, listening on 127.0.0.1).
 *
 * The `faults` option switches on named mistakes (receiver-faults.ts) so that
 * lockconf can prove its receiver checks catch them; a real receiver has none.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { shapeFault, type ReceiverFaultName } from './receiver-faults.js';
import { ROW_REQUIREMENT, ReceiverSliceFaults, bodyTimeTaken, contentTypeSlice, enumValuesOf, looselyEqual, lockIdFormsOf, misjudgedTolerance, rawBodyView, rowOf, signatureFormsOf, tamperedBodyViews, wrongKeysTaken, type ReceiverSliceFault } from './receiver-slice-faults.js';

export interface WebhookEvent {
  EventType?: unknown;
  Event?: unknown;
  [field: string]: unknown;
}

export interface ReceiverOptions {
  /** Your API key: the signing secret of every delivery. */
  apiKey: string;
  /** The `header` and `token` of your webhook registration (both, or neither). */
  header?: string | null;
  token?: string | null;
  /** Path of the route (default /webhook). */
  path?: string;
  /** How old t may be (default 5 minutes, the spec's recommendation). */
  toleranceMs?: number;
  /** Called with each accepted event; keep it fast. */
  onEvent?: (event: WebhookEvent) => void;
  /** The clock (epoch ms); tests may pass their own. */
  now?: () => number;
  /** Named faults (receiver-faults.ts) and generated ones (`ID@dim=value`, receiver-slice-faults.ts) for lockconf's self-verification. */
  faults?: readonly (ReceiverFaultName | ReceiverSliceFault)[];
  /**
   * The status of an accepted delivery (default 204) and of every refusal (default: the refusal's own 4xx),
   * and whether an accepted delivery's answer has a body (default: yes, but for 204). Any 2xx accepts, anything else refuses.
   */
  answers?: { accepted?: number; refused?: number; acceptedBody?: boolean };
  /**
   * The encodings of v read (default 'any': hex of either case and base64). 'lower-hex' reads
   * lower-case hex only: a legal choice, the spec leaves the encoding "not shown" (such a receiver
   * is warned, RECEIVER-SIGNATURE-ENCODINGS, since a service that picked another loses its events).
   */
  vEncoding?: 'any' | 'lower-hex';
  /** The unit of t read (default 'any': milliseconds, seconds for 10 digits or fewer); 'ms' reads milliseconds only, a legal choice as above. */
  tUnit?: 'any' | 'ms';
  /** Compare the first v element only (default: any v element may match); legal, "prefix v is the signature" speaks of one. */
  firstVOnly?: boolean;
  /**
   * Refuse (409) a delivery already accepted: the same t and body, whatever the layout of its
   * X-Signature, within the tolerance (default: no). A legal choice, the spec's "Each event is
   * delivered at most once" makes a second one a replay; the memory forgets after the tolerance.
   */
  refusesReplays?: boolean;
  /** Only used by the `also-accepts-client-secret` fault. */
  clientSecret?: string;
}

export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

/** Why a delivery was refused: the status and a short reason (never a secret). */
class Refusal {
  constructor(readonly status: number, readonly reason: string) {}
}

/** Constant-time equality of two strings (false when the lengths differ). */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** X-Signature: comma-separated prefix=value elements; every t and every v (order and other prefixes do not matter). */
function parseSignature(header: string): { t: string[]; v: string[] } {
  const t: string[] = [];
  const v: string[] = [];
  for (const element of header.split(',')) {
    const eq = element.indexOf('=');
    if (eq <= 0) continue;
    const prefix = element.slice(0, eq).trim();
    const value = element.slice(eq + 1).trim();
    if (prefix === 't') t.push(value);
    if (prefix === 'v') v.push(value);
  }
  return { t, v };
}

/** The 32 bytes a v value stands for: the spec does not fix the encoding, so hex and base64 are both read (or lower-case hex only, when so configured). */
function decodeV(value: string, encoding: ReceiverOptions['vEncoding'] = 'any'): Buffer | null {
  if (encoding === 'lower-hex') return /^[0-9a-f]{64}$/.test(value) ? Buffer.from(value, 'hex') : null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** t in epoch milliseconds (the spec's samples); 10 digits or fewer are read as seconds (unless milliseconds only are read). */
function timestampMs(t: string, unit: ReceiverOptions['tUnit'] = 'any'): number | null {
  if (!/^\d{1,16}$/.test(t)) return null;
  return t.length <= 10 && unit !== 'ms' ? Number(t) * 1000 : Number(t);
}

function hmac(key: string, t: string, body: Buffer): Buffer {
  return createHmac('sha256', key).update(`${t}.`, 'utf8').update(body).digest();
}

/** Checks one delivery; returns the parsed event, or throws a Refusal. */
export function verifyDelivery(
  input: { headers: Record<string, string | string[] | undefined>; rawBody: Buffer },
  opts: ReceiverOptions,
): WebhookEvent {
  const faults = new Set(opts.faults ?? []) as ReadonlySet<string>;
  const sliced = new ReceiverSliceFaults(opts.faults ?? []);
  const now = (opts.now ?? Date.now)();
  const one = (name: string) => {
    const value = input.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };

  // 1. The registration's custom header.
  if (opts.header && opts.token && !faults.has('ignores-custom-header')) {
    const sent = one(opts.header);
    const breach = sent === undefined ? 'missing' : sameText(sent, opts.token) ? null : 'wrong-token';
    if (breach && !sliced.breaks('RECEIVER-CUSTOM-HEADER', { 'custom-header-breach': breach })) throw new Refusal(401, 'missing or wrong custom header');
  }
  if (sliced.breaks('RECEIVER-CONTENT-TYPE', { 'content-type': contentTypeSlice(one('content-type')) })) throw new Refusal(415, 'unsupported Content-Type');

  // 2-3. The signature, over t + "." + the raw bytes, keyed with the API key.
  const signature = one('x-signature');
  if (!signature && sliced.breaks('RECEIVER-REJECTS-INCOMPLETE-SIGNATURE', { 'element-breach': 'no-header' })) return trustedEvent(input.rawBody);
  if (!signature) throw new Refusal(401, 'no X-Signature');
  const { t: ts, v: allV } = parseSignature(signature);
  const v = opts.firstVOnly ? allV.slice(0, 1) : allV;
  const incomplete = ts.length === 0 ? 'no-t' : v.length === 0 ? 'no-v' : v.every((value) => value === '') ? 'empty-v' : null;
  if (incomplete && sliced.breaks('RECEIVER-REJECTS-INCOMPLETE-SIGNATURE', { 'element-breach': incomplete })) return trustedEvent(input.rawBody);
  if (incomplete) throw new Refusal(401, 'X-Signature needs t and v');
  // One t is signed and compared with the clock: the last one (a header with two is signed over one of them only).
  const disguise = sliced.breaks('RECEIVER-REJECTS-STALE-T', { 'stale-disguise': 'fresh-t-after' }) ? 'fresh-t-after'
    : sliced.breaks('RECEIVER-REJECTS-STALE-T', { 'stale-disguise': 'fresh-t-before' }) ? 'fresh-t-before' : null;
  const t = disguise === 'fresh-t-after' ? ts[0]! : ts.at(-1)!;
  const freshT = disguise === 'fresh-t-before' ? ts[0]! : ts.at(-1)!;
  // The slices of this delivery, read only when a generated fault is on.
  const form = { 'signature-form': sliced.any ? signatureFormsOf(signature) : null };
  const parsed = sliced.any ? safeJson(input.rawBody) : undefined;
  const row = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? rowOf(parsed as WebhookEvent) : null;
  if (sliced.breaks('RECEIVER-SIGNATURE-FORMS', form) || sliced.breaks('RECEIVER-SIGNATURE-ENCODINGS', form)) throw new Refusal(401, 'X-Signature not understood');
  let signed = rawBodyView(input.rawBody, sliced.on('RECEIVER-SIGNATURE-RAW-BODY', 'raw-layout'));
  if (faults.has('reserialized-json') || sliced.breaks('RECEIVER-REJECTS-TAMPERED-BODY', { ...form, row })) signed = Buffer.from(JSON.stringify(safeJson(input.rawBody)), 'utf8');
  // With a wrong-key fault on, the receiver also takes a delivery signed with the key of that slice.
  if (wrongKeysTaken(sliced, opts).some((key) => v.some((value) => decodeV(value, opts.vEncoding)?.equals(hmac(key, t, signed))))) return trustedEvent(input.rawBody);
  if (faults.has('latin1-body')) signed = Buffer.from(input.rawBody.toString('latin1'), 'utf8');
  const otherKey = faults.has('also-accepts-client-secret') || sliced.breaks('RECEIVER-REJECTS-WRONG-KEY', form);
  const keys = otherKey && opts.clientSecret ? [opts.apiKey, opts.clientSecret] : [opts.apiKey];
  // With a tampering fault on, the receiver also takes the body with that change undone, and acts on the body it verified.
  const repaired = tamperedBodyViews(input.rawBody, sliced);
  const repairedMatch = repaired.find((body) => v.some((value) => {
    const received = decodeV(value, opts.vEncoding);
    return received !== null && keys.some((key) => timingSafeEqual(received, hmac(key, t, body)));
  }));
  const expected = keys.map((key) => hmac(key, t, signed));
  if (faults.has('accepts-body-only-signature') || sliced.breaks('RECEIVER-REJECTS-BODY-ONLY-SIGNATURE', form)) expected.push(createHmac('sha256', opts.apiKey).update(signed).digest());
  const alterations = sliced.on('RECEIVER-REJECTS-ALTERED-V', 'v-alteration');
  const matches = v.some((value) => {
    const received = decodeV(value, opts.vEncoding);
    if (received !== null && expected.some((e) => timingSafeEqual(received, e))) return true;
    return alterations.length > 0 && expected.some((e) => looselyEqual(value, e.toString('hex'), alterations));
  });
  if (!matches && !repairedMatch && !faults.has('accepts-bad-signature')) throw new Refusal(401, 'signature does not match');

  // 4. The timestamp against the current time.
  // With a body-time fault on, a stale t gives way to the body's own time of that slice.
  const when = bodyTimeTaken(sliced, parsed, timestampMs(freshT, opts.tUnit), now, opts.toleranceMs ?? DEFAULT_TOLERANCE_MS);
  if (when === null) throw new Refusal(401, 't is not a timestamp');
  const tolerance = faults.has('ten-minute-tolerance') ? 10 * 60_000 : misjudgedTolerance(sliced) ?? (opts.toleranceMs ?? DEFAULT_TOLERANCE_MS);
  const checksT = !faults.has('no-tolerance') && !sliced.breaks('RECEIVER-REJECTS-STALE-T', form) && !sliced.breaks('RECEIVER-REJECTS-STALE-T', { 'stale-age': staleAge(now - when) });
  if (Math.abs(now - when) > tolerance && checksT) throw new Refusal(401, 't is outside the tolerance');

  // 5. Only now is the body trusted enough to read.
  const event = trustedEvent(repairedMatch ?? input.rawBody);
  const faulty = shapeFault(event, faults as ReadonlySet<ReceiverFaultName>, now);
  const rowRequirement = row === null ? undefined : ROW_REQUIREMENT[row];
  if (rowRequirement && sliced.breaks(rowRequirement, { row, 'enum-value': enumValuesOf(event as WebhookEvent) })) throw new Refusal(422, 'unknown event value');
  if (sliced.breaks('RECEIVER-LOCKID-FORMS', { 'lockid-form': lockIdFormsOf(event as WebhookEvent) })) throw new Refusal(422, 'unexpected LockID');
  if (faulty) throw new Refusal(faulty.status, faulty.reason);
  return event as WebhookEvent;
}

/** The verified body as an event: a JSON object, else a 400. */
function trustedEvent(raw: Buffer): WebhookEvent {
  const event = safeJson(raw);
  if (event === undefined || event === null || typeof event !== 'object' || Array.isArray(event)) {
    throw new Refusal(400, 'the body is not a JSON object');
  }
  return event as WebhookEvent;
}

function safeJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The deliveries a receiver refusing replays has accepted: the signature of t and the body, until t leaves the tolerance. */
class ReplayMemory {
  readonly #seen = new Map<string, number>();
  constructor(private readonly opts: ReceiverOptions) {}

  /** True the first time a verified delivery is seen (it is remembered), false for a replay. */
  first(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): boolean {
    const now = (this.opts.now ?? Date.now)();
    const tolerance = this.opts.toleranceMs ?? DEFAULT_TOLERANCE_MS;
    for (const [key, at] of this.#seen) if (now - at > 2 * tolerance) this.#seen.delete(key);
    const header = headers['x-signature'];
    const t = parseSignature(Array.isArray(header) ? header.join(', ') : header ?? '').t.at(-1) ?? '';
    const key = hmac(this.opts.apiKey, t, rawBody).toString('hex');
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, now);
    return true;
  }
}

/** The receiver as a fastify plugin: one POST route that reads the raw body and verifies it. */
export function webhookReceiver(opts: ReceiverOptions): FastifyPluginAsync {
  if (!opts.apiKey) throw new Error('webhookReceiver: apiKey is required');
  if (!opts.header !== !opts.token) throw new Error('webhookReceiver: give both header and token, or neither');
  new ReceiverSliceFaults(opts.faults ?? []); // an unknown generated fault fails here, not on the first delivery
  const replays = opts.refusesReplays ? new ReplayMemory(opts) : null;
  return async (app) => {
    // Raw bytes for the signature, whatever the content type: these parsers apply to
    // this plugin's routes only (fastify encapsulates them), not to the rest of your app.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    app.post(opts.path ?? '/webhook', async (req: FastifyRequest, reply: FastifyReply) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        const event = verifyDelivery({ headers: req.headers, rawBody }, opts);
        if (replays && !replays.first(req.headers, rawBody)) throw new Refusal(409, 'this delivery was already received');
        opts.onEvent?.(event);
        const accepted = opts.answers?.accepted ?? 204;
        const withBody = accepted !== 204 && (opts.answers?.acceptedBody ?? true);
        return withBody ? reply.code(accepted).send({ received: true }) : reply.code(accepted).send();
      } catch (err) {
        if (err instanceof Refusal) return reply.code(opts.answers?.refused ?? err.status).send({ error: err.reason });
        throw err;
      }
    });
  };
}

export interface RunningReceiver {
  /** The webhook URL, e.g. http://127.0.0.1:41234/webhook */
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The receiver on its own server, on 127.0.0.1 (port 0: one the OS picks). */
export async function startWebhookReceiver(opts: ReceiverOptions & { port?: number; host?: string }): Promise<RunningReceiver> {
  const app = Fastify({ logger: false });
  await app.register(webhookReceiver(opts));
  const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  return { url: `${address}${opts.path ?? '/webhook'}`, app, close: () => app.close() };
}

/**
 * Run on its own: `npx tsx examples/app/receiver.ts` with the API key in
 * LOCKCONF_API_KEY and, optionally, LOCKCONF_WEBHOOK_HEADER / LOCKCONF_WEBHOOK_TOKEN
 * and PORT. Prints the webhook URL; Ctrl-C stops it. RECEIVER_FAULTS (comma
 * separated names of receiver-faults.ts) is for lockconf's self-verification.
 */
async function main(): Promise<void> {
  const env = process.env;
  if (!env.LOCKCONF_API_KEY) {
    process.stderr.write('receiver: set LOCKCONF_API_KEY (the API key deliveries are signed with)\n');
    process.exit(2);
  }
  const running = await startWebhookReceiver({
    apiKey: env.LOCKCONF_API_KEY,
    header: env.LOCKCONF_WEBHOOK_HEADER || null,
    token: env.LOCKCONF_WEBHOOK_TOKEN || null,
    port: Number(env.PORT ?? 0),
    faults: (env.RECEIVER_FAULTS ?? '').split(',').filter(Boolean) as ReceiverFaultName[], // or ID@dim=value
    ...(env.LOCKCONF_CLIENT_SECRET ? { clientSecret: env.LOCKCONF_CLIENT_SECRET } : {}),
  });
  process.stdout.write(`${running.url}\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.filename === resolve(process.argv[1])) void main();

/** The stale-age slice a t of this age is on (RECEIVER-REJECTS-STALE-T), null within an hour. */
function staleAge(ageMs: number): string | null {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  if (ageMs >= 20 * 365 * DAY) return 'decades';
  if (ageMs >= 300 * DAY) return 'a-year';
  if (ageMs >= 20 * DAY) return 'a-month';
  if (ageMs >= 20 * HOUR) return 'a-day';
  return ageMs >= HOUR ? 'hours' : null;
}
