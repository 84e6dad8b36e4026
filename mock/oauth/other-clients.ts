/**
 * Further client credentials registered with the mock besides the profile's own
 * (control protocol, GET /fixtures `clients`), so a run can check that a permission,
 * a code or a refresh token belongs to one credential. The OAuth side and the API
 * look a client up here by client_id or API key.
 */
import { randomBytes } from 'node:crypto';
import type { FixtureClient } from '../../harness/contracts.js';
import type { MockContext } from '../context.js';
import { derivedBytes } from '../identities.js';
import { presentedDigest, sameDigest } from '../secret-compare.js';

/** A further credential; the same four fields as GET /fixtures lists. */
export type OtherClient = FixtureClient;

/** A registered client: the profile's own (primary) or a further one. */
export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  /** The redirect URIs registered for it. */
  redirectUris: string[];
  primary: boolean;
}

/**
 * A further credential whose redirect URI is the mock's callback page, told apart by its
 * query: random, or derived from the seed of stable identities (the same on every start).
 */
export function makeOtherClient(baseUrl: string, seed?: number, n = 2): OtherClient {
  const bytes = (label: string, count: number) => (seed === undefined ? randomBytes(count) : derivedBytes(seed, `client-${n}-${label}`, count));
  return {
    clientId: `client-${bytes('id', 8).toString('hex')}`,
    clientSecret: bytes('secret', 32).toString('base64url'),
    apiKey: bytes('api-key', 24).toString('hex'),
    redirectUri: `${baseUrl}/callback?client=${n}`,
  };
}

function every(ctx: MockContext): RegisteredClient[] {
  const c = ctx.credentials;
  const primary: RegisteredClient = {
    clientId: c.clientId, clientSecret: c.clientSecret, apiKey: c.apiKey, primary: true,
    redirectUris: [c.redirectUri, ...(c.loginRedirectUri !== undefined ? [c.loginRedirectUri] : [])],
  };
  return [primary, ...(ctx.otherClients ?? []).map((o) => ({ clientId: o.clientId, clientSecret: o.clientSecret, apiKey: o.apiKey, redirectUris: [o.redirectUri], primary: false }))];
}

/** The client registered under this client_id, or null. */
export function registeredClient(ctx: MockContext, clientId: string): RegisteredClient | null {
  let found: RegisteredClient | null = null;
  const presented = presentedDigest(clientId);
  // Every entry is compared (constant time each), whichever matches.
  for (const client of every(ctx)) if (sameDigest(presented, client.clientId) && !found) found = client;
  return found;
}

/** Whether the API key is one of a registered client's. */
export function knownApiKey(ctx: MockContext, apiKey: string): boolean {
  let known = false;
  const presented = presentedDigest(apiKey);
  for (const client of every(ctx)) if (sameDigest(presented, client.apiKey)) known = true;
  return known;
}
