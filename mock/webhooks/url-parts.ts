/**
 * The URL components of a registered webhook url that deliveries must keep (the
 * slice dimension `url-part` of the slice faults): a path deeper than one
 * segment under the receiver's own, a query, letter case in the path. Each class
 * is told apart so that a URL of one class is of no other.
 */

/** The classes of `url`: query (a query string), case (upper-case letters in the path), path (three or more segments, lower case). */
export function urlParts(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const u = new URL(url);
  const out: string[] = [];
  if (u.search !== '') out.push('query');
  if (/[A-Z]/.test(u.pathname)) out.push('case');
  else if (u.pathname.split('/').filter(Boolean).length >= 3) out.push('path');
  return out;
}

/** The url as a careless service mangles that class: the query dropped, the path cut to two segments, the path lower-cased. */
export function mangleUrl(url: string, broken: (part: string) => boolean): string {
  const parts = urlParts(url);
  if (parts.length === 0) return url;
  const u = new URL(url);
  for (const part of parts) {
    if (!broken(part)) continue;
    if (part === 'query') u.search = '';
    if (part === 'case') u.pathname = u.pathname.toLowerCase();
    if (part === 'path') u.pathname = `/${u.pathname.split('/').filter(Boolean).slice(0, 2).join('/')}`;
  }
  return u.toString();
}
