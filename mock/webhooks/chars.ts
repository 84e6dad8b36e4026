/**
 * The character classes of a value the service returns or sends unchanged (the
 * webhook token in its header, a lock name in lock_name_changed): the slice
 * dimension `chars` of the slice faults. The names are shared by convention with
 * harness/catalog/slices/dimensions.ts (CHARS).
 */

/** A value this long or longer is `long`. */
export const LONG_FROM = 64;

const CLASSES: ReadonlyArray<readonly [string, (v: string) => boolean]> = [
  ['percent', (v) => v.includes('%')],
  ['plus', (v) => v.includes('+')],
  ['ampersand', (v) => v.includes('&')],
  ['equals-hash', (v) => /[=#]/.test(v)],
  ['space', (v) => / /.test(v.trim())],
  ['blanks', (v) => /^\s|\s$/.test(v)],
  ['non-ascii', (v) => /[^\x00-\x7f]/.test(v)],
  ['long', (v) => v.length >= LONG_FROM],
  ['empty', (v) => v === ''],
];

/** The classes `value` belongs to (none for plain letters, digits and dashes). */
export function charClasses(value: string): string[] {
  return CLASSES.filter(([, test]) => test(value)).map(([name]) => name);
}

/** The value as a careless implementation mangles that class: decoded, encoded, trimmed, cut short; left out (null) when empty. */
export function mangle(value: string, classes: readonly string[], broken: (cls: string) => boolean): string | null {
  let out = value;
  for (const cls of classes) {
    if (!broken(cls)) continue;
    switch (cls) {
      case 'percent': out = out.replaceAll('%', '%25'); break;
      case 'plus': out = out.replaceAll('+', ' '); break;
      case 'ampersand': out = out.replaceAll('&', '&amp;'); break;
      case 'equals-hash': out = out.replace(/[=#].*$/, ''); break;
      case 'space': out = out.replaceAll(' ', '+'); break;
      case 'blanks': out = out.trim(); break;
      case 'non-ascii': out = out.replace(/[^\x00-\x7f]/gu, '?'); break;
      case 'long': out = out.slice(0, LONG_FROM - 1); break;
      case 'empty': return null; // a header with no value taken for no header at all
    }
  }
  return out;
}
