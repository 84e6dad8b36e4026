/**
 * Triage written ahead: the `pending` entries of a triage file, written from the code
 * and the suites for mutants whose Stryker scope has not run yet (same fields and
 * classes as `survivors`; `line` is the mutant's line in the source they were written
 * against, as `node test/mutation/pending-check.mjs` enumerates it).
 *
 * A pending entry stands for the one mutant of its file, mutator, replacement and
 * original text ON ITS OWN LINE: an entry whose mutant has not run must not take a
 * same-looking mutant of another line that has (`''` → "Stryker was here!" is on many).
 * Once that mutant has run, the entry's fate is
 *   survived   the entry triages it (triage.mjs counts it as triaged, and
 *              `npm run mutation:triage -- --adopt-pending` moves it to `survivors`);
 *   killed     killed or timed out (also: ignored, a compile or runtime error): dropped,
 *              or, a gap written ahead with the new test that closes it, kept under
 *              `closed` (the record of gaps closed, as for survivors killed later);
 *   duplicate  the survivor is triaged already by a `survivors` entry of its own line:
 *              dropped (one triaged by a same-looking entry of another line takes
 *              the pending entry of its own line instead: `survivors` match by the
 *              nearest line, and may lend another line's reading);
 *   waiting    no mutant of the results is its own: it stays pending.
 */
import { keyOf } from './mutant-key.mjs';

export const FATES = ['survived', 'killed', 'duplicate', 'waiting'];
const SURVIVED = new Set(['Survived', 'NoCoverage']);

/** The pending entry's key: the mutant's key and its line. */
const lineKey = (m) => `${keyOf(m)}@${m.line}`;

/**
 * The fate of each pending entry against the mutants of a run's results (`mutants`:
 * { file, line, mutator, replacement, original, status, triage? }, `triage` set when a
 * `survivors` entry triages it). Each mutant answers one entry (two same mutants on one
 * line, two entries); an untriaged survivor first.
 * Returns the mutants with `triage` set from the pending entry of each untriaged
 * survivor (marked `pending: true`), and [{ entry, fate, mutant? }] in the entries' order.
 */
export function matchPending(mutants, pending) {
  const byLine = new Map();
  mutants.forEach((m, i) => {
    const k = lineKey(m);
    if (!byLine.has(k)) byLine.set(k, []);
    byLine.get(k).push(i);
  });
  const ownLine = (m) => m.triage !== undefined && m.triage.line === m.line;
  const rank = (i) => (SURVIVED.has(mutants[i].status) ? (ownLine(mutants[i]) ? 1 : 0) : 2);
  for (const list of byLine.values()) list.sort((a, b) => rank(a) - rank(b));
  const taken = new Set();
  const out = [...mutants];
  const fates = pending.map((entry) => {
    const i = (byLine.get(lineKey(entry)) ?? []).find((j) => !taken.has(j));
    if (i === undefined) return { entry, fate: 'waiting' };
    taken.add(i);
    const mutant = mutants[i];
    if (!SURVIVED.has(mutant.status)) return { entry, fate: 'killed', mutant };
    if (ownLine(mutant)) return { entry, fate: 'duplicate', mutant };
    const { source, ...triage } = entry;
    out[i] = { ...mutant, triage: { ...triage, pending: true } };
    return { entry, fate: 'survived', mutant };
  });
  return { mutants: out, fates };
}

/** A gap written ahead together with the test that closes it (not `open`). */
export const closedGap = (entry) => entry.class === 'gap' && typeof entry.test === 'string' && entry.test !== 'open';

/**
 * A triage file's content after adoption: the entries of its `pending` list whose mutant
 * survived appended to `survivors`, the killed gaps a new test closed appended to
 * `closed`, the other killed and the duplicate ones dropped, the waiting kept.
 * `fates`: matchPending's, for this file's pending entries (in their order).
 */
export function adoptInto(triageFile, fates) {
  const adopted = fates.filter((f) => f.fate === 'survived').map(({ entry }) => withoutSource(entry));
  const waiting = fates.filter((f) => f.fate === 'waiting').map(({ entry }) => withoutSource(entry));
  const closed = fates.filter((f) => f.fate === 'killed' && closedGap(f.entry)).map(({ entry }) => withoutSource(entry));
  const out = { ...triageFile, survivors: [...(triageFile.survivors ?? []), ...adopted], pending: waiting };
  return closed.length ? { ...out, closed: [...(triageFile.closed ?? []), ...closed] } : out;
}

const withoutSource = ({ source, ...entry }) => entry;

/** How many entries have each fate. */
export const countFates = (fates) => Object.fromEntries(FATES.map((f) => [f, fates.filter((x) => x.fate === f).length]));

/**
 * The pending entries that name no mutant of the current sources (`current`: every
 * mutant of their files, as Stryker's instrumenter numbers them), each with the lines
 * of the mutants that share its key (the line it moved to, when there is one).
 */
export function checkPending(current, pending) {
  const lines = new Map();
  for (const m of current) {
    if (!lines.has(keyOf(m))) lines.set(keyOf(m), []);
    lines.get(keyOf(m)).push(m.line);
  }
  const here = new Set(current.map(lineKey));
  return pending.filter((e) => !here.has(lineKey(e))).map((entry) => ({ entry, lines: lines.get(keyOf(entry)) ?? [] }));
}
