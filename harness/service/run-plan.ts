/**
 * How the tests of one worker share the target: side by side (each concurrent test
 * leases a fixture set of its own, every other test runs alone) or one after another,
 * as before. Decided once per worker, at collection, from what global setup provided:
 *
 * - concurrent when the fixtures hold at least two sets (fixture-sets.ts) and the target
 *   offers control (a used set is brought back with the control protocol's reset);
 * - sequential otherwise, or when LOCKCONF_SEQUENTIAL=1 asks for it.
 *
 * The gate (harness/run/gate.ts) enforces the rules at run time; vitest's own
 * concurrency (test.concurrent, describe.concurrent, maxConcurrency) schedules.
 */
import type { ControlClientLike, Fixtures, LockconfSetup } from '../contracts.js';
import { fixtureSets } from './fixture-sets.js';

export interface RunPlan {
  concurrent: boolean;
  /** The fixture sets: [0] is what a test that leases nothing sees. */
  sets: Fixtures[];
  /** Why the tests run one after another (null when they do not). */
  sequentialBecause: string | null;
}

export function runPlan(setup: LockconfSetup | null | undefined, env: NodeJS.ProcessEnv = process.env): RunPlan {
  const sets = fixtureSets(setup?.fixtures ?? null);
  const why = !setup
    ? 'no target setup'
    : env.LOCKCONF_SEQUENTIAL === '1'
      ? 'LOCKCONF_SEQUENTIAL=1'
      : !setup.capabilities.includes('control')
        ? 'the target offers no control protocol (a used fixture set could not be reset)'
        : sets.length < 2
          ? 'the fixtures hold one set only (more users and locks, with guestUserIds, let tests run side by side)'
          : null;
  return { concurrent: why === null, sets, sequentialBecause: why };
}

/** Control calls that change what every test shares: a leased test makes them only inside t.exclusive(). */
const SHARED_STATE_CALLS = ['advanceClock', 'resetClock', 'reset', 'setClientCredentials'] as const;

/**
 * The control client of a test that leased a fixture set: a call that would change what
 * the tests running beside it share fails the test loudly (a suite bug), unless made
 * inside t.exclusive() (`alone()` true).
 */
export function leasedControl(inner: ControlClientLike, alone: () => boolean): ControlClientLike {
  const wrapped = Object.create(inner) as ControlClientLike;
  const slots = wrapped as unknown as Record<string, unknown>;
  for (const name of SHARED_STATE_CALLS) {
    const original = inner[name] as (...args: unknown[]) => Promise<unknown>;
    slots[name] = async (...args: unknown[]) => {
      if (!alone()) {
        throw new Error(`control ${name}() in a test that leased a fixture set: other tests run beside it; call it inside t.exclusive(), or declare the test with lease: 'none'`);
      }
      return original.apply(inner, args);
    };
  }
  return wrapped;
}
