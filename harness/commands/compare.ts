/**
 * `lockconf compare A B`: what changed from run A to run B (run folders or their
 * conformance.json), requirement by requirement and slice by slice
 * (harness/compare/). The terminal gets the short account; --json prints the
 * comparison as JSON instead; --html FILE writes the page as well.
 * Exit 0 no regression, 1 a regression, 2 bad input (one message).
 */
import { userPath } from './user-paths.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { BadRunInput, loadRun, type LoadedRun } from '../compare/load.js';
import { compareRuns, type Comparison } from '../compare/diff.js';
import { renderTerminal } from '../compare/render-terminal.js';
import { renderCompareHtml } from '../compare/render-html.js';
import { EXIT } from './common.js';

export interface CompareOptions {
  html?: string;
  json?: boolean;
}

/** Loads both runs; a bad one ends with its message (exit 2). */
export async function loadBoth(a: string, b: string): Promise<[LoadedRun, LoadedRun] | string> {
  try {
    return [await loadRun(a), await loadRun(b)];
  } catch (err) {
    if (err instanceof BadRunInput) return err.message;
    throw err;
  }
}

/** A run with the verdict `error` judged nothing: there is nothing to compare (exit 2). */
export function notCarriedOut(runs: readonly LoadedRun[]): string | null {
  const run = runs.find((r) => r.result.verdict === 'error');
  if (!run) return null;
  return `${run.label}: that run could not be carried out (${run.result.error?.code ?? 'verdict error'}): nothing in it was judged, so there is nothing to compare`;
}

/** Writes compare.html at `file` (B's index.html at `runB`, relative to it); a message when it cannot. */
export async function writeCompareHtml(file: string, comparison: Comparison, runB: string | null = null): Promise<string | null> {
  try {
    await mkdir(dirname(resolve(file)), { recursive: true });
    await writeFile(resolve(file), renderCompareHtml(comparison, runB === null ? null : `${runB ? `${runB.split('\\').join('/')}/` : ''}index.html`));
    return null;
  } catch (err) {
    return `${file}: cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

export async function compareCommand(a: string, b: string, given: CompareOptions): Promise<number> {
  // The user's paths mean the user's folder (npm run moves the script to the package root).
  const opts = given.html ? { ...given, html: userPath(given.html) } : given;
  const runs = await loadBoth(userPath(a), userPath(b));
  if (typeof runs === 'string') {
    process.stderr.write(`lockconf: ${runs}\n`);
    return EXIT.NOT_CARRIED_OUT;
  }
  const unjudged = notCarriedOut(runs);
  if (unjudged) {
    process.stderr.write(`lockconf: ${unjudged}\n`);
    return EXIT.NOT_CARRIED_OUT;
  }
  const comparison = compareRuns(...runs);
  if (opts.html) {
    const problem = await writeCompareHtml(opts.html, comparison, relative(dirname(resolve(opts.html)), runs[1].dir));
    if (problem) {
      process.stderr.write(`lockconf: ${problem}\n`);
      return EXIT.NOT_CARRIED_OUT;
    }
  }
  process.stdout.write(opts.json ? `${JSON.stringify(comparison, null, 2)}\n` : renderTerminal(comparison));
  if (opts.html && !opts.json) process.stdout.write(`page: ${resolve(opts.html)}\n`);
  return comparison.regression ? EXIT.NOT_CONFORMANT : EXIT.OK;
}
