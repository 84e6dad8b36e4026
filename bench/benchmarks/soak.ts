/**
 * A bounded soak (issue 13): mixed load on the mock for a fixed time (code
 * grants, refreshes, API calls with rotation, status checks that deliver
 * webhooks), with the heap sampled after a full gc at regular points. Reports
 * the heap's slope over the second half (MiB per 1,000 operations, by least
 * squares) and the ratio of the last sample to the first one after warm-up;
 * both must stay flat. Length: LOCKCONF_SOAK_MS (default 40 s, 15 s with --quick,
 * at most 5 minutes).
 */
import { createMock } from '../../mock/server.js';
import type { Benchmark, BenchContext } from '../benchmark.js';
import { snapshot } from '../memory.js';
import { MockFlows, type TokenPair } from '../mock-flows.js';
import { startReceiver } from '../receiver.js';
import { atMost, metric } from '../result.js';

const CONCURRENCY = 8;
const SAMPLES = 8;
const MAX_SOAK_MS = 5 * 60_000;

function soakMs(ctx: BenchContext): number {
  const asked = Number(process.env.LOCKCONF_SOAK_MS);
  const ms = Number.isFinite(asked) && asked > 0 ? asked : ctx.size(40_000, 15_000);
  return Math.min(ms, MAX_SOAK_MS);
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

export const soak: Benchmark = {
  name: 'soak',
  title: 'mock soak: mixed load for a fixed time, heap slope and growth ratio after a full gc (LOCKCONF_SOAK_MS)',
  async run(ctx: BenchContext) {
    const receiver = await startReceiver();
    const mock = await createMock();
    const flows = new MockFlows(mock, CONCURRENCY);
    const total = soakMs(ctx);
    let ops = 0;
    try {
      const chains: TokenPair[] = await Promise.all(Array.from({ length: CONCURRENCY }, () => flows.session()));
      await flows.registerLockWebhook(chains[0]!.accessToken, receiver.url);
      const tokens = chains.map((c) => c.accessToken);
      const deadline = performance.now() + total;
      const samples: Array<[number, number]> = [];
      const sampleEvery = total / SAMPLES;
      let nextSample = performance.now() + sampleEvery;
      const worker = async (w: number) => {
        while (performance.now() < deadline) {
          switch (ops % 4) {
            case 0: chains[w] = await flows.refresh(chains[w]!.refreshToken); break;
            case 1: tokens[w] = await flows.me(tokens[w]!); break;
            case 2: tokens[w] = await flows.statusCheck(tokens[w]!); break;
            default: if (ops % 64 === 3) chains[w] = await flows.session(); else tokens[w] = await flows.me(tokens[w]!);
          }
          ops += 1;
        }
      };
      const sampler = (async () => {
        while (performance.now() < deadline) {
          await new Promise((r) => setTimeout(r, Math.max(0, nextSample - performance.now())));
          nextSample += sampleEvery;
          samples.push([ops, (await snapshot(ctx.gc)).heapUsedMiB]);
        }
      })();
      await Promise.all([...Array.from({ length: CONCURRENCY }, (_, w) => worker(w)), sampler]);
      const events = mock.ctx.events as { idle?: () => Promise<void> };
      await events.idle?.();
      const settled = samples.slice(Math.floor(samples.length / 2));
      const perKiloOps = settled.length >= 2 ? slope(settled) * 1000 : 0;
      const first = settled[0]?.[1] ?? 0;
      const last = settled.at(-1)?.[1] ?? 0;
      const ratio = first > 0 ? last / first : 1;
      ctx.log(`soak ${Math.round(total / 1000)} s, ${ops} operations; heap MiB ${samples.map(([, y]) => y.toFixed(1)).join(' ')}`);
      const gcNote = ctx.gc.mode === 'none' ? '; no gc available: heap figures include garbage' : '';
      return [
        metric('soak.operations', ops, 'ops', null, `${Math.round(total / 1000)} s of mixed load${gcNote}`),
        metric('soak.heap-slope', perKiloOps, 'MiB/kop', atMost(0.05), `least squares over the second half of ${samples.length} samples${gcNote}`),
        metric('soak.heap-growth-ratio', ratio, 'x', atMost(1.25), `last sample / first sample of the second half${gcNote}`),
      ];
    } finally {
      await flows.close();
      await mock.close();
      await receiver.close();
    }
  },
};
