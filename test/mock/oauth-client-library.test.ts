/**
 * A standard OAuth 2.0 client library from npm (openid-client, configured for
 * client_secret_post and the spec's endpoint paths) completes the code grant
 * and the refresh grant against the mock, over real sockets.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { consent, useMock } from '../support/mock.js';

describe('openid-client against the mock', () => {
  const ctx = useMock();

  function configuration(): client.Configuration {
    const { profile } = ctx.mock;
    const server: client.ServerMetadata = {
      issuer: profile.authUrl,
      authorization_endpoint: `${profile.authUrl}/authorization`,
      token_endpoint: `${profile.authUrl}/access_token`,
      token_endpoint_auth_methods_supported: ['client_secret_post'],
    };
    const config = new client.Configuration(server, profile.clientId, { redirect_uris: [profile.redirectUri] }, client.ClientSecretPost(profile.clientSecret));
    // The mock speaks plain http on 127.0.0.1.
    client.allowInsecureRequests(config);
    return config;
  }

  it('completes the authorization code grant and then the refresh grant', async () => {
    const config = configuration();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, { redirect_uri: ctx.mock.profile.redirectUri, state });

    const { status, location } = await consent(ctx.mock, { url: authorizationUrl.href });
    expect(status).toBe(200);

    const tokens = await client.authorizationCodeGrant(config, new URL(location!), { expectedState: state });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expiresIn()).toBeGreaterThan(24 * 3600);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await ctx.mock.ctx.tokens.verify(tokens.access_token)).toMatchObject({ userId: ctx.mock.ctx.world.users[0]!.userId });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await ctx.mock.ctx.tokens.verify(refreshed.access_token)).not.toBeNull();

    // The used refresh token is refused with an OAuth 2.0 error the library understands.
    const reuse = await client.refreshTokenGrant(config, tokens.refresh_token!).then(() => null, (error: unknown) => error);
    expect(reuse).toBeInstanceOf(client.ResponseBodyError);
    expect((reuse as client.ResponseBodyError).error).toBe('invalid_grant');
    expect((reuse as client.ResponseBodyError).status).toBe(400);
  });

  it('the library rejects a redirect whose state does not match', async () => {
    const config = configuration();
    const authorizationUrl = client.buildAuthorizationUrl(config, { redirect_uri: ctx.mock.profile.redirectUri, state: 'sent' });
    const { location } = await consent(ctx.mock, { url: authorizationUrl.href });
    await expect(client.authorizationCodeGrant(config, new URL(location!), { expectedState: 'other' })).rejects.toThrow();
  });
});
