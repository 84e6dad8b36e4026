/**
 * "Did you mean …?": the known names closest to a mistyped one, so a message
 * can name what to change (a profile field, a requirement ID). Distance is
 * the optimal-string-alignment edit distance (a swap of two neighbours counts
 * once), case ignored; a name is only suggested when close enough to be a typo.
 */

/** Edits (insert, delete, replace, swap of neighbours) from a to b. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** How many edits still read as a typo of a name this long. */
function tolerance(length: number): number {
  return Math.max(1, Math.min(4, Math.floor(length / 3)));
}

/**
 * The known names closest to `given` (at most `max`, best first), or [] when
 * none is close enough. A name that differs only in case comes first.
 */
export function closestNames(given: string, known: readonly string[], max = 3): string[] {
  const g = given.toLowerCase();
  const scored = known
    // A difference in case alone scores below any edit.
    .map((name) => ({ name, distance: editDistance(g, name.toLowerCase()) || -0.5 }))
    .filter((s) => s.distance <= tolerance(given.length) && s.name !== given);
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map((s) => s.distance));
  return scored
    .filter((s) => s.distance < best + 1)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}

/** ": did you mean X?" / ": did you mean X or Y?", or '' when nothing is close. */
export function didYouMean(given: string, known: readonly string[], max = 3): string {
  const names = closestNames(given, known, max);
  if (names.length === 0) return '';
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `: did you mean ${listed}?`;
}
