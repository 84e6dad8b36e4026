/**
 * `npm run mutation:triage -- --close-stale`: the `survivors` entries of the triage files
 * that no survivor matches any more (stale), settled against the folders' results:
 *   - a gap whose mutant is killed now (or timed out) moves to `closed`, with `test`
 *     naming the requirements that killed it (from Stryker's status reason) and `why`
 *     saying so: the record of a gap a new test closed;
 *   - any other stale entry is dropped: its mutant is killed now (an equivalent or legal
 *     reading that no longer holds) or no longer exists (its code changed);
 *   - entries of a file the results do not hold are kept (that file has not run).
 */
import { keyOf } from './mutant-key.mjs';

const DETECTED = new Set(['Killed', 'Timeout']);

/** The requirements a run failed or warned on, from a mutant's status reason ("killed (A failed, B warned…)"). */
export function killersOf(reason = '') {
  return [...new Set([...reason.matchAll(/\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+) (?:failed|warned)\b/g)].map((m) => m[1]))];
}

/** What `test` records for a closed gap: the killing requirements, at most four named. */
export function killedByText(killers) {
  if (!killers.length) return 'a timeout (the run never ended)';
  return killers.length <= 4 ? killers.join(', ') : `${killers.slice(0, 4).join(', ')} and ${killers.length - 4} more`;
}

/**
 * The fate of each stale entry: { entry, fate: 'closed' | 'dropped' | 'kept', mutant? }.
 * `mutants`: every mutant of the results ({ file, line, mutator, replacement, original, status, reason? }).
 */
export function staleFates(mutants, stale) {
  const files = new Set(mutants.map((m) => m.file));
  const taken = new Set();
  return stale.map((entry) => {
    if (!files.has(entry.file)) return { entry, fate: 'kept' };
    const key = keyOf(entry);
    const near = mutants
      .filter((m) => DETECTED.has(m.status) && !taken.has(m) && keyOf(m) === key)
      .sort((a, b) => Math.abs(a.line - (entry.line ?? 0)) - Math.abs(b.line - (entry.line ?? 0)))[0];
    if (near && entry.class === 'gap') {
      taken.add(near);
      return { entry, fate: 'closed', mutant: near };
    }
    return { entry, fate: 'dropped', mutant: near };
  });
}

/** A triage file's content with its stale entries settled (`fates`: staleFates' for this file's entries). */
export function settleInto(triageFile, fates) {
  const gone = new Set(fates.filter((f) => f.fate !== 'kept').map((f) => f.entry));
  const closed = fates
    .filter((f) => f.fate === 'closed')
    .map(({ entry, mutant }) => {
      const killers = killersOf(mutant.reason);
      const { source, ...rest } = entry;
      const by = killers.length ? `killed by ${killedByText(killers)}` : 'timed out';
      return { ...rest, line: mutant.line, why: `${entry.why} Proved: ${by} in a Stryker run of ${mutant.file}.`, test: killedByText(killers) };
    });
  const survivors = (triageFile.survivors ?? []).filter((e) => ![...gone].some((g) => sameEntry(g, e)));
  const out = { ...triageFile, survivors };
  return closed.length ? { ...out, closed: [...(triageFile.closed ?? []), ...closed] } : out;
}

const sameEntry = (a, b) => keyOf(a) === keyOf(b) && a.line === b.line && a.why === b.why && a.class === b.class;
