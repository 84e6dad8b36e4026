/**
 * A tiny local HTTP receiver for the mock's delivery tests: records every request
 * with its exact bytes, and answers as told (status, delay, redirect).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  text: string;
  json: any;
}

export interface ReceiverAnswer {
  status?: number;
  delayMs?: number;
  location?: string;
}

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:12345 */
  url: string;
  received: Received[];
  /** Requests to one path. */
  at(path: string): Received[];
  /** How requests to this path are answered (default 200). */
  answer(path: string, answer: ReceiverAnswer): void;
  /** Resolves once n requests reached path; rejects after timeoutMs. */
  waitFor(path: string, n: number, timeoutMs?: number): Promise<Received[]>;
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, ReceiverAnswer>();
  const waiters = new Set<() => void>();
  const pending = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const path = req.url ?? '/';
      received.push({ method: req.method ?? '', path, headers: req.headers, raw, text, json });
      for (const wake of waiters) wake();
      const answer = answers.get(path.split('?')[0]!) ?? {};
      const reply = () => {
        if (res.destroyed) return;
        const headers: Record<string, string> = { 'content-type': 'text/plain' };
        if (answer.location) headers.location = answer.location;
        res.writeHead(answer.status ?? (answer.location ? 302 : 200), headers);
        res.end('ok');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          pending.delete(timer);
          reply();
        }, answer.delayMs);
        pending.add(timer);
      } else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    at,
    answer(path, answer) {
      answers.set(path, answer);
    },
    waitFor(path, n, timeoutMs = 3_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (at(path).length >= n) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(at(path).slice(0, n));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: ${at(path).length} of ${n} requests to ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    reset() {
      received.length = 0;
      answers.clear();
    },
    async close() {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
