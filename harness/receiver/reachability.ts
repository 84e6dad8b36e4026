/**
 * Is anything answering HTTP at the receiver's URL? One HEAD request; any
 * answer counts (a webhook route may well refuse HEAD). A refused connection,
 * an unknown host or a timeout is ERR_TARGET_UNREACHABLE: the run stops with
 * exit 2 before any test. Redirects are not followed.
 */
import { request } from 'undici';
import { LockconfError } from '../run/errors.js';
import { describeNetworkError } from '../wire/network-words.js';

export async function assertReceiverReachable(url: string, timeoutMs = 10_000): Promise<void> {
  try {
    const res = await request(url, { method: 'HEAD', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs + 1_000) }); // undici's own timeouts first: they tell a silent receiver from a slow body
    await res.body.dump(); // at most undici's dump limit (128 KiB) is read
  } catch (err) {
    throw new LockconfError('ERR_TARGET_UNREACHABLE', `receiver unreachable: ${url}: ${describeNetworkError(err, { timeoutMs })}`, { cause: err });
  }
}
