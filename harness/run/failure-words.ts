/**
 * A failed check in the words of the spec, without the test framework's: the
 * assertion's message without chai's notes (`// Object.is equality`) or vitest's
 * `expected "…" not to be reached` wrapping, and what was expected and observed
 * only when the assertion had both, as indented JSON a reader can follow.
 */
import { inspect } from 'node:util';

/** Longest expected/observed value quoted in a reason; reports stay readable. */
export const MAX_VALUE_CHARS = 2_000;

/** chai's note on how it compared, at the end of a message or a line. */
const COMPARISON_NOTE = /[ \t]*\/\/ (?:Object\.is|deep|strict|loose|subset|asymmetric)(?: [a-z]+)* equality\b/g;
/** vitest's expect.unreachable(message). */
const UNREACHABLE = /^expected (?:"([\s\S]*)" )?not to be reached$/;

/** The assertion's message, as a reader of the report needs it. */
export function plainMessage(message: string): string {
  const text = message.replace(COMPARISON_NOTE, '').trim();
  const unreachable = UNREACHABLE.exec(text);
  if (unreachable) return unreachable[1] ?? 'the test reached a step the rule rules out';
  return text;
}

export function clip(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} chars)` : text;
}

/** A value as the report shows it: a string quoted, JSON indented by two spaces, anything else as Node shows it. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return clip(JSON.stringify(value));
  if (value !== null && typeof value === 'object') {
    try {
      const json = JSON.stringify(value, null, 2);
      if (json !== undefined) return clip(json);
    } catch {
      // a cycle or a BigInt: as Node shows it
    }
  }
  return clip(inspect(value, { depth: 4, breakLength: 80, maxStringLength: MAX_VALUE_CHARS }));
}

/** "expected: …" and "observed: …" lines, when the assertion carried both values; else none. */
export function expectedObserved(err: { expected?: unknown; actual?: unknown }): string[] {
  if (!('expected' in err) || !('actual' in err) || err.expected === undefined || err.actual === undefined) return [];
  const line = (label: string, value: unknown) => {
    const shown = showValue(value);
    return shown.includes('\n') ? `${label}:\n${shown.replace(/^/gm, '  ')}` : `${label}: ${shown}`;
  };
  return [line('expected', err.expected), line('observed', err.actual)];
}
