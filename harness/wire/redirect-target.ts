/** Whether a Location points at the application's redirect_uri: the suites' one reading of "a redirect to redirect_uri". */

/** True when `location` points at `redirectUri` (same origin and path; the query is the target's to fill). */
export function onRedirectUri(location: string | null, redirectUri: string): boolean {
  if (!location) return false;
  try {
    const l = new URL(location);
    const r = new URL(redirectUri);
    return l.origin === r.origin && l.pathname === r.pathname;
  } catch {
    return false;
  }
}

/**
 * True when `location` is on the registered `redirectUri` with its query kept: same origin
 * and path, and every query parameter the registered URI carries still there with its value
 * (RFC 6749 §3.1.2: the endpoint URI's query component "MUST be retained when adding
 * additional query parameters"). A redirect built by appending "?error=…" to a URI that
 * already has a query fails here: its registered parameter's value swallows the rest.
 */
export function onRegisteredRedirectUri(location: string | null, redirectUri: string): boolean {
  if (!onRedirectUri(location, redirectUri)) return false;
  const got = new URL(location!).searchParams;
  const registered = new URL(redirectUri).searchParams;
  for (const name of new Set(registered.keys())) {
    const want = registered.getAll(name);
    const have = got.getAll(name);
    if (want.some((v) => !have.includes(v))) return false;
  }
  return true;
}

/**
 * The shapes of a registered redirect URI (the slice dimension `redirect-uri-shape`): a query
 * component, an explicit port, a path beyond "/". A redirect must keep each while it adds its
 * own parameters.
 */
export function redirectUriShapes(redirectUri: string): string[] {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return [];
  }
  const shapes: string[] = [];
  if (url.search !== '') shapes.push('query');
  if (url.port !== '') shapes.push('port');
  if (url.pathname !== '/' && url.pathname !== '') shapes.push('path');
  return shapes;
}
