/**
 * A loopback port that reads the first bytes of each connection and then ends it, never
 * answering: what a target began to send there is judged from what it sent, whatever its
 * order or speed. The port under the unanswered receiver (every attempt counted, each cut
 * with a reset) and the https probe (whether a TLS handshake began).
 */
import { createServer, type Server, type Socket } from 'node:net';

/** A connection that sends nothing is closed after this long (it is not an attempt). */
const IDLE_CONNECTION_MS = 10_000;

export interface FirstBytesPort<T> {
  port: number;
  /** What each connection that sent bytes was read as, oldest first. */
  seen(): T[];
  /** The first connection's reading, or null when none came within timeoutMs. */
  first(timeoutMs: number): Promise<T | null>;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (an ephemeral port). `read` turns a connection's first chunk into
 * what is kept; `end` ends the connection after it (a FIN by default, a reset for a
 * receiver that cuts the request).
 */
export async function firstBytesPort<T>(read: (chunk: Buffer) => T, end: (socket: Socket) => void = (s) => s.destroy()): Promise<FirstBytesPort<T>> {
  const seen: T[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setTimeout(IDLE_CONNECTION_MS, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      seen.push(read(chunk));
      for (const wake of waiters) wake();
      end(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    seen: () => [...seen],
    first: (timeoutMs) => new Promise<T | null>((resolve) => {
      if (seen.length > 0) return resolve(seen[0]!);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve(seen[0] ?? null);
      };
      const timer = setTimeout(done, timeoutMs);
      waiters.add(done);
    }),
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
