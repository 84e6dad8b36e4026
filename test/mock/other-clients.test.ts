/**
 * The mock's second client credential (GET /_control/fixtures `clients`): a working
 * credential of its own at the authorization and token endpoints and the API, whose
 * client_credentials permission, codes and refresh tokens are its own; and the three
 * faults that break exactly that.
 */
import { describe, expect, it } from 'vitest';
import type { FixtureClient } from '../../harness/contracts.js';
import type { RunningMock } from '../../mock/server.js';
import { authorizationCode, authorizationUrl, consent, control, tokenRequest, useMock, withMock } from '../support/mock.js';

async function secondOf(mock: RunningMock): Promise<FixtureClient> {
  const res = await control(mock, 'GET', '/fixtures');
  const clients = res.json().clients as FixtureClient[];
  expect(clients).toHaveLength(1);
  return clients[0]!;
}

/** A code issued to the second client for users[0], through consent with its own client_id and redirect URI. */
async function codeOf(mock: RunningMock, client: FixtureClient): Promise<string> {
  const { location } = await consent(mock, { url: authorizationUrl(mock, { client_id: client.clientId, redirect_uri: client.redirectUri }) });
  expect(location?.startsWith(`${client.redirectUri}&code=`)).toBe(true);
  return new URL(location!).searchParams.get('code')!;
}

const as = (client: FixtureClient) => ({ client_id: client.clientId, client_secret: client.clientSecret });

describe('a second client credential', () => {
  const ctx = useMock();

  it('is listed with its four fields, differs from the profile\'s credential, and is in the profile\'s fixtures', async () => {
    const second = await secondOf(ctx.mock);
    expect(Object.keys(second).sort()).toEqual(['apiKey', 'clientId', 'clientSecret', 'redirectUri']);
    expect(second.clientId).not.toBe(ctx.mock.profile.clientId);
    expect(second.clientSecret).not.toBe(ctx.mock.profile.clientSecret);
    expect(ctx.mock.profile.fixtures?.clients).toEqual([second]);
  });

  it('exchanges its own code, refreshes its own token and calls the API with its own API key', async () => {
    const second = await secondOf(ctx.mock);
    const res = await tokenRequest(ctx.mock, { ...as(second), grant_type: 'authorization_code', code: await codeOf(ctx.mock, second) });
    expect(res.status).toBe(200);
    const refreshed = await tokenRequest(ctx.mock, { ...as(second), grant_type: 'refresh_token', refresh_token: res.json.refresh_token });
    expect(refreshed.status).toBe(200);
    const me = await ctx.mock.app.inject({ method: 'GET', url: '/api/users/me', headers: { 'x-api-key': second.apiKey, 'x-access-token': refreshed.json.access_token } });
    expect(me.statusCode).toBe(200);
  });

  it('the profile\'s redirect URI is not registered for it, nor its own for the profile\'s client', async () => {
    const second = await secondOf(ctx.mock);
    expect((await consent(ctx.mock, { url: authorizationUrl(ctx.mock, { client_id: second.clientId }) })).status).toBe(422);
    expect((await consent(ctx.mock, { url: authorizationUrl(ctx.mock, { redirect_uri: second.redirectUri }) })).status).toBe(422);
  });

  it('owns its permission, codes and refresh tokens: each is refused to the other credential', async () => {
    const second = await secondOf(ctx.mock);
    expect((await control(ctx.mock, 'POST', '/client-credentials', { clientId: ctx.mock.profile.clientId, enabled: true })).statusCode).toBe(204);
    expect((await tokenRequest(ctx.mock, { grant_type: 'client_credentials' })).status).toBe(200);
    expect((await tokenRequest(ctx.mock, { ...as(second), grant_type: 'client_credentials' })).status).toBe(400);
    expect((await control(ctx.mock, 'POST', '/client-credentials', { clientId: second.clientId, enabled: true })).statusCode).toBe(204);
    expect((await tokenRequest(ctx.mock, { ...as(second), grant_type: 'client_credentials' })).status).toBe(200);
    expect((await tokenRequest(ctx.mock, { ...as(second), grant_type: 'authorization_code', code: await authorizationCode(ctx.mock) })).status).toBe(400);
    const first = await tokenRequest(ctx.mock, { grant_type: 'authorization_code', code: await authorizationCode(ctx.mock) });
    expect((await tokenRequest(ctx.mock, { ...as(second), grant_type: 'refresh_token', refresh_token: first.json.refresh_token })).status).toBe(400);
    // The refused attempt did not spend it: its own client still redeems it.
    expect((await tokenRequest(ctx.mock, { grant_type: 'refresh_token', refresh_token: first.json.refresh_token })).status).toBe(200);
  });
});

describe('second-client faults', () => {
  it('cc-permission-shared: the permission granted to the first credential lets the second use the grant', () =>
    withMock({ faults: ['cc-permission-shared'] }, async (mock) => {
      const second = await secondOf(mock);
      expect((await tokenRequest(mock, { ...as(second), grant_type: 'client_credentials' })).status).toBe(400);
      await control(mock, 'POST', '/client-credentials', { clientId: mock.profile.clientId, enabled: true });
      expect((await tokenRequest(mock, { ...as(second), grant_type: 'client_credentials' })).status).toBe(200);
    }));

  it('code-redeemable-by-other-client: the second credential exchanges the first one\'s code', () =>
    withMock({ faults: ['code-redeemable-by-other-client'] }, async (mock) => {
      const second = await secondOf(mock);
      expect((await tokenRequest(mock, { ...as(second), grant_type: 'authorization_code', code: await authorizationCode(mock) })).status).toBe(200);
    }));

  it('refresh-redeemable-by-other-client: the second credential redeems the first one\'s refresh token', () =>
    withMock({ faults: ['refresh-redeemable-by-other-client'] }, async (mock) => {
      const second = await secondOf(mock);
      const first = await tokenRequest(mock, { grant_type: 'authorization_code', code: await authorizationCode(mock) });
      expect((await tokenRequest(mock, { ...as(second), grant_type: 'refresh_token', refresh_token: first.json.refresh_token })).status).toBe(200);
    }));
});
