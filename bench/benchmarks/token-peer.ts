/**
 * The mock's token endpoint against a well-known OAuth mock, oauth2-mock-server
 * (RS256 key, its quick-start set-up), both on loopback in this process: the
 * client_credentials grant and the refresh_token grant, at 1 and at 10
 * connections, in alternating rounds. Each of our refresh chains is sequential
 * (a refresh token is single use); the peer takes any refresh token it issued.
 */
import { OAuth2Server } from 'oauth2-mock-server';
import { createMock } from '../../mock/server.js';
import type { Benchmark } from '../benchmark.js';
import { sideBySide } from '../compare.js';
import { LoopbackClient } from '../http.js';
import { MockFlows, type TokenPair } from '../mock-flows.js';
import { atLeast, compared, type Metric } from '../result.js';
import { BenchError } from '../safe-error.js';

const GOAL = atLeast(3);
const PEER_CLIENT_ID = 'lockconf-bench';
/** Requests per side before the timed rounds. */
const WARM_UP = 300;
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export const tokenPeer: Benchmark = {
  name: 'token-peer',
  title: 'mock token endpoint (client_credentials, refresh_token) against oauth2-mock-server, 1 and 10 connections',
  async run(ctx) {
    const mock = await createMock();
    const peer = new OAuth2Server();
    await peer.issuer.keys.generate('RS256');
    await peer.start(0, '127.0.0.1');
    const peerUrl = peer.issuer.url;
    if (!peerUrl) throw new BenchError('oauth2-mock-server did not report its address');
    const { profile } = mock;
    const closers: Array<() => Promise<void>> = [];
    try {
      // The operator's permission for the client_credentials grant (control protocol).
      const control = new LoopbackClient(mock.url, 1);
      closers.push(() => control.close());
      await control.send('POST', '/_control/client-credentials', {
        headers: { 'x-control-token': profile.controlToken ?? '' },
        json: { clientId: profile.clientId, enabled: true },
        expect: [200, 204],
      });
      const metrics: Metric[] = [];
      for (const connections of [1, 10]) {
        const flows = new MockFlows(mock, connections);
        const ours = flows.client;
        const theirs = new LoopbackClient(peerUrl, connections);
        closers.push(() => flows.close(), () => theirs.close());
        const ourGrant = (fields: Record<string, string>) =>
          ours.send('POST', '/oauth/access_token', { form: { client_id: profile.clientId, client_secret: profile.clientSecret, ...fields }, expect: 200 });
        const peerGrant = (fields: Record<string, string>) =>
          theirs.send('POST', '/token', { form: { client_id: PEER_CLIENT_ID, ...fields }, expect: 200 });
        const perRound = connections === 1 ? ctx.size(150, 40) : ctx.size(400, 80);
        const rounds = ctx.size(4, 2);
        // Both sides warmed up alike before the timed rounds, so JIT compilation is not timed.
        const warmUp = ctx.size(WARM_UP, 30);

        // client_credentials: every request stands alone, its form body the same each time
        // (encoded once per side, so the load client's share of the time stays small).
        const ourCc = formBody({ client_id: profile.clientId, client_secret: profile.clientSecret, grant_type: 'client_credentials' });
        const peerCc = formBody({ client_id: PEER_CLIENT_ID, grant_type: 'client_credentials' });
        const ccSubject = async () => void (await ours.send('POST', '/oauth/access_token', { headers: FORM_HEADERS, body: ourCc, expect: 200 }));
        const ccReference = async () => void (await theirs.send('POST', '/token', { headers: FORM_HEADERS, body: peerCc, expect: 200 }));
        await sideBySide({ rounds: 1, perRound: warmUp, concurrency: connections, subject: ccSubject, reference: ccReference });
        const ccRates = await sideBySide({ rounds, perRound, concurrency: connections, subject: ccSubject, reference: ccReference });
        metrics.push(compared(`token-peer.client-credentials.${connections}-conn`,
          { value: ccRates.subject, unit: 'req/s' }, { value: ccRates.reference, unit: 'req/s', what: 'oauth2-mock-server' }, GOAL));

        // refresh_token: one chain per connection, each answer's refresh token redeemed next.
        const chains: TokenPair[] = await Promise.all(Array.from({ length: connections }, () => flows.session()));
        const firstPeer = JSON.parse((await peerGrant({ grant_type: 'authorization_code', code: 'bench', redirect_uri: 'http://127.0.0.1/cb' })).text) as { refresh_token?: string };
        const peerChains = Array.from({ length: connections }, () => firstPeer.refresh_token ?? '');
        const ourRefresh = async (_i: number, w: number) => {
          chains[w] = await flows.refresh(chains[w]!.refreshToken);
        };
        const peerRefresh = async (_i: number, w: number) => {
          const body = JSON.parse((await peerGrant({ grant_type: 'refresh_token', refresh_token: peerChains[w]! })).text) as { refresh_token?: string };
          if (typeof body.refresh_token !== 'string') throw new BenchError('oauth2-mock-server answered a refresh without a refresh token');
          peerChains[w] = body.refresh_token;
        };
        await sideBySide({ rounds: 1, perRound: warmUp, concurrency: connections, subject: ourRefresh, reference: peerRefresh });
        const refreshRates = await sideBySide({ rounds, perRound, concurrency: connections, subject: ourRefresh, reference: peerRefresh });
        metrics.push(compared(`token-peer.refresh.${connections}-conn`,
          { value: refreshRates.subject, unit: 'req/s' }, { value: refreshRates.reference, unit: 'req/s', what: 'oauth2-mock-server' }, GOAL));
        ctx.log(`${connections} connection(s): client_credentials ${Math.round(ccRates.subject)} vs ${Math.round(ccRates.reference)} req/s, refresh ${Math.round(refreshRates.subject)} vs ${Math.round(refreshRates.reference)} req/s`);
      }
      return metrics;
    } finally {
      for (const close of closers.reverse()) await close().catch(() => undefined);
      await peer.stop();
      await mock.close();
    }
  },
};
