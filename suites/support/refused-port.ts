/**
 * A loopback port that refuses connections now and listens later: a delivery sent
 * to it is refused, and any later attempt (a retry) is counted.
 */
import { createServer, type Server } from 'node:http';

export interface RefusedPort {
  url: string;
  /** Start listening on the port; false when it was taken meanwhile. */
  listen(): Promise<boolean>;
  /** Requests received since listen(). */
  count(): number;
  close(): Promise<void>;
}

export async function refusedPort(): Promise<RefusedPort> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    req.resume();
    res.statusCode = 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `http://127.0.0.1:${port}/refused`,
    listen: () => new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    }),
    count: () => hits,
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}
