/**
 * What names a mutant across runs and edits: its file, mutator, replacement and the
 * original text it replaces (whitespace squashed), not its line (lines move).
 */
const squash = (text) => text.replace(/\s+/g, ' ').trim();

/** The key a triage entry and a reported mutant share when they name the same mutant. */
export const keyOf = (m) => [m.file, m.mutator, squash(m.replacement ?? ''), squash(m.original)].join('|');
