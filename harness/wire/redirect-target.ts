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
