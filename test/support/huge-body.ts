/**
 * Broken targets for tests, on loopback: answers (and deliveries) whose bodies
 * run to gigabytes, generated chunk by chunk as the reader asks for them and
 * never held in memory. Each counts what it really sent, so a test can show
 * the reader stopped at its cap (the rest was never produced).
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GiB = 1024 ** 3;
const CHUNK = Buffer.alloc(64 * 1024, 0x61); // "aaaa…"

/** Writes `prefix` then `total` bytes of "a" as the peer reads them; resolves with the bytes written when it ends or the peer goes. */
export function streamLazily(out: NodeJS.WritableStream & { destroyed?: boolean; once(e: string, f: () => void): unknown }, total: number, prefix = ''): Promise<number> {
  return new Promise((done) => {
    let sent = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      done(sent);
    };
    out.once('close', finish);
    out.once('error', finish);
    if (prefix) sent += Buffer.byteLength(prefix), out.write(prefix);
    const pump = () => {
      while (!finished && !out.destroyed && sent < total) {
        const piece = total - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, total - sent);
        sent += piece.length;
        if (!out.write(piece)) {
          out.once('drain', pump);
          return;
        }
      }
      if (!finished && sent >= total) out.end(finish);
    };
    pump();
  });
}

export interface HugeAnswer {
  /** Total body bytes (default 4 GiB). */
  bytes?: number;
  /** Announce the length (Content-Length) instead of a chunked body. */
  contentLength?: boolean;
  status?: number;
}

export interface BrokenTarget {
  url: string;
  /** Body bytes really written for huge answers so far. */
  hugeBytesSent(): number;
  close(): Promise<void>;
}

const RELAY = '/_relay/';

/** Reads a (small) request body whole. */
function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

/**
 * A reverse proxy in front of `upstream` (an origin) that answers the requests
 * `huge` picks with a lazily generated multi-GiB JSON-looking body, and
 * forwards every other request unchanged. With `hugeDeliveries`, every webhook
 * registration's URL is pointed at the proxy, which passes each delivery on to
 * the registered URL with its body grown to 4 GiB (generated as the receiver reads).
 */
export async function startBrokenTarget(
  upstream: string,
  huge: (req: IncomingMessage) => HugeAnswer | null,
  opts: { hugeDeliveries?: boolean } = {},
): Promise<BrokenTarget> {
  let hugeSent = 0;
  let self = '';
  const origin = new URL(upstream);
  const relay = async (req: IncomingMessage, res: ServerResponse) => {
    const to = decodeURIComponent((req.url ?? '').slice(RELAY.length));
    const head = (await bodyOf(req)).toString('utf8');
    const headers = { ...req.headers };
    delete headers['content-length'];
    delete headers.host;
    const out = httpRequest(to, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502).end();
      answer.resume();
    });
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
    });
    void streamLazily(out, 4 * GiB, head.slice(0, -1)).then((n) => (hugeSent += n));
  };
  const server: Server = createServer((req, res: ServerResponse) => {
    if (req.url?.startsWith(RELAY)) return void relay(req, res);
    if (opts.hugeDeliveries && req.method === 'POST' && /\/webhook\//.test(req.url ?? '')) {
      // The registration's URL becomes the relay's, the original carried in its path.
      return void bodyOf(req).then((body) => {
        let text = body.toString('utf8');
        try {
          const json = JSON.parse(text) as { url?: string };
          if (typeof json.url === 'string') text = JSON.stringify({ ...json, url: `${self}${RELAY}${encodeURIComponent(json.url)}` });
        } catch {
          // not JSON: passed on as it came
        }
        forward(req, res, Buffer.from(text));
      });
    }
    const answer = huge(req);
    if (answer) {
      req.resume();
      const bytes = answer.bytes ?? 4 * GiB;
      const prefix = '{"access_token":"';
      res.writeHead(answer.status ?? 200, {
        'content-type': 'application/json',
        ...(answer.contentLength ? { 'content-length': String(bytes + prefix.length) } : {}),
      });
      void streamLazily(res, bytes + prefix.length, prefix).then((n) => (hugeSent += n));
      return;
    }
    forward(req, res, null);
  });
  /** Passes the request on to the upstream (with `body` instead of the request's own, when given). */
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer | null) => {
    const headers = { ...req.headers, host: origin.host, ...(body ? { 'content-length': String(body.length) } : {}) };
    const out = httpRequest({ host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    if (body) out.end(body);
    else req.pipe(out);
  };
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  self = `http://127.0.0.1:${port}`;
  return {
    url: self,
    hugeBytesSent: () => hugeSent,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
