/**
 * What every command shares: exit codes, the usage failure, option parsers and
 * the project root.
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { ConformanceResult } from '../report/result-file.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Where runs keep reports/ and .lockconf/: the project in a clone, the current directory when lockconf is an installed package. */
export const WORK_ROOT = /[\\/]node_modules[\\/]/.test(ROOT) ? process.cwd() : ROOT;

/** Exit codes. */
export const EXIT = { OK: 0, NOT_CONFORMANT: 1, NOT_CARRIED_OUT: 2 } as const;

/** A failure that ends the command with exit code 2 and a message (never a secret). */
export class UsageFailure extends Error {}

export function intOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
}

/** --explore: a number of sequences (200) or a duration (45s, 2m), as LOCKCONF_EXPLORE takes it (suites/explore/explorer.ts parseBudget). */
export function exploreOption(value: string): string {
  const v = value.trim();
  if (/^[1-9]\d{0,6}$/.test(v) || /^[1-9]\d{0,4}\s*(s|m|min)$/.test(v)) return v;
  throw new InvalidArgumentError('--explore must be a number of sequences (200) or a duration (45s, 2m)');
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Resolves to when the process is asked to stop (Ctrl-C, SIGTERM). */
export function untilStopped(): Promise<void> {
  return new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
}

/**
 * The exit code a finished run earns: 0 conformant, or partial (the whole narrowed or
 * weakened scope passed: CI can gate on a scope); 1 not conformant, interrupted,
 * interfered, or incomplete (0 with --allow-incomplete); 2 no verdict (could not run).
 */
export function exitCodeFor(verdict: ConformanceResult['verdict'] | null, allowIncomplete = false): number {
  switch (verdict) {
    case null:
    case 'error':
      return EXIT.NOT_CARRIED_OUT;
    case 'conformant':
    case 'partial':
      return EXIT.OK;
    case 'incomplete':
      return allowIncomplete ? EXIT.OK : EXIT.NOT_CONFORMANT;
    default:
      return EXIT.NOT_CONFORMANT;
  }
}

/** Remove what a previous run left in the directory, so nothing stale is read as this run's result. */
export async function clearRunDir(runDir: string): Promise<void> {
  for (const name of ['conformance.json', 'index.html', 'junit.xml', 'run-context.json', 'allure-results', 'allure-report', '.lockconf-resets', 'compare.json', 'compare.html']) {
    await rm(join(runDir, name), { recursive: true, force: true });
  }
}
