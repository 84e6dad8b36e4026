/**
 * The mock's memory under a long run: heap after a warm-up, after N refreshes
 * and after N webhook deliveries, each taken after a full collection. The
 * growth shows what the mock keeps per operation (used refresh tokens are
 * remembered so a reuse is answered 400; delivery attempts are capped), so an
 * unbounded leak stands out against the bound.
 */
import { createMock } from '../../mock/server.js';
import type { Benchmark, BenchContext } from '../benchmark.js';
import { runLoad } from '../load.js';
import { snapshot } from '../memory.js';
import { MockFlows, type TokenPair } from '../mock-flows.js';
import { startReceiver, type Receiver } from '../receiver.js';
import { atMost, metric } from '../result.js';

const CONCURRENCY = 8;
const MIB = 1024 * 1024;

async function refreshes(flows: MockFlows, chains: TokenPair[], total: number): Promise<void> {
  await runLoad({
    total,
    concurrency: chains.length,
    op: async (_i, worker) => {
      chains[worker] = await flows.refresh(chains[worker]!.refreshToken);
    },
  });
}

async function deliveries(flows: MockFlows, receiver: Receiver, tokens: string[], total: number): Promise<void> {
  const target = receiver.count() + total;
  await runLoad({
    total,
    concurrency: tokens.length,
    op: async (_i, worker) => {
      tokens[worker] = await flows.statusCheck(tokens[worker]!);
    },
  });
  await receiver.waitForCount(target, 15_000);
}

export const mockMemory: Benchmark = {
  name: 'mock-memory',
  title: 'mock memory: heap growth over N refreshes and N webhook deliveries, after a full gc',
  async run(ctx: BenchContext) {
    const receiver = await startReceiver();
    const mock = await createMock();
    const flows = new MockFlows(mock, CONCURRENCY);
    const idle = async () => {
      const events = mock.ctx.events as { idle?: () => Promise<void> };
      if (typeof events.idle === 'function') await events.idle();
    };
    try {
      const chains = await Promise.all(Array.from({ length: CONCURRENCY }, () => flows.session()));
      const registered = await flows.registerLockWebhook(chains[0]!.accessToken, receiver.url);
      const tokens = Array.from({ length: CONCURRENCY }, () => registered);

      await refreshes(flows, chains, 500);
      await deliveries(flows, receiver, tokens, 500);
      await idle();
      const warm = await snapshot(ctx.gc);

      const n = ctx.size(5000, 2000);
      await refreshes(flows, chains, n);
      const afterRefresh = await snapshot(ctx.gc);
      await deliveries(flows, receiver, tokens, n);
      await idle();
      const afterDelivery = await snapshot(ctx.gc);

      const refreshGrowth = afterRefresh.heapUsedMiB - warm.heapUsedMiB;
      const deliveryGrowth = afterDelivery.heapUsedMiB - afterRefresh.heapUsedMiB;
      ctx.log(`heap MiB: warm ${warm.heapUsedMiB.toFixed(1)}, after ${n} refreshes ${afterRefresh.heapUsedMiB.toFixed(1)}, after ${n} deliveries ${afterDelivery.heapUsedMiB.toFixed(1)}`);
      const gcNote = ctx.gc.mode === 'none' ? '; no gc available: heap figures include garbage' : '';
      return [
        metric('mock-memory.heap-warm', warm.heapUsedMiB, 'MiB', null, `after 500 refreshes and 500 deliveries${gcNote}`),
        metric('mock-memory.heap-growth-refreshes', refreshGrowth, 'MiB', atMost(5), `${n} refreshes${gcNote}`),
        metric('mock-memory.retained-per-refresh', (refreshGrowth * MIB) / n, 'B', atMost(1024), `used refresh tokens are kept${gcNote}`),
        metric('mock-memory.heap-growth-deliveries', deliveryGrowth, 'MiB', atMost(6), `${n} deliveries${gcNote}`),
        metric('mock-memory.rss-after', afterDelivery.rssMiB, 'MiB', atMost(300), 'the whole bench process'),
      ];
    } finally {
      await flows.close();
      await mock.close();
      await receiver.close();
    }
  },
};
