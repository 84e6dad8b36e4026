/**
 * A loopback HTTP/1.1 server that closes an idle keep-alive connection at the worst moment:
 * when a request arrives on a connection idle `idleLimitMs` or longer, by the clock the test
 * moves (Date.now, under fake timers), it ends that connection without an answer, as a server
 * whose idle timer fired as the request was on its way does (its FIN and the request cross).
 * The race of a loaded machine, made certain: no real time is waited out. Otherwise it answers
 * 200 "ok" and keeps the connection, with no Keep-Alive hint (nothing tells the client its limit,
 * as with many servers). Each request is read whole (its head, then Content-Length bytes).
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface IdleClosingPeer {
  url: string;
  /** Requests whose bytes arrived, answered or not (a request sent twice counts twice). */
  arrivals(): number;
  /** Requests lost with their connection: they arrived on a connection past the idle limit. */
  lost(): number;
  /** Connections opened to it. */
  connections(): number;
  close(): Promise<void>;
}

const HEAD_END = '\r\n\r\n';

export async function idleClosingPeer(idleLimitMs: number): Promise<IdleClosingPeer> {
  let arrivals = 0;
  let lost = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let idleSince = Date.now();
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (pending.length === 0) {
        // The first bytes of a request: on a connection past the limit, the server has closed it.
        arrivals++;
        if (Date.now() - idleSince >= idleLimitMs) {
          lost++;
          socket.destroy();
          return;
        }
      }
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const headEnd = pending.indexOf(HEAD_END);
        if (headEnd < 0) return;
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(pending.subarray(0, headEnd).toString('latin1'))?.[1] ?? 0);
        const end = headEnd + HEAD_END.length + length;
        if (pending.length < end) return;
        pending = pending.subarray(end);
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        idleSince = Date.now();
        if (pending.length > 0) arrivals++; // a pipelined request already behind it
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    arrivals: () => arrivals,
    lost: () => lost,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
