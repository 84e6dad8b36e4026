/**
 * The capture server: receives the target's webhook deliveries and records each
 * one with its exact bytes, so signatures can be checked over what was sent.
 *
 * It runs once, in the process that starts the run (global setup); test
 * workers live in other processes and reach it over a small token-protected
 * control API (`/_capture`), through CaptureClient. Each test gets its own
 * inbox (`/inbox/<id>`), and each inbox answers as it is told (status, a
 * redirect to another inbox, a delay, a body), so no-retry and no-redirect
 * can be observed.
 *
 * Control API (header x-capture-token):
 *   POST /_capture/inboxes                    {label?, response?}  → 201 {id, url}
 *   PUT  /_capture/inboxes/:id/response       InboxResponse        → 204
 *   GET  /_capture/inboxes/:id/deliveries?after=SEQ&min=N&timeoutMs=T[&limit=L]
 *        → 200 {deliveries, lastSeq, more}; holds the request (long poll) until at least
 *          N deliveries after SEQ arrived or T ms passed, whichever comes first; one page
 *          (pages.ts) at a time: when more is true, ask again with after=lastSeq
 *   GET  /_capture/deliveries?after=SEQ[&limit=L]                   → the same, every inbox
 *        (a delivery whose sender closed the connection while its inbox held the answer
 *        carries closedBeforeAnswerAt, set when the connection closed)
 *   DELETE /_capture/inboxes/:id                                    → 204 (its deliveries are freed)
 *
 * Bounds (protocol.ts, store.ts): when the store is full, a delivery or a new inbox is
 * refused with 429 {"error":"capture_full"}; nothing already kept is dropped. Client
 * timeouts (timeouts.ts) end stalled requests; long polls of up to MAX_WAIT_MS still work.
 *
 * The test workers' side of the control API is client.ts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { InboxResponse } from '../../contracts.js';
import { LockconfError } from '../../run/errors.js';
import { countAfter, pageOf } from './pages.js';
import { CAPTURE_BODY_LIMIT, type CaptureConnection } from './protocol.js';
import { inboxResponseSchema, newInboxSchema, pollQuerySchema } from './schemas.js';
import { CaptureFull, CaptureStore, type InboxState } from './store.js';
import { CAPTURE_TIMEOUTS, captureTimeoutOptions, type CaptureTimeouts } from './timeouts.js';
import { responsiveTimeout } from '../../../mock/responsive-timeout.js';
import { DOCUMENTATION_ONLY_COMPILERS as NO_SCHEMA_COMPILERS } from '../../../mock/documentation-only-compilers.js';
import { doorsBehindPublicUrl, hostPort, openDoors, type DoorMap } from './doors.js';

export type { CaptureConnection } from './protocol.js';
export { CAPTURE_BODY_LIMIT, MAX_DELIVERIES, MAX_DELIVERY_BYTES, MAX_INBOXES, MAX_WAIT_MS } from './protocol.js';


class BadRequest extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

function parseWith<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const why = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : what} ${i.message}`).join('; ');
  throw new BadRequest(400, 'bad_request', `invalid ${what}: ${why}`);
}

function headerRecord(raw: FastifyRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

function parseListen(listen: string): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(listen);
  if (!m || Number(m[2]) > 65535) throw new LockconfError('ERR_CAPTURE', `capture.listen must be "host:port", got an unusable value`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

/** The address other local processes use: a wildcard listen address is reached over loopback. */
function localBase(addr: AddressInfo): string {
  const host = addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address === '::' ? '::1' : addr.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
}

/** Compares digests of both sides: the time taken does not depend on where they differ, nor on their lengths. */
function tokenMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * Answer delays, all cut short when the server closes. A delay counts only responsive
 * time (responsiveTimeout, as the mock's delivery timeout does): a stall of this process
 * on a loaded machine neither shortens a hold against the sender's timeout nor reorders
 * them when the embedded mock shares the process.
 */
class Delays {
  private readonly pending = new Set<() => void>();

  /** Resolves after ms, or at once when `signal` aborts (the sender went away). */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        cancel();
        this.pending.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const cancel = responsiveTimeout(ms, done);
      this.pending.add(done);
      if (signal?.aborted) done();
      else signal?.addEventListener('abort', done, { once: true });
    });
  }

  releaseAll(): void {
    for (const done of [...this.pending]) done();
    this.pending.clear();
  }
}

/** A delivery body over CAPTURE_BODY_LIMIT: its first bytes, the rest never read. */
class TooLargeBody {
  constructor(readonly head: Buffer) {}
}

