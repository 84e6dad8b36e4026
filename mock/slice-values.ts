/**
 * What the generic slice faults of values need (mock/slice-faults.ts): the
 * character classes a value holds (the slice dimension `chars`) with the way a
 * careless implementation alters each, and the URL component in which a
 * redirect_uri differs from the registered one (`redirect-uri-part`).
 */
import { differingUrlParts, explicitPort } from './url-diff.js';

/** Per character class: does the value hold it, and how a careless echo alters it. */
const CHAR_CLASSES: ReadonlyArray<{ id: string; holds: (v: string) => boolean; alter: (v: string) => string }> = [
  { id: 'percent', holds: (v) => v.includes('%'), alter: (v) => v.replaceAll('%', '%25') }, // encoded twice
  { id: 'plus', holds: (v) => v.includes('+'), alter: (v) => v.replaceAll('+', ' ') }, // form-decoded once more
  { id: 'ampersand', holds: (v) => v.includes('&'), alter: (v) => v.slice(0, v.indexOf('&')) }, // cut where a query would split
  { id: 'equals-hash', holds: (v) => /[=#]/.test(v), alter: (v) => v.slice(0, v.search(/[=#]/)) },
  { id: 'space', holds: (v) => v.includes(' '), alter: (v) => v.replaceAll(' ', '+') },
  { id: 'blanks', holds: (v) => v !== v.trim(), alter: (v) => v.trim() },
  { id: 'non-ascii', holds: (v) => /[^\x00-\x7f]/.test(v), alter: (v) => v.replace(/[^\x00-\x7f]/gu, '?') },
  { id: 'long', holds: (v) => v.length > 256, alter: (v) => v.slice(0, 256) },
];

/**
 * The value as an implementation broken on some character classes returns it:
 * `broken(cls)` says whether the class is broken; each broken class the value
 * holds alters it. Unchanged when none is.
 */
export function alterByCharClass(value: string, broken: (cls: string) => boolean): string {
  let out = value;
  for (const c of CHAR_CLASSES) if (c.holds(value) && broken(c.id)) out = c.alter(out);
  return out;
}

/** The one URL component in which `given` differs from `registered` (letter case first), or null (same, several, or no URL). */
export function differingUrlPart(registered: string, given: string): string | null {
  if (registered === given) return null;
  if (registered.toLowerCase() === given.toLowerCase()) return 'case';
  const differ = differingUrlParts(registered, given);
  if (differ === null) return null;
  // http→https changes the default port with the scheme: still the scheme alone.
  if (differ.length === 2 && differ.includes('scheme') && differ.includes('port') && (explicitPort(registered) === '' || explicitPort(given) === '')) return 'scheme';
  return differ.length === 1 ? differ[0]! : null;
}

/**
 * The slice dimension `redirect-uri-shape` of a registered redirect URI: what it carries
 * besides scheme and host (a query component, an explicit port, a path beyond "/").
 */
export function redirectUriShapes(uri: string): string[] {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return [];
  }
  return [...(url.search !== '' ? ['query'] : []), ...(url.port !== '' ? ['port'] : []), ...(url.pathname !== '/' && url.pathname !== '' ? ['path'] : [])];
}

/** The URL without the components of those shapes, as a careless redirect builder loses them: its query, its port, its path. */
export function withoutShapes(url: URL, shapes: readonly string[]): void {
  if (shapes.includes('query')) url.search = '';
  if (shapes.includes('port')) url.port = '';
  if (shapes.includes('path')) url.pathname = '/';
}
