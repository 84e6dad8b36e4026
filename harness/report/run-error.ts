/**
 * The error of a run that global setup could not start, from vitest's
 * unhandled errors: the harness's own code (ERR_…) when it threw a
 * LockconfError, else ERR_SETUP_FAILED; one line, scrubbed, no stack trace.
 */
import type { SerializedError } from 'vitest';
import type { RunError } from './result-file.js';
import { networkWordsIn } from '../wire/network-words.js';

export function runErrorFrom(errors: ReadonlyArray<SerializedError | Error | { message?: string; code?: unknown }>, scrub: (text: string) => string = (t) => t): RunError {
  const first = errors.find((e) => typeof (e as { code?: unknown }).code === 'string' && String((e as { code?: unknown }).code).startsWith('ERR_')) ?? errors[0];
  const code = first && typeof (first as { code?: unknown }).code === 'string' && String((first as { code?: unknown }).code).startsWith('ERR_')
    ? String((first as { code?: unknown }).code)
    : 'ERR_SETUP_FAILED';
  const raw = first ? String((first as { message?: unknown }).message ?? first) : 'global setup did not finish and reported no error';
  const message = networkWordsIn(scrub(raw.split('\n').map((l) => l.trim()).find(Boolean) ?? raw));
  return { code, message: code === 'ERR_SETUP_FAILED' ? `the run could not be set up: ${message}` : message };
}

/**
 * The error vitest printed when global setup threw (it is not among the
 * reporter's unhandled errors): its first "…Error: message" line, with the
 * harness's code when it names one. null when none is found.
 */
export function setupErrorFromOutput(output: string): RunError | null {
  for (const line of output.split('\n').map((l) => l.trim())) {
    const error = /^([A-Za-z]*Error): (.+)$/.exec(line);
    if (!error) continue;
    const code = /\b(ERR_[A-Z_]+)\b/.exec(output)?.[1];
    return { code: code ?? 'ERR_SETUP_FAILED', message: code ? error[2]! : `the run could not be set up: ${error[2]}` };
  }
  return null;
}
