/**
 * Any target, however broken, gets a report. A target whose answers run to
 * gigabytes (generated lazily on loopback, never held in memory) is read up to
 * the cap (8 MiB) and no further: the requirement that met it fails with
 * "body larger than 8 MiB, not read", the run writes its report and verdict,
 * and the memory of the whole run (the command and its workers) stays bounded.
 *
 * Each run is a child process; its peak memory is sampled from /proc (Linux).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResult } from '../../harness/report/result-file.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { cli } from '../support/cli.js';
import { GiB, startBrokenTarget, type BrokenTarget } from '../support/huge-body.js';
import { available as rssAvailable, watchPeakRss } from '../support/rss.js';
import { targetEnv } from '../support/target-env.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

/** Far below the 4 GiB bodies, far above a run's own needs (a normal run: a few hundred MiB). */
const MEMORY_BOUND = 1.5 * GiB;

let dir: string;

beforeAll(async () => {
  dir = await makeTmpDir('cli-broken-target');
});
afterAll(async () => {
  await removeTmpDir(dir);
});

/** A run against `mock` behind a broken proxy; its result, exit, output, and the peak memory of its process tree. */
async function runAgainst(mock: RunningMock, target: BrokenTarget, name: string, only: string) {
  const out = join(dir, name);
  const proxied = { ...mock.profile, authUrl: `${target.url}/oauth`, baseUrl: `${target.url}/api` };
  let watch: { stop(): number } | null = null;
  const r = await cli(
    ['conformance', '--out', out, '--no-allure', '--only', only],
    { ...targetEnv(proxied), LOCKCONF_CONTROL_URL: mock.profile.controlUrl!, LOCKCONF_CONTROL_TOKEN: mock.profile.controlToken! },
    { onSpawn: (pid) => (watch = watchPeakRss(pid)) },
  );
  const peak = (watch as { stop(): number } | null)?.stop() ?? 0;
  const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
  return { r, out, result, peak };
}

const huge = [
  { where: 'the token endpoint', name: 'token', only: 'TOKEN-RESPONSE-JSON', path: '/oauth/access_token', contentLength: false, words: 'body larger than 8 MiB, not read' },
  { where: 'an API endpoint (a Content-Length of 4 GiB)', name: 'api', only: 'HEADERS-INVALID-TOKEN-401', path: '/api/users/me', contentLength: true, words: 'body larger than 8 MiB, not read' },
  { where: 'a webhook delivery to the capture server', name: 'delivery', only: 'DELIVERY-CONTENT-TYPE', path: null, contentLength: false, words: 'body larger than 1 MiB, not read' },
];

describe('an answer or a delivery of 4 GiB is read up to the cap, and the run reports', () => {
  for (const c of huge) {
    it.concurrent(`${c.where}: the requirement fails with "${c.words}", the report and verdict exist, memory stays bounded`, { timeout: 180_000 }, async ({ expect }) => {
      // A mock of its own: runs at the same time against one target would reset each other's state.
      const mock = await createMock();
      const target = await startBrokenTarget(
        mock.url,
        (req) => (c.path && req.url?.startsWith(c.path) ? { bytes: 4 * GiB, contentLength: c.contentLength } : null),
        { hugeDeliveries: c.path === null },
      );
      try {
        const { r, out, result, peak } = await runAgainst(mock, target, c.name, c.only);
        expect(r.code, r.stdout + r.stderr).toBe(1);
        expect(r.stdout + r.stderr).not.toMatch(/FATAL ERROR|heap out of memory|\n\s+at /);
        expect(['not-conformant', 'partial']).toContain(result.verdict);
        const failed = result.requirements.find((q) => q.id === c.only);
        expect(failed?.status).toBe('failed');
        expect(JSON.stringify(result.tests)).toContain(c.words);
        for (const file of ['index.html', 'junit.xml']) expect(existsSync(join(out, file))).toBe(true);
        // The reader stopped at the cap: a small part of the body was ever produced.
        expect(target.hugeBytesSent()).toBeLessThan(GiB);
        if (rssAvailable) expect(peak).toBeLessThan(MEMORY_BOUND);
      } finally {
        await target.close();
        await mock.close();
      }
    });
  }
});
