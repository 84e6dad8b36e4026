/** Ports for tests that need an address nothing listens on yet (a redirect URI, a capture server). */
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago: bound, read, released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}
