/**
 * The harness's side of "one run per target" (harness/service/target-lease.ts),
 * against a stand-in control client: it waits for another run's lease and then
 * refuses naming the holder, renews and gives back its own, and tells the resets
 * it made from those someone else made.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlClient, LeaseAnswer } from '../../../harness/wire/control-client.js';
import { countOwnReset, guardTarget, leaseWaitMs, OWN_RESETS_FILE } from '../../../harness/service/target-lease.js';
import { currentRunGuard } from '../../../harness/run/run-guard.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('target-lease');
});
afterAll(() => removeTmpDir(dir));

/** A target's control interface as far as the guard sees it. */
function fakeControl(opts: { lease: 'absent' | 'free' | string; resets?: number | undefined; freeAfter?: number }) {
  const calls: string[] = [];
  let holder = opts.lease === 'absent' || opts.lease === 'free' ? null : opts.lease;
  let asked = 0;
  const state = { resets: opts.resets };
  const control = {
    async lease(runId: string): Promise<LeaseAnswer> {
      calls.push(`lease ${runId}`);
      if (opts.lease === 'absent') return { status: 'absent' };
      asked++;
      if (holder && opts.freeAfter !== undefined && asked > opts.freeAfter) holder = null;
      if (holder && holder !== runId) return { status: 'held', heldBy: holder, expiresAt: '2026-11-26T08:00:00.000Z' };
      holder = runId;
      return { status: 'taken', expiresAt: '2026-11-26T08:00:00.000Z' };
    },
    async releaseLease(runId: string) {
      calls.push(`release ${runId}`);
      if (holder === runId) holder = null;
    },
    async fixtures() {
      return { users: [], locks: [], ...(state.resets !== undefined ? { resets: state.resets } : {}) };
    },
  };
  return { control: control as unknown as ControlClient, calls, state };
}

const quiet = () => {};

describe('the run lease', () => {
  it('a free target: the lease is taken, renewed while the run goes on, and given back at the end', async () => {
    const { control, calls } = fakeControl({ lease: 'free', resets: 0 });
    const guard = await guardTarget({ control, runDir: dir, env: {}, log: quiet, runId: 'me', ttlMs: 900 });
    expect(currentRunGuard()).toBe(guard);
    await expect.poll(() => calls.filter((c) => c === 'lease me').length, { timeout: 5000, interval: 50 }).toBeGreaterThan(1);
    await guard.close();
    expect(calls.at(-1)).toBe('release me');
    expect(currentRunGuard()).toBeNull();
  });

  it('a target another run holds: waits, and takes it once it is free', async () => {
    const { control } = fakeControl({ lease: 'ci-job-7', resets: 0, freeAfter: 2 });
    const lines: string[] = [];
    const guard = await guardTarget({ control, runDir: dir, env: { LOCKCONF_LEASE_WAIT_MS: '5000' }, log: (l) => lines.push(l), runId: 'me', pollMs: 10 });
    expect(lines.join('\n')).toMatch(/in use by another run \(ci-job-7, lease until 2026-11-26T08:00:00.000Z\); waiting up to 5 s/);
    await guard.close();
  });

  it('a target another run keeps past the wait: ERR_TARGET_BUSY naming the holder', async () => {
    const { control } = fakeControl({ lease: 'ci-job-7' });
    await expect(guardTarget({ control, runDir: dir, env: { LOCKCONF_LEASE_WAIT_MS: '50' }, log: quiet, runId: 'me', pollMs: 10 }))
      .rejects.toMatchObject({ code: 'ERR_TARGET_BUSY', message: expect.stringContaining('ci-job-7 holds its lease until 2026-11-26T08:00:00.000Z') });
  });

  it('LOCKCONF_LEASE_WAIT_MS: milliseconds, 0 refuses at once; anything else is a profile error', () => {
    expect(leaseWaitMs({})).toBe(60_000);
    expect(leaseWaitMs({ LOCKCONF_LEASE_WAIT_MS: '0' })).toBe(0);
    expect(() => leaseWaitMs({ LOCKCONF_LEASE_WAIT_MS: 'soon' })).toThrow(/LOCKCONF_LEASE_WAIT_MS must be an integer/);
  });
});

describe('interference without the lease', () => {
  it('as many resets as the run made itself: nothing to report', async () => {
    const runDir = await makeTmpDir('own-resets');
    const { control, state } = fakeControl({ lease: 'absent', resets: 10 });
    const guard = await guardTarget({ control, runDir, env: {}, log: quiet });
    for (let i = 0; i < 3; i++) await countOwnReset(runDir);
    state.resets = 13;
    expect(await guard.interference()).toBeNull();
    await guard.close();
    await removeTmpDir(runDir);
  });

  it('more resets than its own: someone else reset the target under the run', async () => {
    const runDir = await makeTmpDir('other-resets');
    await writeFile(join(runDir, OWN_RESETS_FILE), '.....'); // left by an earlier run in the same folder: not counted
    const { control, state } = fakeControl({ lease: 'absent', resets: 4 });
    const guard = await guardTarget({ control, runDir, env: {}, log: quiet });
    await countOwnReset(runDir);
    state.resets = 7;
    expect(await guard.interference()).toMatch(/reset 2 time\(s\) by someone else during this run \(GET \/fixtures "resets" went from 4 to 7; this run reset it 1 time\(s\)\)/);
    await guard.close();
    await removeTmpDir(runDir);
  });

  it('a target with neither the lease nor the count: one line says a second run would go unnoticed', async () => {
    const { control } = fakeControl({ lease: 'absent' });
    const lines: string[] = [];
    const guard = await guardTarget({ control, runDir: dir, env: {}, log: (l) => lines.push(l) });
    expect(lines).toEqual([expect.stringContaining('would go unnoticed')]);
    expect(await guard.interference()).toBeNull();
    await guard.close();
  });
});
