/**
 * A user's access token of each client credential (the slice dimension `client`): the
 * profile's own, or the second credential of the fixtures (GET /fixtures `clients`),
 * its own code exchanged by the owner. API calls with such a token carry the API key of
 * the credential it was issued to (spec: Request headers for API calls, "x-api-key |
 * <API_KEY> of the credential"), so the API-header rules ("Every successful API response
 * returns an updated x-access-token header") hold for every credential's calls.
 */
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { ownCodeExchange, secondClient } from './second-client.js';
import { rememberTokens } from './tokens.js';
import { PrerequisiteFailed } from './prerequisite.js';
import { withGrantRequest } from './grants.js';
import { postToken } from './tokens.js';

export interface ClientToken {
  /** The slice value: 'profile' or 'second'. */
  client: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** The credential's own API key; absent for the profile's (the HTTP client's default). */
  apiKey?: string;
}

/**
 * A fresh access token of `actor` (a lock's 'owner', a 'guest' on it: the fixtures' first and second users; or the
 * 'application''s own from client_credentials, permitted meanwhile) and its expires_in, for fn.
 */
export async function withActorToken<T>(t: SuiteContext, actor: string, fn: (token: string, expiresIn: number) => Promise<T>): Promise<T> {
  if (actor === 'application') {
    return withGrantRequest(t, 'client_credentials', async (body) => {
      const res = await postToken(t, body);
      t.expect(typeof res.json?.access_token, `client_credentials grant (permitted): expected an access token; got HTTP ${res.status}`).toBe('string');
      return fn(res.json.access_token, Number(res.json.expires_in));
    });
  }
  if (!t.target.has('user-token')) t.notTested(`needs user-token: ${t.target.whyMissing('user-token') ?? 'not offered'}`);
  if (actor === 'guest' && !t.target.has('second-user')) t.notTested('the fixtures name no guest (second user)');
  const session = await t.flows.userSession(actor === 'guest' ? 1 : 0);
  return fn(session.accessToken, session.expiresIn);
}

/** "the owner's token", "the guest's token", "the application's own token": for messages. */
export function actorWords(actor: string): string {
  return actor === 'application' ? 'the application\'s own token (client_credentials)' : `the ${actor}'s token`;
}

/** A fresh user token of `client` (not tested when the fixtures hold no second credential, or it cannot be shown to work). */
export async function clientToken(t: SuiteContext, client: string): Promise<ClientToken> {
  if (client === 'profile') {
    const session = await t.flows.userSession();
    return { client, accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: session.expiresIn };
  }
  const second = secondClient(t);
  const res = await ownCodeExchange(t, second);
  return { client, accessToken: res.json.access_token, refreshToken: res.json.refresh_token, expiresIn: res.json.expires_in, apiKey: second.apiKey };
}

/** GET path with `accessToken` and the API key of its credential (`apiKey`; the profile's when absent). */
export async function apiGet(t: SuiteContext, path: string, accessToken: string | null, apiKey?: string): Promise<HttpResponse> {
  const res = await t.http.api('GET', path, { accessToken, ...(apiKey !== undefined ? { apiKey } : {}) });
  rememberTokens(t, res);
  return res;
}

/** "the profile's credential", "the second credential of the fixtures": for messages. */
export function credentialWords(client: string): string {
  return client === 'profile' ? 'the profile\'s credential' : 'the second credential of the fixtures (its own API key)';
}

export interface ClientVisit {
  /** "GET /users/me", "GET /users/locks/mine". */
  name: string;
  res: HttpResponse;
  /** The token the call was made with. */
  presented: string;
  /** x-access-token of the answer, when there is one. */
  rotated: string | null;
  /** The credential's API key (absent: the profile's). */
  apiKey?: string;
}

/**
 * The two user endpoints (GET /users/me, GET /users/locks/mine) in turn with a fresh user token of
 * `client`, each call made with the newest token held, as an application does; a 401 to a token an
 * earlier answer returned is HEADERS-ROTATED-TOKEN-WORKS's failure (its own slice judges it), which
 * blocks the running rule. `stepMs` moves the target's clock before each call (rotations in other seconds).
 */
export async function walkUserEndpointsAs(
  t: SuiteContext,
  client: string,
  visit: (v: ClientVisit) => Promise<void> | void,
  opts: { stepMs?: number; advance?: (ms: number) => Promise<unknown> } = {},
): Promise<void> {
  const held = await clientToken(t, client);
  let token = held.accessToken;
  for (const { name, path } of [{ name: 'GET /users/me', path: '/users/me' }, { name: 'GET /users/locks/mine', path: '/users/locks/mine' }]) {
    if (opts.stepMs && opts.advance) await opts.advance(opts.stepMs);
    const res = await apiGet(t, path, token, held.apiKey);
    if (res.status === 401 && token !== held.accessToken && t.requirement.id !== 'HEADERS-ROTATED-TOKEN-WORKS') {
      throw new PrerequisiteFailed('HEADERS-ROTATED-TOKEN-WORKS', `${name} as ${credentialWords(client)}: the x-access-token an earlier answer returned was refused with HTTP 401`);
    }
    const rotated = res.headers['x-access-token'] ?? null;
    await visit({ name: `${name} as ${credentialWords(client)}`, res, presented: token, rotated, ...(held.apiKey !== undefined ? { apiKey: held.apiKey } : {}) });
    if (rotated) token = rotated;
  }
}
