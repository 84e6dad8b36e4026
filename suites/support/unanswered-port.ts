/**
 * A loopback port that accepts every connection and cuts it (a TCP reset) as soon as
 * the request begins, never answering. Every attempt is counted, the first one
 * included, so "no second attempt" is judged from what the target itself sent:
 * whatever order it fans out in and however slow it is, its first attempt is seen
 * as the first, and only a further attempt counts as a retry.
 */
import { firstBytesPort } from './first-bytes-port.js';

export interface UnansweredPort {
  url: string;
  /** When each attempt (a connection on which a request began) arrived, epoch ms, oldest first. */
  attempts(): number[];
  /** The time of the first attempt, or null when none came within timeoutMs. */
  firstAttempt(timeoutMs: number): Promise<number | null>;
  close(): Promise<void>;
}

export async function unansweredPort(): Promise<UnansweredPort> {
  // RST, not FIN: the sender sees its connection reset, with no answer.
  const port = await firstBytesPort(() => Date.now(), (socket) => socket.resetAndDestroy());
  return { url: `http://127.0.0.1:${port.port}/unanswered`, attempts: port.seen, firstAttempt: port.first, close: port.close };
}
