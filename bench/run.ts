/**
 * npm run bench [-- --only NAME] [--quick] [--list] [--out FILE]
 *
 * Runs the benchmarks on loopback, prints a table (name, value, unit, goal, ok),
 * writes the figures to reports/bench/latest.json. Exit 0 when every goal is
 * met, 1 when one is missed or a benchmark could not finish, 2 on bad usage.
 * Every loop has a fixed count; every server a benchmark starts is closed by it.
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import type { Benchmark, BenchContext } from './benchmark.js';
import { currentLoad, environment, writeReport, type BenchmarkOutcome, type BenchReport } from './bench-report.js';
import { killRunningChildren } from './child.js';
import { obtainGc } from './memory.js';
import { BENCHMARKS } from './registry.js';
import { atLeast, metric } from './result.js';
import { reasonOf } from './safe-error.js';
import { renderTable } from './table.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_OUT = 'reports/bench/latest.json';
/** A benchmark still running after this long is reported as failed (its loops are bounded; this catches a hang). */
const WATCHDOG_MS = 150_000;

interface Options {
  only?: string[];
  quick: boolean;
  list: boolean;
  out: string;
}

function parseArgs(argv: string[]): Options {
  const program = new Command('bench')
    .description('lockconf benchmarks: throughput, latency and memory of the mock, the capture server and the harness')
    .option('--only <name>', 'run only this benchmark; repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--quick', 'smaller loops (a smoke run)', false)
    .option('--list', 'list the benchmarks and exit', false)
    .option('--out <file>', 'results JSON', DEFAULT_OUT)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program.parse(argv, { from: 'user' });
  return program.opts<Options>();
}

function select(only: string[] | undefined): Benchmark[] {
  if (!only?.length) return [...BENCHMARKS];
  const unknown = only.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length) throw new UsageError(`unknown benchmark ${unknown.join(', ')} (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  return BENCHMARKS.filter((b) => only.includes(b.name));
}

class UsageError extends Error {}

function withWatchdog<T>(work: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, watchdog]).finally(() => clearTimeout(timer));
}

async function runOne(bench: Benchmark, ctx: BenchContext): Promise<BenchmarkOutcome> {
  const t0 = performance.now();
  try {
    const metrics = await withWatchdog(bench.run(ctx), WATCHDOG_MS, bench.name);
    return { name: bench.name, title: bench.title, durationMs: Math.round(performance.now() - t0), error: null, metrics };
  } catch (err) {
    const reason = reasonOf(err);
    ctx.log(`${bench.name} FAILED: ${reason}`);
    // A benchmark that could not finish misses its goal: shown in the table as one row.
    return {
      name: bench.name,
      title: bench.title,
      durationMs: Math.round(performance.now() - t0),
      error: reason,
      metrics: [metric(`${bench.name}.completed`, 0, 'runs', atLeast(1), reason)],
    };
  }
}

async function main(argv: string[]): Promise<number> {
  let opts: Options;
  let selected: Benchmark[];
  try {
    opts = parseArgs(argv);
    selected = select(opts.only);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UsageError) {
      process.stderr.write(`bench: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (opts.list) {
    for (const b of BENCHMARKS) process.stdout.write(`${b.name.padEnd(14)} ${b.title}\n`);
    return 0;
  }

  const gc = obtainGc();
  const log = (line: string) => process.stderr.write(`  ${line}\n`);
  const ctx: BenchContext = { quick: opts.quick, gc, log, size: (full, quick) => (opts.quick ? quick : full) };
  const startedAt = new Date();
  const loadAtStart = currentLoad();
  const t0 = performance.now();
  process.stderr.write(`bench: ${selected.length} benchmark(s)${opts.quick ? ', quick' : ''}; gc ${gc.mode}; ${process.version}; load average ${loadAtStart}\n`);
  if (gc.mode === 'none') process.stderr.write('bench: no garbage collector available: heap figures include garbage\n');

  const outcomes: BenchmarkOutcome[] = [];
  for (const bench of selected) {
    process.stderr.write(`▸ ${bench.name}: ${bench.title}\n`);
    const outcome = await runOne(bench, ctx);
    outcomes.push(outcome);
    process.stderr.write(`  ${(outcome.durationMs / 1000).toFixed(1)} s\n`);
  }

  const metrics = outcomes.flatMap((o) => o.metrics);
  const ok = metrics.every((m) => m.ok);
  const report: BenchReport = {
    tool: 'lockconf-bench',
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    quick: opts.quick,
    only: opts.only?.length ? opts.only : null,
    ok,
    environment: environment(gc.mode, loadAtStart),
    benchmarks: outcomes,
  };
  const out = resolve(ROOT, opts.out);
  await writeReport(out, report);

  process.stdout.write(`\n${renderTable(metrics)}\n\n`);
  const missed = metrics.filter((m) => !m.ok);
  process.stdout.write(
    missed.length === 0
      ? `all ${metrics.filter((m) => m.goal).length} goals met in ${(report.durationMs / 1000).toFixed(1)} s; results: ${out}\n`
      : `${missed.length} goal(s) missed: ${missed.map((m) => m.name).join(', ')}; results: ${out}\n`,
  );
  return ok ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killRunningChildren();
    process.exit(130);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    killRunningChildren();
    process.stderr.write(`bench: ${reasonOf(err)}\n`);
    process.exit(2);
  },
);
