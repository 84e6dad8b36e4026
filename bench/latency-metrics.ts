/** The usual figures of a timed loop: rate plus p50/p95/p99, each against its goal. */
import { type Goal, type Metric, metric } from './result.js';
import { perSecond, summarize } from './stats.js';

export interface LoopGoals {
  rate: Goal | null;
  p50?: Goal | null;
  p95?: Goal | null;
  p99?: Goal | null;
}

export function loopMetrics(prefix: string, opts: { count: number; elapsedMs: number; latencies: number[]; rateUnit: string; goals: LoopGoals }): Metric[] {
  const s = summarize(opts.latencies);
  return [
    metric(`${prefix}.rate`, perSecond(opts.count, opts.elapsedMs), opts.rateUnit, opts.goals.rate),
    metric(`${prefix}.p50`, s.p50, 'ms', opts.goals.p50 ?? null),
    metric(`${prefix}.p95`, s.p95, 'ms', opts.goals.p95 ?? null),
    metric(`${prefix}.p99`, s.p99, 'ms', opts.goals.p99 ?? null),
  ];
}
