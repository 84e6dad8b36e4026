/**
 * This machine's lease on a target (harness/service/local-lease.ts): two runs on
 * one machine against one target never share it, whatever the target offers. A
 * second run waits for the first, then refuses naming its process; a lease left by
 * a process that is gone is taken over; another target is another lease.
 */
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localLeaseFile, takeLocalLease } from '../../../harness/service/local-lease.js';
import { guardTarget } from '../../../harness/service/target-lease.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let dir = '';
let env: NodeJS.ProcessEnv = {};
beforeAll(async () => {
  dir = await makeTmpDir('local-lease');
  env = { LOCKCONF_LEASE_DIR: dir };
});
afterAll(() => removeTmpDir(dir));

const target = { authUrl: 'http://127.0.0.1:4010/oauth', baseUrl: 'http://127.0.0.1:4010/api', controlUrl: 'http://127.0.0.1:4010/_control' };
const quiet = () => {};

describe("this machine's lease on a target", () => {
  it('a second run waits up to the limit, then refuses with ERR_TARGET_BUSY naming the process that holds it', async () => {
    const first = await takeLocalLease({ target, runId: 'first', env, waitMs: 1000, log: quiet });
    try {
      const lines: string[] = [];
      await expect(takeLocalLease({ target, runId: 'second', env, waitMs: 100, log: (l) => lines.push(l), pollMs: 10 }))
        .rejects.toMatchObject({ code: 'ERR_TARGET_BUSY', message: expect.stringContaining(`another lockconf run on this machine is running against ${target.baseUrl} (process ${process.pid}, first`) });
      expect(lines.join('\n')).toContain('in use by another lockconf run on this machine');
    } finally {
      await first.release();
    }
  });

  it('a waiting run goes on once the first gives its lease back', async () => {
    const first = await takeLocalLease({ target, runId: 'first', env, waitMs: 1000, log: quiet });
    const second = takeLocalLease({ target, runId: 'second', env, waitMs: 10_000, log: quiet, pollMs: 10 });
    await new Promise((r) => setTimeout(r, 50));
    await first.release();
    await (await second).release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('is keyed by the target\'s URLs, however spelled: another target is another lease', async () => {
    expect(localLeaseFile({ ...target, baseUrl: 'http://127.0.0.1:4010/api/' }, env)).toBe(localLeaseFile(target, env));
    expect(localLeaseFile({ ...target, baseUrl: 'http://127.0.0.1:4011/api' }, env)).not.toBe(localLeaseFile(target, env));
    const a = await takeLocalLease({ target, runId: 'a', env, waitMs: 0, log: quiet });
    const b = await takeLocalLease({ target: { ...target, baseUrl: 'http://127.0.0.1:4011/api' }, runId: 'b', env, waitMs: 0, log: quiet });
    await a.release();
    await b.release();
  });

  it('takes over a lease left by a process that is gone', async () => {
    const gone = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    await writeFile(localLeaseFile(target, env), JSON.stringify({ runId: 'killed', pid: gone, startedAt: '2026-12-01T00:00:00.000Z', baseUrl: target.baseUrl }));
    const lease = await takeLocalLease({ target, runId: 'next', env, waitMs: 0, log: quiet });
    await lease.release();
  });

  it("a run's guard names it: a target without control has this machine's lease only", async () => {
    const guard = await guardTarget({ control: null, target, runDir: dir, env, log: quiet });
    try {
      expect(guard.guards?.()).toEqual(['local-lease']);
      await expect(takeLocalLease({ target, runId: 'other', env, waitMs: 0, log: quiet })).rejects.toMatchObject({ code: 'ERR_TARGET_BUSY' });
    } finally {
      await guard.close();
    }
    await (await takeLocalLease({ target, runId: 'after', env, waitMs: 0, log: quiet })).release();
  });
});
