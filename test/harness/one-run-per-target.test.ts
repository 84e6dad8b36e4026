/**
 * Issue 20, "two runs against one target at once": each run's resets wiped the
 * other's state and a conforming target was reported NOT CONFORMANT. Against a
 * running mock (as `npm run mock` serves it), through the command line:
 * - with the run lease (docs/control-protocol-extensions.md), a second run waits
 *   for the first, or refuses with exit 2 naming the holder;
 * - without it, the reset count in GET /fixtures shows the other run, and the
 *   verdict is *interfered* (exit 1), never a list of failures;
 * - two runs on one machine take this machine's lease on the target first: the
 *   second waits, lease or not (issue 35).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ConformanceResult } from '../../harness/report/result-file.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { cli, startCli } from '../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

/** A small scope that resets the target before each of its tests: long enough for resets from outside to land during it. */
const SCOPE = ['--only', 'HEADERS-*', '--no-allure'];
/**
 * A smaller one (a few short tests, each after a reset), where the point is the lease, two runs
 * started at once (the lease is taken before the first test, so the second waits however short
 * the first is), or a run alone. Each run of the command costs seconds of CPU before its first test.
 */
const SHORT_SCOPE = ['--only', 'HEADERS-API-KEY,HEADERS-MISSING-TOKEN-401,HEADERS-EXPIRED-TOKEN-401', '--no-allure'];

let dir = '';
let leased: RunningMock;
let unleased: RunningMock;

async function profileFile(mock: RunningMock, name: string): Promise<string> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(mock.profile), { mode: 0o600 });
  return file;
}

