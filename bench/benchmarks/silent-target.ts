/**
 * A target whose webhooks never arrive (the embedded mock with MockOptions.deliveries=false):
 * the webhook suites' tests phase against the harness's full delivery wait. Its first expected
 * delivery is waited for in full, every later wait is shortened (suites/support/arrival-watch.ts):
 * issue 36's goal is the webhook suites within 30 s, twice the full wait. The verdicts
 * themselves are test/harness/silent-target.test.ts's.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DELIVERY_WAIT_MS } from '../../harness/run/weakening.js';
import type { Benchmark } from '../benchmark.js';
import { runChild } from '../child.js';
import { atMost, compared } from '../result.js';
import { BenchError, mask } from '../safe-error.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 140_000;
/** The requirements of the webhook suites (suites/leased.test.ts). */
const WEBHOOK_SUITES = ['WEBHOOK-*', 'DELIVERY-*', 'EVENT-*', 'SIGNATURE-*'];

export const silentTarget: Benchmark = {
  name: 'silent-target',
  title: 'the webhook suites against a target whose webhooks never arrive: their tests phase against the full delivery wait',
  async run(ctx) {
    const out = await mkdtemp(join(tmpdir(), 'lockconf-bench-silent-'));
    try {
      const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOCKCONF_'))), LOCKCONF_MOCK_OPTIONS: JSON.stringify({ deliveries: false }) };
      const args = ['bin/lockconf.js', 'conformance', '--out', out, '--no-allure', '--no-sign-in', ...WEBHOOK_SUITES.flatMap((id) => ['--only', id])];
      const outcome = await runChild(process.execPath, args, { cwd: ROOT, timeoutMs: TIMEOUT_MS, env });
      if (outcome.timedOut) throw new BenchError(`the silent run did not finish within ${TIMEOUT_MS / 1000} s`);
      let json: { counts?: Record<string, number>; timings?: { phases?: Array<{ name: string; ms: number }> } };
      try {
        json = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as typeof json;
      } catch {
        throw new BenchError(`the silent run wrote no conformance.json (exit ${outcome.code ?? outcome.signal}): ${mask(outcome.tail).trim().split('\n').slice(-3).join(' | ')}`);
      }
      const testsMs = json.timings?.phases?.find((p) => p.name === 'tests')?.ms;
      if (testsMs === undefined) throw new BenchError('the silent run\'s conformance.json has no tests phase');
      const c = json.counts ?? {};
      ctx.log(`silent target: tests phase ${(testsMs / 1000).toFixed(1)} s (full wait ${DEFAULT_DELIVERY_WAIT_MS / 1000} s); ${c.failed ?? 0} failed, ${c.blocked ?? 0} blocked, ${c.notTested ?? 0} not tested`);
      return [compared('silent-target.webhook-suites', { value: testsMs / 1000, unit: 's' }, { value: DEFAULT_DELIVERY_WAIT_MS / 1000, unit: 's', what: 'the full delivery wait' }, atMost(2))];
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  },
};
