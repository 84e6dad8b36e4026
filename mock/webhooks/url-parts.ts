/**
 * The URL components of a registered webhook url that deliveries must keep (the
 * slice dimension `url-part` of the slice faults): a path deeper than one
 * segment under the receiver's own, a query, letter case in the path; a loopback
 * host other than 127.0.0.1, the IPv6 literal, a 4-digit port, the https scheme. Each class is told
 * apart so that a URL of one class is of no other (every other url the suites
 * register names 127.0.0.1 and an ephemeral port of 5 digits).
 */

/** The classes of `url`: query, case (upper-case letters in the path), path (three or more segments, lower case), other-loopback (127.x other than 127.0.0.1), ipv6-literal (a bracketed host), port-4-digits, https. */
export function urlParts(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const u = new URL(url);
  const out: string[] = [];
  if (u.search !== '') out.push('query');
  if (/[A-Z]/.test(u.pathname)) out.push('case');
  else if (u.pathname.split('/').filter(Boolean).length >= 3) out.push('path');
  if (/^127\./.test(u.hostname) && u.hostname !== '127.0.0.1') out.push('other-loopback');
  if (u.hostname.startsWith('[')) out.push('ipv6-literal');
  if (/^\d{4}$/.test(u.port)) out.push('port-4-digits');
  if (u.protocol === 'https:') out.push('https');
  return out;
}

/**
 * The url as a careless service mangles that class: the query dropped, the path cut
 * to two segments, the path lower-cased; any loopback host pinned to 127.0.0.1; the
 * IPv6 literal's brackets dropped (no longer a url: nothing is sent); the port
 * dropped (the scheme's default port of the same loopback host); https downgraded to http.
 */
export function mangleUrl(url: string, broken: (part: string) => boolean): string {
  const parts = urlParts(url);
  if (parts.length === 0) return url;
  const u = new URL(url);
  let unbracketed = false;
  for (const part of parts) {
    if (!broken(part)) continue;
    if (part === 'query') u.search = '';
    if (part === 'case') u.pathname = u.pathname.toLowerCase();
    if (part === 'path') u.pathname = `/${u.pathname.split('/').filter(Boolean).slice(0, 2).join('/')}`;
    if (part === 'other-loopback') u.hostname = '127.0.0.1';
    if (part === 'port-4-digits') u.port = '';
    if (part === 'ipv6-literal') unbracketed = true;
    if (part === 'https') u.protocol = 'http:';
  }
  const out = u.toString();
  return unbracketed ? out.replace(`//${u.host}`, `//${u.hostname.replace(/^\[|\]$/g, '')}${u.port ? `:${u.port}` : ''}`) : out;
}
