/**
 * The service the kill test runs against: the reference mock with its control
 * interface, so a fresh sign-in (the start of the chain, and a re-seed after a
 * loss) is one POST /_control/consent and a code exchange.
 */
import { randomBytes } from 'node:crypto';
import { createMock } from '../../../../mock/server.js';
import type { TargetProfile, TokenSet } from '../../../../harness/contracts.js';
import { tokenSetFromResponse } from '../../../../harness/sandbox/token-cache.js';
import { fetchHttp } from './fetch-http.js';

export interface KillTarget {
  profile: TargetProfile;
  signIn(): Promise<TokenSet>;
  close(): Promise<void>;
}

export async function startKillTarget(): Promise<KillTarget> {
  const mock = await createMock({ control: true });
  const { profile } = mock;
  const http = fetchHttp(profile);
  const userId = mock.ctx.world.users[0]!.userId;
  return {
    profile,
    async signIn() {
      const query = new URLSearchParams({ client_id: profile.clientId, redirect_uri: profile.redirectUri, state: randomBytes(8).toString('hex') });
      const consent = await http.request({
        method: 'POST',
        url: `${profile.controlUrl}/consent`,
        headers: { 'x-control-token': profile.controlToken ?? '' },
        json: { authorizationUrl: `${profile.authUrl}/authorization?${query}`, userId, decision: 'approve' },
      });
      const code = new URL(String(consent.json?.location)).searchParams.get('code') ?? '';
      const res = await http.request({
        method: 'POST',
        url: `${profile.authUrl}/access_token`,
        form: [['client_id', profile.clientId], ['client_secret', profile.clientSecret], ['grant_type', 'authorization_code'], ['code', code]],
      });
      const tokens = tokenSetFromResponse(res, Date.now());
      if (!tokens) throw new Error(`sign-in through the control interface failed: HTTP ${consent.status} then ${res.status}`);
      return tokens;
    },
    close: () => mock.close(),
  };
}
