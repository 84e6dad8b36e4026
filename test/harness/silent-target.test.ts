/**
 * A target whose webhooks never arrive (the embedded mock with MockOptions.deliveries=false)
 * is one finding: its first expected delivery is waited for in full, the rest of the run's
 * waits are shortened (suites/support/arrival-watch.ts), and every requirement is reported
 * as before: failed or blocked where a delivery was the check, not tested where there was
 * nothing to judge, each with its reason. How long such a run takes is the bench's
 * (bench/benchmarks/full-run.ts, "silent target"), never a timed test's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResult } from '../../harness/report/result-file.js';
import { cli } from '../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTmpDir('silent-target');
});
afterAll(async () => {
  await removeTmpDir(dir);
});

const ONLY = ['WEBHOOK-LOCK-REGISTER', 'WEBHOOK-LOCK-PER-USER', 'EVENT-OPERATION-APP', 'DELIVERY-CONTENT-TYPE', 'DELIVERY-NO-RETRY', 'DELIVERY-NO-RETRY-UNANSWERED'];

describe('a target whose webhooks never arrive', () => {
  it('fails, blocks or leaves not tested each requirement as before, and says the waits were shortened and why', { timeout: 180_000 }, async () => {
    const out = join(dir, 'run');
    // The full wait shortened for npm test (a weakening, said in the report): only the first wait costs it.
    const r = await cli(['conformance', '--out', out, '--no-allure', ...ONLY.flatMap((id) => ['--only', id])], {
      LOCKCONF_MOCK_OPTIONS: JSON.stringify({ deliveries: false }),
      LOCKCONF_DELIVERY_WAIT_MS: '3000',
    });
    expect(r.code, r.stderr).toBe(1);
    const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
    const status = Object.fromEntries(result.requirements.filter((q) => ONLY.includes(q.id)).map((q) => [q.id, q]));
    expect(status['WEBHOOK-LOCK-REGISTER']?.status).toBe('failed');
    expect(status['WEBHOOK-LOCK-PER-USER']?.status).toBe('failed');
    expect(status['EVENT-OPERATION-APP']?.status).toBe('failed');
    expect(status['DELIVERY-CONTENT-TYPE']?.status).toBe('blocked');
    expect(status['DELIVERY-NO-RETRY']?.status).toBe('not-tested');
    expect(status['DELIVERY-NO-RETRY-UNANSWERED']?.status).toBe('not-tested');
    for (const id of ['WEBHOOK-LOCK-REGISTER', 'EVENT-OPERATION-APP', 'DELIVERY-NO-RETRY']) expect(status[id]?.reason, id).toMatch(/expected|no attempt/);
    // One finding, said once per shortened wait: the first expected delivery, and how long it was waited for.
    const reasons = result.requirements.map((q) => q.reason ?? '').join('\n');
    expect(reasons).toMatch(/the wait was shortened to \d+ ms: the target has delivered nothing in this run: its first expected delivery \(.+\) did not arrive within 3000 ms/);
  });
});
