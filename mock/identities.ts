/**
 * Stable identities for development: with a seed, the mock derives its client
 * ID, client secret, API key, control token, user IDs and lock IDs from it, so
 * every start with the same seed looks the same to an application (stored
 * client configuration, lock IDs in a database, webhook URLs keep working).
 *
 * Each value is SHA-256 over "lockconf-mock|<seed>|<label>": deterministic,
 * independent of the order values are derived in, and unrelated between seeds.
 * Values given explicitly (MockOptions.credentials) win over derived ones.
 */
import { createHash } from 'node:crypto';
import type { Credentials, MockContext } from './context.js';

/** The largest seed accepted (the CLI's --seed range). */
export const MAX_IDENTITY_SEED = 2 ** 31 - 1;

/** `bytes` deterministic bytes for one label of one seed. */
export function derivedBytes(seed: number, label: string, bytes: number): Buffer {
  const out: Buffer[] = [];
  for (let block = 0; out.length * 32 < bytes; block++) {
    out.push(createHash('sha256').update(`lockconf-mock|${seed}|${label}|${block}`).digest());
  }
  return Buffer.concat(out).subarray(0, bytes);
}

/** A version-4-shaped UUID (lower case, as the mock's user IDs are) from derived bytes. */
function derivedUuid(seed: number, label: string): string {
  const b = derivedBytes(seed, label, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function derivedHex(seed: number, label: string, lowerCase: boolean): string {
  const hex = derivedBytes(seed, label, 16).toString('hex');
  return lowerCase ? hex : hex.toUpperCase();
}

/** The credentials a seed stands for (the redirect URI is not derived: it follows the address). */
export function seededCredentials(seed: number): Omit<Credentials, 'redirectUri'> {
  checkSeed(seed);
  return {
    clientId: `client-${derivedBytes(seed, 'clientId', 8).toString('hex')}`,
    clientSecret: derivedBytes(seed, 'clientSecret', 32).toString('base64url'),
    apiKey: derivedBytes(seed, 'apiKey', 24).toString('hex'),
    controlToken: derivedBytes(seed, 'controlToken', 32).toString('base64url'),
  };
}

export function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_IDENTITY_SEED) {
    throw new RangeError(`seed must be an integer from 0 to ${MAX_IDENTITY_SEED}`);
  }
}

/**
 * Replaces the random identities of a freshly built context with the seed's:
 * credentials not fixed by the caller, user IDs, lock IDs, bridge IDs and keypad
 * serial numbers. Called once at start-up, before anything refers to them.
 */
export function applyStableIdentities(ctx: MockContext, seed: number, fixed: Partial<Credentials> = {}): void {
  const derived = seededCredentials(seed);
  for (const field of ['clientId', 'clientSecret', 'apiKey', 'controlToken'] as const) {
    if (fixed[field] === undefined) ctx.credentials[field] = derived[field];
  }
  const lower = ctx.options.lowerCaseLockIds;
  const userIds = new Map<string, string>();
  ctx.world.users.forEach((user, i) => {
    const id = derivedUuid(seed, `user:${i}`);
    userIds.set(user.userId, id);
    user.userId = id;
  });
  const bridgeIds = new Map<string, string>();
  ctx.world.locks.forEach((lock, i) => {
    lock.lockId = derivedHex(seed, `lock:${i}`, lower);
    if (!bridgeIds.has(lock.bridgeId)) bridgeIds.set(lock.bridgeId, derivedHex(seed, `bridge:${bridgeIds.size}`, lower));
    lock.bridgeId = bridgeIds.get(lock.bridgeId)!;
    lock.keypadSerialNumber = `KP-${derivedBytes(seed, `keypad:${i}`, 4).toString('hex').toUpperCase()}`;
    lock.ownerUserId = userIds.get(lock.ownerUserId) ?? lock.ownerUserId;
    lock.members = new Map([...lock.members].map(([userId, level]) => [userIds.get(userId) ?? userId, level]));
  });
}
