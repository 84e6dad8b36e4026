/** The results file (reports/bench/latest.json): figures, goals and the machine they were taken on. No secrets. */
import { mkdir } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { GcMode } from './memory.js';
import type { Metric } from './result.js';

export interface BenchmarkOutcome {
  name: string;
  title: string;
  durationMs: number;
  /** Why it could not finish (masked), or null. */
  error: string | null;
  metrics: Metric[];
}

export interface BenchReport {
  tool: 'lockconf-bench';
  startedAt: string;
  durationMs: number;
  quick: boolean;
  only: string[] | null;
  ok: boolean;
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    memoryMiB: number;
    gc: GcMode;
    /** 1-minute load average before and after: figures taken on a busy machine read low. */
    loadAverage: { start: number; end: number };
  };
  benchmarks: BenchmarkOutcome[];
}

export function currentLoad(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function environment(gc: GcMode, loadAtStart: number): BenchReport['environment'] {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryMiB: Math.round(totalmem() / (1024 * 1024)),
    gc,
    loadAverage: { start: loadAtStart, end: currentLoad() },
  };
}

export async function writeReport(file: string, report: BenchReport): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
}
