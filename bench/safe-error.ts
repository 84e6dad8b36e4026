/**
 * Errors a benchmark may print. Messages are built from method, path (never
 * the query) and status, and anything long enough to be a token is masked
 * before it leaves the bench, whatever produced it.
 */

/** JWT-shaped strings, and base64url / hex runs of 24+ characters: tokens, codes, keys. */
const TOKEN_LIKE = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?|[A-Za-z0-9_-]{24,}/g;

export function mask(text: string): string {
  return text.replace(TOKEN_LIKE, '‹redacted›');
}

export class BenchError extends Error {
  constructor(message: string) {
    super(mask(message));
    this.name = 'BenchError';
  }
}

/** A printable one-line reason for any thrown value, masked. */
export function reasonOf(err: unknown): string {
  const text = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return mask(text.split('\n')[0] ?? '').slice(0, 300);
}
