/**
 * What the lock-event tests share: the capabilities a triggered row needs, and the checks
 * that a payload names the lock the event happened on and the user who acted.
 */
import type { Capability } from '../../harness/catalog/index.js';
import type { SuiteContext } from '../support/context.js';
import { LOOPING_TEST_TIMEOUT_MS } from '../support/deliveries.js';
import { sameId } from '../support/fixtures.js';

/** What every triggered event row needs: a user to register, an inbox, and the control protocol's events. */
export const needs = (): { needs: Capability[] } => ({ needs: ['user-token', 'capture', 'events'] });
/** The same, for rows that loop over several values, each waiting for its delivery. */
export const needsLooping = (): { needs: Capability[]; timeout: number } => ({ ...needs(), timeout: LOOPING_TEST_TIMEOUT_MS });

export function expectLock(t: SuiteContext, got: unknown, lockId: string, row: string): void {
  t.expect(sameId(got, lockId), `${row}: LockID must be the lock the event happened on (${lockId}); got ${JSON.stringify(got)}`).toBe(true);
}

export function expectUser(t: SuiteContext, got: unknown, userId: string, row: string, role = 'acting user'): void {
  t.expect(sameId(got, userId), `${row}: User.UserID must be the ${role} (${userId}); got ${JSON.stringify(got)}`).toBe(true);
}
