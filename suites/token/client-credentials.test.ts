/**
 * Client credentials flow (spec: Authentication → Client credentials flow; Errors):
 * refused unless the operator granted the permission; once granted, the same
 * token response as the code grant.
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import type { SuiteContext } from '../support/context.js';
import { control } from '../support/context.js';
import { isJwt, postToken, refreshGrant, rememberTokens, tokenIssued } from '../support/tokens.js';
import { tokenResponseOf, withGrantRequestAs } from '../support/grants.js';
import { eachSlicePair } from '../support/slice-pairs.js';
import { apiGet, credentialWords } from '../support/client-tokens.js';
import { refreshAs, withChainLink } from '../support/refresh-chain.js';
import { postTokenAs, secondClient } from '../support/second-client.js';

function clientCredentials(t: SuiteContext) {
  const p = t.target.profile;
  return postToken(t, { grant_type: 'client_credentials', client_id: p.clientId, client_secret: p.clientSecret });
}

/** With control, the permission is withdrawn first; without it, the credential's own state is what is seen. */
async function withoutPermission(t: SuiteContext): Promise<void> {
  if (t.target.has('client-credentials')) await control(t).setClientCredentials(false);
}

/** A permitted client_credentials token response (HTTP 200 with the token fields), or the test fails. */
async function permittedGrant(t: SuiteContext) {
  await control(t).setClientCredentials(true);
  const res = await clientCredentials(t);
  t.expect(tokenIssued(res), `client_credentials with permission: expected HTTP 200 with a token response; got HTTP ${res.status}`).toBe(true);
  return tokenResponseOf(t, res, 'client_credentials with permission', ['access_token']);
}