/** The body, or once it passes CAPTURE_BODY_LIMIT (or its Content-Length says it will) a TooLargeBody; reading stops there. */
function readDeliveryBody(payload: NodeJS.ReadableStream & { destroy?: () => void }, contentLength: string | undefined): Promise<Buffer | TooLargeBody> {
  const declared = contentLength !== undefined && /^\d+$/.test(contentLength) ? Number(contentLength) : null;
  if (declared !== null && declared > CAPTURE_BODY_LIMIT) return Promise.resolve(new TooLargeBody(Buffer.alloc(0)));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= CAPTURE_BODY_LIMIT) return;
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.pause();
      resolve(new TooLargeBody(Buffer.concat(chunks).subarray(0, DELIVERY_HEAD_BYTES)));
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    payload.on('data', onData);
    payload.once('end', onEnd);
    payload.once('error', reject);
  });
}

/** What is kept of a delivery over the limit. */
const DELIVERY_HEAD_BYTES = 8 * 1024;

/** Webhook deliveries: any method, any content type, raw bytes kept. */
function registerInboxRoutes(app: FastifyInstance, store: CaptureStore, delays: Delays): void {
  app.removeAllContentTypeParsers();
  // Read up to CAPTURE_BODY_LIMIT; a larger body is not read further, and is recorded as such (its first bytes kept).
  app.addContentTypeParser('*', (req, payload, done) => {
    readDeliveryBody(payload, req.headers['content-length']).then((body) => done(null, body), (err: Error) => done(err, undefined));
  });
  // Headers as the target sent them. Fastify would refuse a malformed Content-Type (415)
  // before any handler runs, yet a wrong content type is exactly what a suite must see:
  // keep the original, and let the body through as opaque bytes.
  const original = new WeakMap<object, Record<string, string>>();
  app.addHook('onRequest', async (req) => {
    original.set(req.raw, headerRecord(req.headers));
    if (req.raw.headers['content-type'] !== undefined) req.raw.headers['content-type'] = 'application/octet-stream';
  });

  const receive = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const id = req.params.id;
    const inbox = store.inboxes.get(id);
    const config: InboxResponse = inbox?.response ?? {};
    const status = inbox ? (config.status ?? (config.location ? 302 : 200)) : 404;
    const tooLarge = req.body instanceof TooLargeBody ? req.body : null;
    const rawBody = tooLarge ? tooLarge.head : Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const reached = hostPort(req.socket.localAddress, req.socket.localPort);
    // Full: a clear 429 to the sender, and nothing kept before is dropped.
    if (inbox) store.assertRoom(rawBody.length);
    const stored = store.record({
      inbox: id,
      method: req.method,
      url: req.url,
      ...(reached ? { receivedOn: reached } : {}),
      headers: original.get(req.raw) ?? headerRecord(req.headers),
      rawBody,
      receivedAt: Date.now(),
      answeredStatus: inbox && tooLarge ? 413 : status,
      ...(tooLarge ? { bodyTooLarge: { limitBytes: CAPTURE_BODY_LIMIT } } : {}),
    });
    if (!inbox) return reply.code(404).send({ error: 'unknown_inbox', message: `no inbox ${id}` });
    if (tooLarge) {
      // The rest of the body is never read: the connection closes after this answer.
      reply.header('connection', 'close');
      return reply.code(413).send({ error: 'payload_too_large', message: `body larger than ${CAPTURE_BODY_LIMIT / (1024 * 1024)} MiB, not read` });
    }
    if (config.delayMs) {
      // A sender that gives up while the answer is held closes the connection: recorded, and the hold ends.
      const gone = new AbortController();
      const onClose = () => {
        if (reply.raw.headersSent) return;
        store.markClosedBeforeAnswer(stored, Date.now());
        gone.abort();
      };
      reply.raw.once('close', onClose);
      await delays.wait(config.delayMs, gone.signal);
      reply.raw.off('close', onClose);
      if (gone.signal.aborted) return reply.hijack();
    }
    reply.code(status);
    if (config.location) reply.header('location', config.location);
    if (config.body !== undefined && req.method !== 'HEAD') return reply.type('text/plain; charset=utf-8').send(config.body);
    return reply.send();
  };
  app.all('/inbox/:id', receive);
  app.all('/inbox/:id/*', receive);
}

