/**
 * Random tokens drawn from a pool of node:crypto random bytes, refilled 4 KiB at
 * a time (the way node's own randomUUID pools its bytes): one call into the
 * CSPRNG for many tokens instead of one per token. The same generator; no byte
 * is handed out twice.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

/** `bytes` random bytes, base64url-encoded. */
export function randomBase64url(bytes: number): string {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString('base64url');
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const token = pool.toString('base64url', offset, offset + bytes);
  offset += bytes;
  return token;
}
