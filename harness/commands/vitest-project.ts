/**
 * What every run command does once its reporters are ready: start one vitest
 * project (conformance, receiver or client) in this process, then read the
 * verdict its lockconf reporter reached (or, failing that, wrote).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { ConformanceResult } from '../report/result-file.js';
import { testNamePattern } from '../run/selection.js';
import { ROOT } from './common.js';

export interface ProjectRun {
  project: 'conformance' | 'receiver' | 'client';
  /** Suite files to load; [] loads every file of the project. */
  files?: string[];
  reporters: unknown[];
  /** Requirement IDs selected with --only, or null. */
  only: readonly string[] | null;
  /** Where vitest's own error output goes (default: the process's stderr). */
  stderr?: Writable;
  /** vitest options for this run alone (a confirming run's longer testTimeout). */
  options?: Record<string, unknown>;
}

/**
 * Extra vitest options for every project run this process starts afterwards. Only the
 * processes that carry out many runs one after another set them (the self-verification
 * matrix's lanes, test/self-verification/lane.ts, and the receiver matrix's children:
 * MANY_RUNS_OPTIONS); a user's run never does.
 */
let extraOptions: Record<string, unknown> = {};

/** For many runs in one process: worker threads (no process forked per run) and the file-system module cache. */
export const MANY_RUNS_OPTIONS = { pool: 'threads', experimental: { fsModuleCache: true } } as const;
export function setVitestOverrides(options: Record<string, unknown>): void {
  extraOptions = { ...options };
}

export async function runVitestProject(run: ProjectRun): Promise<void> {
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest(
    'test',
    run.files ?? [],
    {
      root: ROOT,
      config: join(ROOT, 'vitest.config.ts'),
      project: [run.project],
      run: true,
      watch: false,
      reporters: run.reporters as never,
      // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed
      // by content): a run after the first imports the suites at about half the cost. Off: LOCKCONF_FS_MODULE_CACHE=0.
      ...(process.env.LOCKCONF_FS_MODULE_CACHE === '0' ? {} : { experimental: { fsModuleCache: true } }),
      ...extraOptions,
      ...(run.options ?? {}),
      ...(run.only ? { testNamePattern: testNamePattern(run.only) } : {}),
    },
    undefined,
    run.stderr ? { stderr: run.stderr } : undefined,
  );
  await vitest?.close();
}

/** The run's verdict: the reporter's, else the one conformance.json holds, else null (nothing was written). */
export async function readVerdict(reporter: { result?: { verdict: ConformanceResult['verdict'] } | null }, runDir: string): Promise<ConformanceResult['verdict'] | null> {
  if (reporter.result?.verdict) return reporter.result.verdict;
  try {
    return (JSON.parse(await readFile(join(runDir, 'conformance.json'), 'utf8')) as ConformanceResult).verdict;
  } catch {
    return null;
  }
}
