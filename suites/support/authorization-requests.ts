/**
 * Authorization requests as the authorization-code suite makes and judges them: redirect URIs
 * that were never registered or differ in one component, the answer read as a browser would
 * (no redirect followed), a Location shown without its code, and the 302 the control hook reports.
 */
import type { SuiteContext } from './context.js';

/** A redirect URI that was never registered: another host, and the registered one with a path appended. */
export function unregisteredRedirectUris(t: SuiteContext): string[] {
  const registered = new URL(t.target.profile.redirectUri);
  const sibling = new URL(registered.toString());
  sibling.pathname = `${registered.pathname.replace(/\/+$/, '')}/elsewhere`;
  return ['https://attacker.lockconf.invalid/callback', sibling.toString()];
}

/** The registered redirect_uri with one URL component changed (the slice dimension `redirect-uri-part`); null when that cannot be done. */
export function redirectUriVariant(registered: string, part: string): string | null {
  const url = new URL(registered);
  switch (part) {
    case 'scheme': url.protocol = url.protocol === 'https:' ? 'http:' : 'https:'; return url.toString();
    case 'host': url.hostname = url.hostname === 'lockconf-elsewhere.invalid' ? 'lockconf-other.invalid' : 'lockconf-elsewhere.invalid'; return url.toString();
    case 'port': url.port = String((Number(url.port || (url.protocol === 'https:' ? 443 : 80)) % 65_000) + 1); return url.toString();
    case 'path': url.pathname = `${url.pathname.replace(/\/+$/, '')}/elsewhere`; return url.toString();
    case 'query': url.searchParams.append('lockconf', 'elsewhere'); return url.toString();
    case 'case': {
      const upper = url.pathname.toUpperCase() === url.pathname ? url.pathname.toLowerCase() : url.pathname.toUpperCase();
      if (upper === url.pathname) return null;
      url.pathname = upper;
      return url.toString();
    }
    default: throw new Error(`unknown redirect_uri part: ${part}`);
  }
}

/** A Location as a failure message may show it: without its code (a secret), or "none". */
export function shownLocation(location: string | null): string {
  if (location === null) return 'no redirect';
  try {
    const url = new URL(location);
    if (url.searchParams.has('code')) url.searchParams.set('code', '…');
    return url.toString();
  } catch {
    return JSON.stringify(location.slice(0, 200));
  }
}

/** GET {auth_url}/authorization as a browser would, without following a redirect. */
export async function getAuthorization(t: SuiteContext, url: string) {
  const res = await t.http.request({ method: 'GET', url });
  return { status: res.status, location: res.location ? absolute(res.location, url) : null, empty: res.text.trim() === '' };
}

/** A Location resolved against the request URL (it may be relative); as sent when it is no URL at all. */
function absolute(location: string, base: string): string {
  try {
    return new URL(location, base).toString();
  } catch {
    return location;
  }
}

/**
 * The status of the redirect that ends the authorization step, as the target reports it
 * (control POST /consent's optional redirectStatus). The harness never fills it in: a
 * target that does not report it leaves the status untested, with the reason.
 */
export function expectRedirect302(t: SuiteContext, redirectStatus: number | null, what: string): void {
  if (redirectStatus === null) {
    t.notTested(`${what}: the Location is right, but the control hook POST /consent does not report the status of the redirect (the optional redirectStatus, docs/control-protocol-extensions.md), so the 302 cannot be observed`);
  }
  t.expect(redirectStatus, `${what}: the server answers HTTP 302 to redirect_uri; the target reports HTTP ${redirectStatus}`).toBe(302);
}
