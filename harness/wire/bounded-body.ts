/**
 * Reading an answer's body within a bound. A target may answer with anything,
 * a body of gigabytes included; the harness reads at most ANSWER_BODY_LIMIT
 * bytes of it and then stops (the connection is closed, the rest never read),
 * so a broken target ends as evidence ("body larger than 8 MiB, not read")
 * and the run still writes its report, in bounded memory.
 *
 * Time is bounded by the caller's undici options (headersTimeout,
 * bodyTimeout) and an AbortSignal for the whole exchange.
 */
import { LockconfError } from '../run/errors.js';

/** The most of one answer's body the harness reads (docs/target-profile.md, "Limits"). */
export const ANSWER_BODY_LIMIT = 8 * 1024 * 1024;
/** What is kept of a body over the limit, as evidence. */
export const ANSWER_HEAD_BYTES = 8 * 1024;

/** A body as undici hands it out: an async iterable of chunks that can be closed early. */
export interface BodyStream extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

export type BoundedBody =
  | { tooLarge: false; bytes: Buffer }
  | { tooLarge: true; head: Buffer; limit: number; declaredLength: number | null };

function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return Number.isInteger(m) ? `${m} MiB` : `${bytes} bytes`;
}

/** "body larger than 8 MiB, not read": the words every report uses. */
export function tooLargeWords(limit: number, declaredLength: number | null = null): string {
  return `body larger than ${mib(limit)}, not read${declaredLength !== null ? ` (Content-Length: ${declaredLength})` : ''}`;
}

function declared(headers: Record<string, string | string[] | undefined> | undefined): number | null {
  const raw = headers?.['content-length'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The body, or (past `limit` bytes, or announced so by Content-Length) its first
 * ANSWER_HEAD_BYTES and the fact that it was too large. Past the limit the
 * stream is destroyed: the rest is never read, never buffered.
 */
export async function readBounded(
  body: BodyStream,
  opts: { headers?: Record<string, string | string[] | undefined>; limit?: number } = {},
): Promise<BoundedBody> {
  const limit = opts.limit ?? ANSWER_BODY_LIMIT;
  const declaredLength = declared(opts.headers);
  const announcedTooLarge = declaredLength !== null && declaredLength > limit;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (announcedTooLarge || size + buf.length > limit) {
      chunks.push(buf);
      const head = Buffer.concat(chunks).subarray(0, ANSWER_HEAD_BYTES);
      body.destroy();
      return { tooLarge: true, head: Buffer.from(head), limit, declaredLength };
    }
    chunks.push(buf);
    size += buf.length;
  }
  if (announcedTooLarge) return { tooLarge: true, head: Buffer.alloc(0), limit, declaredLength };
  return { tooLarge: false, bytes: Buffer.concat(chunks, size) };
}

/**
 * The body as UTF-8 text, for the harness's own clients (control, capture,
 * grading): over the limit it is an error naming `what` and the limit.
 */
export async function readBoundedText(
  body: BodyStream,
  what: string,
  opts: { headers?: Record<string, string | string[] | undefined>; limit?: number; code?: 'ERR_CONTROL' | 'ERR_CAPTURE' | 'ERR_ANSWER_TOO_LARGE' } = {},
): Promise<string> {
  const read = await readBounded(body, opts);
  if (read.tooLarge) throw new LockconfError(opts.code ?? 'ERR_ANSWER_TOO_LARGE', `${what}: ${tooLargeWords(read.limit, read.declaredLength)}`);
  return read.bytes.toString('utf8');
}
