/**
 * Comparing a presented secret with the expected one in constant time, without
 * leaking its length: both sides are hashed first (SHA-256), and the digests,
 * always 32 bytes, are compared with timingSafeEqual.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function sameSecret(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  return timingSafeEqual(digest(presented), digest(expected));
}
