/**
 * The second client credential of the fixtures (GET /fixtures `clients`, optional):
 * for the rules that a permission, a code or a refresh token belongs to one credential.
 * Each test first shows the credential works on its own (its own code, its own
 * permission), so a refusal cannot come from a credential the target does not know.
 */
import type { FixtureClient, HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { fixtures } from './fixtures.js';
import { postToken, tokenIssued } from './tokens.js';

/** fixtures.clients[0]; the `second-client` capability guarantees it. */
export function secondClient(t: SuiteContext): FixtureClient {
  const client = fixtures(t).clients?.[0];
  if (!client) return t.notTested('the fixtures list no further client credential (the optional "clients" of GET /fixtures)');
  return client;
}

/** A token request as `client`: its client_id and client_secret in the body, then the grant's fields. */
export function postTokenAs(t: SuiteContext, client: FixtureClient, fields: Record<string, string>): Promise<HttpResponse> {
  return postToken(t, { client_id: client.clientId, client_secret: client.clientSecret, ...fields });
}

/**
 * users[0] authorizes `client` (its own client_id and redirect URI) and the client
 * exchanges the code itself: the token response. Not tested when that fails: the
 * credential cannot be shown to work.
 */
export async function ownCodeExchange(t: SuiteContext, client: FixtureClient): Promise<HttpResponse> {
  const result = await t.flows.authorize({ user: 0, decision: 'approve', clientId: client.clientId, redirectUri: client.redirectUri });
  const code = result.params.get('code');
  if (!code) return t.notTested(`the second credential of the fixtures got no code of its own (status ${result.status}${result.error ? `, ${result.error}` : ''}), so it cannot be shown to be a working credential`);
  t.target.redactor.add(code, 'code');
  const res = await postTokenAs(t, client, { grant_type: 'authorization_code', code });
  if (!tokenIssued(res)) return t.notTested(`the second credential of the fixtures could not exchange a code issued to itself (HTTP ${res.status}), so it cannot be shown to be a working credential`);
  return res;
}
