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

/**
 * A reverse proxy in front of `upstream` (an origin) that answers the requests
 * `huge` picks with a lazily generated multi-GiB JSON-looking body, and
 * forwards every other request unchanged.
 */
export async function startBrokenTarget(upstream: string, huge: (req: IncomingMessage) => HugeAnswer | null): Promise<BrokenTarget> {
  let hugeSent = 0;
  const origin = new URL(upstream);
  const server: Server = createServer((req, res: ServerResponse) => {
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
    const forward = httpRequest(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: { ...req.headers, host: origin.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hugeBytesSent: () => hugeSent,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
