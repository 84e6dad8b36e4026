/**
 * A bare webhook receiver (node:http, no framework, so it costs as little as
 * possible next to what is measured): answers 200 at once and notes when each
 * request arrived. Waits are bounded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BenchError } from './safe-error.js';

export interface Arrival {
  at: number;
  bytes: number;
  signed: boolean;
}

export interface Receiver {
  url: string;
  count(): number;
  /** Resolves with the arrival that brings the count to n; rejects after timeoutMs. */
  waitForCount(n: number, timeoutMs?: number): Promise<Arrival>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let count = 0;
  let last: Arrival | null = null;
  const waiters = new Map<number, { resolve: (a: Arrival) => void; timer: NodeJS.Timeout }>();
  const server: Server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      const arrival: Arrival = { at: performance.now(), bytes, signed: typeof req.headers['x-signature'] === 'string' };
      count++;
      last = arrival;
      const waiter = waiters.get(count);
      if (waiter) {
        waiters.delete(count);
        clearTimeout(waiter.timer);
        waiter.resolve(arrival);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => count,
    waitForCount(n, timeoutMs = 10_000) {
      if (count >= n && last) return Promise.resolve(last);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(n);
          reject(new BenchError(`receiver: ${count} of ${n} deliveries arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.set(n, { resolve, timer });
      });
    },
    async close() {
      for (const w of waiters.values()) clearTimeout(w.timer);
      waiters.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