describe('Client credentials flow', () => {
  conformance('TOKEN-CC-DISABLED-BY-DEFAULT', 'in the default state, with no permission granted, the grant is refused', {}, async (t) => {
    // "Disabled by default": judged on the state the target starts in. With control the run has
    // just reset it (POST /reset); the permission is neither granted nor withdrawn first. Every
    // credential's default: the profile's, and the second of the fixtures.
    await t.eachSlice('client', async (client) => {
      const res = client === 'profile' ? await clientCredentials(t) : await postTokenAs(t, secondClient(t), { grant_type: 'client_credentials' });
      if (tokenIssued(res) && !t.target.has('client-credentials')) {
        // Without control the permission cannot be withdrawn: the operator may have granted it to this credential.
        t.notTested(`the ${client} credential was issued a client_credentials token, and without the control interface lockconf cannot withdraw a permission the operator may have granted it`);
      }
      t.expect(tokenIssued(res), `client_credentials of the ${client} credential without permission: must be rejected (no token); got HTTP ${res.status} with a token`).toBe(false);
    });
  });

  conformance('TOKEN-CC-REJECTION-STATUS', 'how a refused client_credentials grant is answered (status not described)', {}, async (t) => {
    await withoutPermission(t);
    const res = await clientCredentials(t);
    t.observe('rejection', { status: res.status, error: res.json?.error ?? null, location: res.location });
  });

  conformance('TOKEN-CC-ENABLED-WORKS', 'once permitted, the grant returns the same token response as the code grant', { needs: ['client-credentials'] }, async (t) => {
    await control(t).setClientCredentials(true);
    try {
      const res = await clientCredentials(t);
      t.expect(tokenIssued(res), `client_credentials with permission: expected a token response (HTTP 2xx with access_token); got HTTP ${res.status}`).toBe(true);
      // "The response is the same shape as for authorization code": the shape every grant's response has (TOKEN-RESPONSE-SHAPE
      // judges each grant's fields: a wrong type there blocks this test), the access token a JWT as the code grant's.
      const tokens = await tokenResponseOf(t, res, 'client_credentials with permission');
      t.expect(isJwt(tokens.access_token), 'client_credentials access_token must be a JWT (a JWS or a compact JWE)').toBe(true);
    } finally {
      await control(t).setClientCredentials(false);
    }
    // Every credential granted the permission: the profile's, and the second of the fixtures with its own.
    await t.eachSlice('client', async (client) => {
      const second = client === 'second' ? secondClient(t) : null;
      await control(t).setClientCredentials(true, second?.clientId);
      try {
        const res = second ? await postTokenAs(t, second, { grant_type: 'client_credentials' }) : await clientCredentials(t);
        t.expect(tokenIssued(res), `client_credentials of the ${client} credential, with its permission: expected a token response (HTTP 2xx with access_token); got HTTP ${res.status}`).toBe(true);
      } finally {
        await control(t).setClientCredentials(false, second?.clientId);
      }
    });
  });

  conformance('TOKEN-CC-PER-CREDENTIAL', 'the permission granted to one credential leaves another refused', { needs: ['client-credentials', 'second-client'] }, async (t) => {
    const second = secondClient(t);
    const asSecond = () => postTokenAs(t, second, { grant_type: 'client_credentials' });
    try {
      // Refused before any permission is granted, or "disabled by default" is what fails (TOKEN-CC-DISABLED-BY-DEFAULT).
      const before = await asSecond();
      if (tokenIssued(before)) return t.notTested('the second credential got a client_credentials token before any permission was granted (TOKEN-CC-DISABLED-BY-DEFAULT), so a permission granted per credential cannot be told apart');
      await control(t).setClientCredentials(true);
      const first = await clientCredentials(t);
      if (!tokenIssued(first)) return t.notTested(`the profile's credential got no client_credentials token once permitted (HTTP ${first.status}; TOKEN-CC-ENABLED-WORKS), so a per-credential permission cannot be shown`);
      const other = await asSecond();
      t.observe('the second credential, permission granted to the first only', { status: other.status, error: other.json?.error ?? null });
      t.expect(tokenIssued(other), `client_credentials for a second credential while only the first was granted the permission ("enabled per credential"): must be rejected; got HTTP ${other.status} with a token`).toBe(false);
      // The second credential works once it has the permission itself: the refusal was the permission's.
      await control(t).setClientCredentials(true, second.clientId);
      const own = await asSecond();
      if (!tokenIssued(own)) return t.notTested(`the second credential of the fixtures got no client_credentials token even with its own permission (HTTP ${own.status}), so it cannot be shown to be a working credential`);
    } finally {
      // The permission is the target's state: withdrawn from both, as the run found it.
      await control(t).setClientCredentials(false);
      await control(t).setClientCredentials(false, second.clientId);
    }
  });

  conformance('TOKEN-CC-TOKEN-WORKS', 'the client_credentials access token of every credential is accepted by the API, on each user endpoint', { needs: ['client-credentials'] }, async (t) => {
    // Endpoint and credential drawn in pairs: the second credential's own account, with its own API key
    // ("x-api-key | <API_KEY> of the credential"), and its permission granted to it alone meanwhile.
    await eachSlicePair(t, ['endpoint', 'client'], ({ endpoint, client }) => withGrantRequestAs(t, 'client_credentials', client!, async (body) => {
      const res = await postToken(t, body);
      t.expect(tokenIssued(res), `client_credentials of ${credentialWords(client!)}, with its permission: expected HTTP 200 with a token response; got HTTP ${res.status}`).toBe(true);
      const { access_token: token } = await tokenResponseOf(t, res, 'client_credentials with permission', ['access_token']);
      const apiKey = client === 'second' ? secondClient(t).apiKey : undefined;
      const answer = await apiGet(t, endpoint!.replace(/^GET /, ''), token, apiKey);
      const as = `${endpoint} with the client_credentials access token of ${credentialWords(client!)}`;
      t.observe(`${endpoint} as the application's own account (${client})`, { status: answer.status, body: answer.json ?? answer.text.slice(0, 200) });
      // What these endpoints show for an application's own account is not shown: only a refusal of the token is judged.
      t.expect(answer.status, `${as} (a token for the application's own account, used in x-access-token): the token was refused as invalid (HTTP 401)`).not.toBe(401);
      t.expect(answer.status, `${as}: the token was refused (HTTP ${answer.status})`).not.toBe(403);
      t.expect(answer.status, `${as}: HTTP ${answer.status}`).toBeLessThan(500);
    }));
  });

  conformance('TOKEN-CC-REFRESH-WORKS', 'the client_credentials refresh_token of every credential is redeemed by the refresh grant, at every link of its chain', { needs: ['client-credentials'] }, async (t) => {
    // Link and credential drawn in pairs: the second credential's own chain, redeemed as that credential.
    await eachSlicePair(t, ['position', 'client'], ({ position, client }) => withChainLink(t, { position: position!, actor: 'application', client: client! }, async (link) => {
      const refreshed = await refreshAs(t, link.refreshToken, link.client);
      t.expect(tokenIssued(refreshed), `refresh grant with the ${position} link of the application's refresh chain of ${credentialWords(client!)}: expected HTTP 200 with a new token pair; got HTTP ${refreshed.status}`).toBe(true);
    }));
  });
});
