/** The lock named in a path, when the caller is one of its members; 404 otherwise (never revealing which). */
import type { MockContext } from '../context.js';
import type { MockLock, MockUser } from '../world.js';
import { findLock } from '../events/event-service.js';
import { ApiError } from './errors.js';

export function memberLock(ctx: MockContext, lockId: string, user: MockUser | null): MockLock {
  const lock = findLock(ctx.world.locks, lockId);
  if (!lock || !user || !lock.members.has(user.userId)) {
    throw new ApiError(404, 'lock_not_found', 'no lock with this ID among the caller\'s locks', 'lockID');
  }
  return lock;
}
