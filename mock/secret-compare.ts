/**
 * Comparing a presented secret with the expected one in constant time, without
 * leaking its length: both sides are hashed first (SHA-256), and the digests,
 * always 32 bytes, are compared with timingSafeEqual. The expected side repeats
 * (the few registered credentials), so its digests are kept, a bounded number.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Expected values whose digest is kept; past it the cache starts over. */
const MAX_KEPT_DIGESTS = 256;
const expectedDigests = new Map<string, Buffer>();

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function expectedDigest(expected: string): Buffer {
  let kept = expectedDigests.get(expected);
  if (kept === undefined) {
    if (expectedDigests.size >= MAX_KEPT_DIGESTS) expectedDigests.clear();
    kept = digest(expected);
    expectedDigests.set(expected, kept);
  }
  return kept;
}

/** The digest of a presented value, hashed once to compare with several expected ones (sameDigest). */
export function presentedDigest(presented: string): Buffer {
  return digest(presented);
}

export function sameDigest(presented: Buffer, expected: string): boolean {
  return timingSafeEqual(presented, expectedDigest(expected));
}

export function sameSecret(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  return sameDigest(digest(presented), expected);
}
