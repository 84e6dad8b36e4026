/**
 * A conformance run that cannot be carried out ends the same way wherever it
 * stops: the four report files with the verdict `error` (report/error-report.ts),
 * reports/latest pointed at them, ONE message on stderr naming the likely cause
 * and what to fix, and exit code 2. No stack trace, no colour outside a terminal.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { isLockconfError } from '../run/errors.js';
import { writeErrorReport } from '../report/error-report.js';
import { pointLatest } from '../report/reporter.js';
import { toolVersion } from '../report/result-file.js';
import { EXIT } from './common.js';
import type { Weakening } from '../run/weakening.js';
import type { Requirement } from '../catalog/requirement.js';
import { networkWordsIn } from '../wire/network-words.js';

export interface FailRunOptions {
  runDir: string;
  root: string;
  /** Where reports/latest lives. */
  reportsRoot: string;
  allure: boolean;
  updateLatest: boolean;
  startedAt: string;
  seed: number;
  only: string[] | null;
  target: { authUrl: string | null; baseUrl: string | null; mock: boolean } | null;
  /** Removes what an earlier run left in runDir. */
  clear: (runDir: string) => Promise<void>;
  /** Where the message goes (default stderr). */
  print?: (line: string) => void;
  /** Settings that weakened the run (run/weakening.ts), named in its reports. */
  weakenedBy?: Weakening[];
  /** The requirements of the run's mode (a service run never has the receiver's or the client's). */
  catalog: readonly Requirement[];
}

export async function failRun(err: unknown, opts: FailRunOptions): Promise<number> {
  const print = opts.print ?? ((line: string) => { process.stderr.write(`${line}\n`); });
  const code = (err as { code?: unknown })?.code;
  const error = isLockconfError(err) || (typeof code === 'string' && code.startsWith('ERR_'))
    ? { code: String(code), message: networkWordsIn((err as Error).message) }
    : { code: 'ERR_SETUP_FAILED', message: networkWordsIn(err instanceof Error ? err.message : String(err)) };
  // The cause first: writing the reports (the Allure one takes seconds on a loaded machine) comes after.
  print(`lockconf: ${error.code}: ${error.message}`);
  await mkdir(opts.runDir, { recursive: true });
  await opts.clear(opts.runDir);
  await writeErrorReport({
    runDir: opts.runDir,
    root: opts.root,
    info: { version: await toolVersion(opts.root), error, startedAt: opts.startedAt, seed: opts.seed, only: opts.only, allure: opts.allure, target: opts.target, ...(opts.weakenedBy ? { weakenedBy: opts.weakenedBy } : {}), catalog: opts.catalog },
  });
  if (opts.updateLatest) await pointLatest(opts.reportsRoot, opts.runDir);
  print(`lockconf: the run could not be carried out (exit 2); report: ${join(opts.runDir, 'index.html')}`);
  return EXIT.NOT_CARRIED_OUT;
}

/** Colour only where a person watches a terminal that wants it (NO_COLOR, FORCE_COLOR, CI logs). */
export function colourWanted(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if ('NO_COLOR' in env && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * vitest's own stderr, held back: when the run fails to start it would print an
 * "Unhandled Error" with a stack trace; the run's one message replaces it. When
 * the run finishes, what it held is passed on (without colour outside a terminal).
 */
export function vitestStderr(): { stream: Writable; text(): string; flush(dest: NodeJS.WriteStream): void } {
  let held = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      held += chunk.toString();
      done();
    },
  });
  return {
    stream,
    text: () => stripVTControlCharacters(held).trim().split('\n').slice(0, 20).join('\n'),
    flush(dest) {
      if (!held) return;
      dest.write(colourWanted(dest) ? held : stripVTControlCharacters(held));
      held = '';
    },
  };
}