function registerControlRoutes(app: FastifyInstance, store: CaptureStore, token: string): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!tokenMatches(req.headers['x-capture-token'], token)) {
      return reply.code(401).send({ error: 'unauthorized', message: 'missing or wrong x-capture-token' });
    }
  });

  const inboxOf = (id: string): InboxState => {
    const inbox = store.inboxes.get(id);
    if (!inbox) throw new BadRequest(404, 'unknown_inbox', `no inbox ${id}`);
    return inbox;
  };

  app.post('/inboxes', async (req, reply) => {
    const body = parseWith(newInboxSchema, req.body, 'inbox');
    return reply.code(201).send(store.createInbox(body.label, body.response));
  });

  app.put<{ Params: { id: string } }>('/inboxes/:id/response', async (req, reply) => {
    const inbox = inboxOf(req.params.id);
    inbox.response = parseWith(inboxResponseSchema, req.body, 'response');
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/inboxes/:id', async (req, reply) => {
    inboxOf(req.params.id);
    store.deleteInbox(req.params.id);
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/inboxes/:id/deliveries', async (req, reply) => {
    const inbox = inboxOf(req.params.id);
    const q = parseWith(pollQuerySchema, req.query, 'query');
    // A client that gives up closes the socket; stop waiting for it then too.
    // (the response's 'close' fires early only when the connection goes; the server's close releases every waiter)
    const gone = new AbortController();
    const onGone = () => gone.abort();
    reply.raw.once('close', onGone);
    await store.waitUntil(() => countAfter(inbox.deliveries, q.after) >= q.min, q.timeoutMs, gone.signal);
    reply.raw.off('close', onGone);
    return pageOf(inbox.deliveries, q.after, q.limit);
  });

  app.get('/deliveries', async (req) => {
    const q = parseWith(pollQuerySchema, req.query, 'query');
    return pageOf(store.all, q.after, q.limit);
  });
}

/**
 * Start the capture server on `listen` (default 127.0.0.1:0). The inbox URLs
 * handed to the target are based on `publicUrl` when given (a tunnel in front).
 * `doors`: also open the other doors (doors.ts: the inboxes at another loopback
 * host or port); never behind a publicUrl.
 */
export async function startCaptureServer(
  opts: { listen?: string; publicUrl?: string | null; timeouts?: Partial<CaptureTimeouts>; limits?: ConstructorParameters<typeof CaptureStore>[0]; doors?: boolean } = {},
): Promise<CaptureConnection & { close(): Promise<void> }> {
  const { host, port } = parseListen(opts.listen ?? '127.0.0.1:0');
  const token = randomBytes(24).toString('base64url');
  const store = new CaptureStore(opts.limits);
  const delays = new Delays();
  const newApp = () => {
    const app = Fastify({
      logger: false,
      bodyLimit: CAPTURE_BODY_LIMIT,
      forceCloseConnections: true,
      // No route here has a fastify schema (bodies are checked with zod): fastify's Ajv and fast-json-stringify are never loaded.
      schemaController: NO_SCHEMA_COMPILERS,
      ...captureTimeoutOptions({ ...CAPTURE_TIMEOUTS, ...opts.timeouts }),
    });
    // Errors become 4xx JSON: malformed JSON, oversized bodies (413), bad input; never a stack trace.
    app.setErrorHandler((err: Error & { statusCode?: number; code?: string; errorCode?: string }, _req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
      const code = err instanceof BadRequest || err instanceof CaptureFull ? err.errorCode : status === 413 ? 'payload_too_large' : status < 500 ? 'bad_request' : 'internal_error';
      return reply.code(status).send({ error: code, message: status < 500 ? err.message : 'internal error' });
    });
    app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: 'not_found', message: `no route ${req.method} ${req.url.split('?')[0]}` }));
    return app;
  };
  const app = newApp();
  // Long polls and delayed answers would hold close() up; release them first.
  const release = () => {
    store.releaseAll();
    delays.releaseAll();
  };
  app.addHook('preClose', async () => release());

  await app.register(async (scope) => registerInboxRoutes(scope, store, delays));
  await app.register(async (scope) => registerControlRoutes(scope, store, token), { prefix: '/_capture' });

  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const base = localBase(address);
  const publicBaseUrl = (opts.publicUrl ?? base).replace(/\/+$/, '');
  store.publicBaseUrl = publicBaseUrl;

  // The other doors serve the inboxes only: the control API stays on the main address.
  let doors: DoorMap | undefined;
  let closeDoors = async () => {};
  if (opts.doors && opts.publicUrl) doors = doorsBehindPublicUrl();
  else if (opts.doors) {
    const opened = await openDoors(async () => {
      const door = newApp();
      await door.register(async (scope) => registerInboxRoutes(scope, store, delays));
      return door;
    }, address.port);
    doors = opened.doors;
    closeDoors = opened.close;
  }

  return {
    controlUrl: `${base}/_capture`,
    publicBaseUrl,
    token,
    ...(doors ? { doors } : {}),
    close: async () => {
      release();
      await closeDoors();
      await app.close();
    },
  };
}

// ── Client side (test workers) ──────────────────────────────────────────────
