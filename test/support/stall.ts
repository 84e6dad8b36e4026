/**
 * A slowloris on loopback: sends a request head that promises a body, a few
 * bytes of it, then nothing. Resolves with what the server did and when.
 */
import { connect } from 'node:net';

export interface StallOutcome {
  /** The socket was closed by the server (with or without an answer). */
  closed: boolean;
  /** ms from the last byte sent to the close (or to giving up). */
  afterMs: number;
  /** What the server wrote before closing (e.g. an HTTP 408). */
  answer: string;
}

export function stallBody(url: string, path: string, giveUpMs: number): Promise<StallOutcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let sentAt = 0;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ closed, afterMs: Math.round(performance.now() - sentAt), answer });
    };
    const timer = setTimeout(() => finish(false), giveUpMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"0123456`);
      sentAt = performance.now();
    });
  });
}
