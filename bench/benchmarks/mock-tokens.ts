/**
 * The mock's token endpoint under load: authorization_code (the control
 * protocol's consent, then the code exchange) and refresh_token chains (each
 * chain strictly sequential, since a refresh token is single use; several
 * chains side by side).
 */
import { createMock } from '../../mock/server.js';
import type { Benchmark } from '../benchmark.js';
import { loopMetrics } from '../latency-metrics.js';
import { runLoad, timed } from '../load.js';
import { MockFlows, type TokenPair } from '../mock-flows.js';

const CONCURRENCY = 8;

export const mockTokens: Benchmark = {
  name: 'mock-tokens',
  title: 'mock token endpoint: code flows (consent + exchange) and refresh_token chains, 8 in flight',
  async run(ctx) {
    const mock = await createMock();
    const flows = new MockFlows(mock, CONCURRENCY);
    try {
      await runLoad({ total: 50, concurrency: CONCURRENCY, op: async () => void (await flows.session()) });

      // The latency is the token request's alone; the rate counts whole flows.
      const exchange: number[] = [];
      const codeFlows = ctx.size(1500, 300);
      const code = await runLoad({
        total: codeFlows,
        concurrency: CONCURRENCY,
        op: async () => {
          const issued = await flows.authorizationCode();
          exchange.push((await timed(() => flows.exchangeCode(issued))).ms);
        },
      });
      ctx.log(`code flows: ${codeFlows} in ${Math.round(code.elapsedMs)} ms`);

      const chains: TokenPair[] = await Promise.all(Array.from({ length: CONCURRENCY }, () => flows.session()));
      const refreshes = ctx.size(3000, 500);
      const refresh = await runLoad({
        total: refreshes,
        concurrency: CONCURRENCY,
        op: async (_i, worker) => {
          chains[worker] = await flows.refresh(chains[worker]!.refreshToken);
        },
      });
      ctx.log(`refreshes: ${refreshes} in ${Math.round(refresh.elapsedMs)} ms`);

      return [
        ...loopMetrics('mock-tokens.code-flow', {
          count: codeFlows,
          elapsedMs: code.elapsedMs,
          latencies: exchange,
          rateUnit: 'flows/s',
          goals: { rate: null },
        }),
        ...loopMetrics('mock-tokens.refresh', {
          count: refreshes,
          elapsedMs: refresh.elapsedMs,
          latencies: refresh.latencies,
          rateUnit: 'req/s',
          goals: { rate: null },
        }),
      ];
    } finally {
      await flows.close();
      await mock.close();
    }
  },
};
