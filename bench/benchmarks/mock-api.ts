/**
 * API calls with access-token rotation: GET /users/me, each call presenting the
 * x-access-token the previous answer handed back (one rotation chain per
 * connection), as an application following the spec does.
 */
import { createMock } from '../../mock/server.js';
import type { Benchmark } from '../benchmark.js';
import { loopMetrics } from '../latency-metrics.js';
import { runLoad } from '../load.js';
import { MockFlows } from '../mock-flows.js';

const CONCURRENCY = 8;

export const mockApi: Benchmark = {
  name: 'mock-api',
  title: 'mock API: GET /users/me with the rotated x-access-token each time, 8 chains',
  async run(ctx) {
    const mock = await createMock();
    const flows = new MockFlows(mock, CONCURRENCY);
    try {
      const { accessToken } = await flows.session();
      const tokens = Array.from({ length: CONCURRENCY }, () => accessToken);
      const call = async (_i: number, worker: number) => {
        tokens[worker] = await flows.me(tokens[worker]!);
      };
      await runLoad({ total: 200, concurrency: CONCURRENCY, op: call });

      const calls = ctx.size(4000, 600);
      const run = await runLoad({ total: calls, concurrency: CONCURRENCY, op: call });
      ctx.log(`API calls: ${calls} in ${Math.round(run.elapsedMs)} ms`);
      return loopMetrics('mock-api.users-me', {
        count: calls,
        elapsedMs: run.elapsedMs,
        latencies: run.latencies,
        rateUnit: 'calls/s',
        goals: { rate: null },
      });
    } finally {
      await flows.close();
      await mock.close();
    }
  },
};
