/**
 * A loopback port that accepts every connection and cuts it (a TCP reset) as soon as
 * the request begins, never answering. Every attempt is counted, the first one
 * included, so "no second attempt" is judged from what the target itself sent:
 * whatever order it fans out in and however slow it is, its first attempt is seen
 * as the first, and only a further attempt counts as a retry.
 */
import { createServer, type Server, type Socket } from 'node:net';

/** A connection that sends nothing is closed after this long (it is not an attempt). */
const IDLE_CONNECTION_MS = 10_000;

export interface UnansweredPort {
  url: string;
  /** When each attempt (a connection on which a request began) arrived, epoch ms, oldest first. */
  attempts(): number[];
  /** The time of the first attempt, or null when none came within timeoutMs. */
  firstAttempt(timeoutMs: number): Promise<number | null>;
  close(): Promise<void>;
}

export async function unansweredPort(): Promise<UnansweredPort> {
  const attempts: number[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setTimeout(IDLE_CONNECTION_MS, () => socket.destroy());
    socket.once('data', () => {
      attempts.push(Date.now());
      for (const wake of waiters) wake();
      // RST, not FIN: the sender sees its connection reset, with no answer.
      socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/unanswered`,
    attempts: () => [...attempts],
    firstAttempt: (timeoutMs) => new Promise<number | null>((resolve) => {
      if (attempts.length > 0) return resolve(attempts[0]!);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve(attempts[0] ?? null);
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
