/**
 * The credentials an authorization request can name, and the shapes of their registered
 * redirect URIs (the slice dimensions `client` and `redirect-uri-shape`): "The server answers
 * HTTP 302 to redirect_uri" holds for every credential's registered URI, whatever it carries
 * (RFC 6749 §3.1.2: a query component, which "MUST be retained when adding additional query
 * parameters"; a port; a path). The profile's credential, and the second one of the fixtures
 * (GET /fixtures `clients`), each with its own client_id and registered redirect_uri.
 */
import type { SuiteContext } from './context.js';
import { fixtures } from './fixtures.js';
import { redirectUriShapes } from '../../harness/wire/redirect-target.js';

/** A credential as an authorization request names it. */
export interface RequestingClient {
  /** The slice value of `client`: 'profile' or 'second'. */
  slice: string;
  clientId: string;
  redirectUri: string;
}

function profileClient(t: SuiteContext): RequestingClient {
  return { slice: 'profile', clientId: t.target.profile.clientId, redirectUri: t.target.profile.redirectUri };
}

function secondOrNull(t: SuiteContext): RequestingClient | null {
  const second = t.target.fixtures?.clients?.[0];
  return second ? { slice: 'second', clientId: second.clientId, redirectUri: second.redirectUri } : null;
}

/** The credential of the slice `client=value`; not tested when the fixtures list no second one. */
export function requestingClient(t: SuiteContext, value: string): RequestingClient {
  if (value === 'profile') return profileClient(t);
  fixtures(t);
  return secondOrNull(t) ?? t.notTested('the fixtures list no further client credential (the optional "clients" of GET /fixtures): a second credential\'s registered redirect_uri cannot be tried');
}

/**
 * A credential whose registered redirect_uri has the shape of the slice `redirect-uri-shape=value`
 * (the profile's first, then the second of the fixtures); not tested when none has.
 */
export function clientWithShape(t: SuiteContext, shape: string): RequestingClient {
  const candidates = [profileClient(t), ...(t.target.fixtures ? [secondOrNull(t)] : [])].filter((c): c is RequestingClient => c !== null);
  const found = candidates.find((c) => redirectUriShapes(c.redirectUri).includes(shape));
  return found ?? t.notTested(`no registered redirect_uri of the profile or of the fixtures' clients carries a ${shape === 'path' ? 'path beyond "/"' : shape === 'port' ? 'port' : 'query component'}: a redirect to one cannot be tried`);
}

/** The authorization options that make `client` the requesting credential. */
export function asClient(client: RequestingClient): { clientId: string; redirectUri: string } {
  return { clientId: client.clientId, redirectUri: client.redirectUri };
}
