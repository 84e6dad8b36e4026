/**
 * The fixtures every target provides (control-protocol.md, GET /fixtures): at least
 * two users and two locks; the first user owns both locks; the second user is a
 * guest on the first lock. Tests that need a lock with a particular device pick it
 * here, and end as not tested when the target has none.
 */
import type { FixtureLock, FixtureUser, Fixtures } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';

export function fixtures(t: SuiteContext): Fixtures {
  const f = t.target.fixtures;
  if (!f || f.users.length === 0 || f.locks.length === 0) {
    t.notTested('the target profile names no fixtures (users and locks)');
  }
  return f;
}

/** fixtures.users[index]: 0 is the owner of the locks, 1 a guest on locks[0]. */
export function user(t: SuiteContext, index = 0): FixtureUser {
  const u = fixtures(t).users[index];
  if (!u) t.notTested(`the fixtures have no user #${index}`);
  return u;
}

/** fixtures.locks[0]: owned by users[0], with users[1] as a guest. */
export function firstLock(t: SuiteContext): FixtureLock {
  return fixtures(t).locks[0]!;
}

/** The first lock that has a device, or not tested. */
export function lockWith(t: SuiteContext, what: 'keypad' | 'doorSensor' | 'builtInKeypad' | 'bridgeId'): FixtureLock {
  const lock = fixtures(t).locks.find((l) => Boolean(l[what]));
  if (!lock) t.notTested(`no fixture lock has ${what === 'bridgeId' ? 'a bridge' : `a ${what}`}`);
  return lock;
}

/**
 * The fixture lock with that kind of keypad (slice dimension `keypad`): `separate` (GET /fixtures `keypad`)
 * or `built-in` (`builtInKeypad`); else not tested.
 */
export function lockWithKeypad(t: SuiteContext, kind: string): FixtureLock {
  const flag = kind === 'built-in' ? 'builtInKeypad' : 'keypad';
  const lock = fixtures(t).locks.find((l) => Boolean(l[flag]));
  if (!lock) t.notTested(`no fixture lock has a ${kind} keypad (GET /fixtures: ${flag})`);
  return lock;
}

/** Lock IDs are hex identifiers: compare them without regard to case. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}
