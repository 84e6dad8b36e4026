/**
 * Status check and webhook delivery: PUT /remoteoperate/{lockId}/status makes
 * the mock POST a signed status webhook to every listener of the lock; here the
 * one listener is a bare local receiver. Latency is from the status check being
 * sent to the webhook arriving, one at a time; throughput (and the status
 * check's own latency) is with 8 status checks in flight, until the last
 * webhook has arrived.
 */
import { performance } from 'node:perf_hooks';
import { createMock } from '../../mock/server.js';
import type { Benchmark } from '../benchmark.js';
import { loopMetrics } from '../latency-metrics.js';
import { runLoad } from '../load.js';
import { MockFlows } from '../mock-flows.js';
import { startReceiver } from '../receiver.js';
import { metric } from '../result.js';
import { BenchError } from '../safe-error.js';
import { summarize } from '../stats.js';

const CONCURRENCY = 8;

export const mockWebhooks: Benchmark = {
  name: 'mock-webhooks',
  title: 'mock status check → signed webhook at a local receiver: latency one at a time, throughput 8 in flight',
  async run(ctx) {
    const receiver = await startReceiver();
    const mock = await createMock();
    const flows = new MockFlows(mock, CONCURRENCY);
    try {
      let token = (await flows.session()).accessToken;
      token = await flows.registerLockWebhook(token, receiver.url);

      // One at a time: emit → arrival.
      const sequential = ctx.size(400, 100);
      const delivery: number[] = [];
      let unsigned = 0;
      for (let i = 0; i < sequential + 20; i++) {
        const arrived = receiver.waitForCount(receiver.count() + 1);
        const t0 = performance.now();
        token = await flows.statusCheck(token);
        const arrival = await arrived;
        if (!arrival.signed) unsigned++;
        if (i < 20) continue; // warm-up
        delivery.push(arrival.at - t0);
      }
      if (unsigned > 0) throw new BenchError(`${unsigned} webhook(s) arrived without X-Signature`);

      // 8 in flight; the clock stops when the last webhook has arrived.
      const total = ctx.size(3000, 500);
      const before = receiver.count();
      const tokens = Array.from({ length: CONCURRENCY }, () => token);
      const started = performance.now();
      const load = await runLoad({
        total,
        concurrency: CONCURRENCY,
        op: async (_i, worker) => {
          tokens[worker] = await flows.statusCheck(tokens[worker]!);
        },
      });
      const last = await receiver.waitForCount(before + total, 15_000);
      const spanMs = last.at - started;
      ctx.log(`status checks: ${total} in ${Math.round(load.elapsedMs)} ms; last webhook after ${Math.round(spanMs)} ms`);

      const d = summarize(delivery);
      return [
        ...loopMetrics('mock-webhooks.status-check', {
          count: total,
          elapsedMs: load.elapsedMs,
          latencies: load.latencies,
          rateUnit: 'req/s',
          goals: { rate: null },
        }),
        metric('mock-webhooks.delivery.rate', (total * 1000) / spanMs, 'webhooks/s', null),
        metric('mock-webhooks.delivery.p50', d.p50, 'ms', null),
        metric('mock-webhooks.delivery.p95', d.p95, 'ms', null),
        metric('mock-webhooks.delivery.p99', d.p99, 'ms', null),
      ];
    } finally {
      await flows.close();
      await mock.close();
      await receiver.close();
    }
  },
};