async function control(mock: RunningMock, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${mock.profile.controlUrl}${path}`, {
    method,
    headers: { 'x-control-token': mock.profile.controlToken!, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

async function verdictOf(out: string): Promise<ConformanceResult> {
  return JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
}

beforeAll(async () => {
  dir = await makeTmpDir('one-run-per-target');
  leased = await createMock({ deliveryTimeoutMs: 1000 });
  unleased = await createMock({ deliveryTimeoutMs: 1000, lease: false });
});
afterAll(async () => {
  await leased?.close();
  await unleased?.close();
  await removeTmpDir(dir);
});

describe('a target with the run lease', { timeout: 240_000 }, () => {
  it('a run refuses with exit 2 and names the holder while another run holds the lease past the wait', async ({ expect }) => {
    const held = await control(leased, 'POST', '/lease', { runId: 'other-run-on-ci-42', ttlMs: 60_000 });
    expect(held.status).toBe(200);
    try {
      const out = join(dir, 'refused');
      const r = await cli(['conformance', '--target', await profileFile(leased, 'leased'), '--out', out, ...SHORT_SCOPE], { LOCKCONF_LEASE_WAIT_MS: '1000' });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('ERR_TARGET_BUSY');
      expect(r.stderr).toContain('other-run-on-ci-42');
      expect(r.stdout + r.stderr).toContain('waiting up to 1 s'); // the wait it was given, then the refusal
      expect((await verdictOf(out)).verdict).toBe('error');
    } finally {
      expect((await control(leased, 'DELETE', '/lease/other-run-on-ci-42')).status).toBe(204);
    }
  });

  it('a run waits while another holds the lease, and goes on once it is given back', async ({ expect }) => {
    expect((await control(leased, 'POST', '/lease', { runId: 'other-run-on-ci-43', ttlMs: 60_000 })).status).toBe(200);
    const out = join(dir, 'waited');
    const run = startCli(['conformance', '--target', await profileFile(leased, 'leased-wait'), '--out', out, ...SHORT_SCOPE], { LOCKCONF_LEASE_WAIT_MS: '180000' });
    await expect.poll(() => run.output(), { timeout: 120_000, interval: 100 }).toContain('in use by another run (other-run-on-ci-43');
    expect(run.output()).not.toMatch(/ 1 of \d+ /); // no test ran while the other run held the target
    expect((await control(leased, 'DELETE', '/lease/other-run-on-ci-43')).status).toBe(204);
    const r = await run.done;
    expect(r.code, r.stdout.slice(-1500) + r.stderr).toBe(0);
    expect((await verdictOf(out)).verdict).toBe('partial');
  });

  it('two runs started at once both end clean: one waits for the other, they never share the target', async ({ expect }) => {
    const file = await profileFile(leased, 'leased-two');
    const env = { LOCKCONF_LEASE_WAIT_MS: '180000' };
    const [a, b] = [
      startCli(['conformance', '--target', file, '--out', join(dir, 'two-a'), ...SHORT_SCOPE], env),
      startCli(['conformance', '--target', file, '--out', join(dir, 'two-b'), ...SHORT_SCOPE], env),
    ];
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stdout.slice(-1500) + ra.stderr).toBe(0);
    expect(rb.code, rb.stdout.slice(-1500) + rb.stderr).toBe(0);
    // At most one found the target taken and waited (none, when one ended before the other began).
    expect([ra, rb].filter((r) => /in use by another run \(lockconf-/.test(r.stdout + r.stderr)).length).toBeLessThanOrEqual(1);
    for (const out of ['two-a', 'two-b']) {
      const result = await verdictOf(join(dir, out));
      expect(result.verdict).toBe('partial');
      expect(result.counts.failed).toBe(0);
    }
    // Both gave the lease back.
    const again = await control(leased, 'POST', '/lease', { runId: 'after-both', ttlMs: 1000 });
    expect(again.status).toBe(200);
    await control(leased, 'DELETE', '/lease/after-both');
  });
});

describe('a target without the run lease', { timeout: 240_000 }, () => {
  it('another run\'s resets during the run make the verdict "interfered" (exit 1), not failures', async ({ expect }) => {
    expect((await control(unleased, 'POST', '/lease', { runId: 'x', ttlMs: 1000 })).status).toBe(404);
    const out = join(dir, 'interfered');
    const run = startCli(['conformance', '--target', await profileFile(unleased, 'unleased'), '--out', out, ...SCOPE]);
    let ended = false;
    void run.done.then(() => (ended = true));
    // Another run, as far as the target can tell: resets while this one's tests go on.
    await expect.poll(() => /^ *1 of \d+ /m.test(run.output()) || ended, { timeout: 120_000, interval: 50 }).toBe(true);
    while (!ended) {
      await control(unleased, 'POST', '/reset');
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = await run.done;
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(1);
    const result = await verdictOf(out);
    expect(result.verdict).toBe('interfered');
    expect(result.interference).toMatch(/reset \d+ time\(s\) by someone else/);
    expect(r.stdout).toMatch(/^verdict: INTERFERED/m);
  });

  it('two runs started at once on this machine: one waits for the other (this machine\'s lease), neither is NOT CONFORMANT', async ({ expect }) => {
    const file = await profileFile(unleased, 'unleased-two');
    const env = { LOCKCONF_LEASE_WAIT_MS: '180000', LOCKCONF_LEASE_DIR: join(dir, 'leases') };
    const [a, b] = [
      startCli(['conformance', '--target', file, '--out', join(dir, 'unleased-two-a'), ...SHORT_SCOPE], env),
      startCli(['conformance', '--target', file, '--out', join(dir, 'unleased-two-b'), ...SHORT_SCOPE], env),
    ];
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stdout.slice(-1500) + ra.stderr).toBe(0);
    expect(rb.code, rb.stdout.slice(-1500) + rb.stderr).toBe(0);
    expect([ra, rb].filter((r) => /in use by another lockconf run on this machine/.test(r.stdout + r.stderr)).length).toBeLessThanOrEqual(1);
    for (const out of ['unleased-two-a', 'unleased-two-b']) {
      const result = await verdictOf(join(dir, out));
      expect(result.verdict).toBe('partial');
      expect(result.counts.failed).toBe(0);
      expect(result.guards).toEqual(['local-lease', 'reset-count']);
    }
  });

  it('a run alone against it is not taken for interfered', async ({ expect }) => {
    const out = join(dir, 'alone');
    const r = await cli(['conformance', '--target', await profileFile(unleased, 'unleased-alone'), '--out', out, ...SHORT_SCOPE]);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    expect((await verdictOf(out)).verdict).toBe('partial');
  });
});
