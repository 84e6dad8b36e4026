/**
 * Refresh chains (spec: States and transitions → Refresh token: "the new refresh
 * token replaces it"): a live refresh token at a given link of its chain, the
 * first (from the grant), a later one (the third, after two refreshes) or one far
 * down (the 31st, after 30 refreshes a day apart), of a lock owner's account, a
 * guest's or the application's own (client_credentials), issued to the profile's
 * credential or to the second one of the fixtures.
 */
import type { SuiteContext } from './context.js';
import { control } from './context.js';
import { withGrantRequestAs } from './grants.js';
import { prerequisite } from './prerequisite.js';
import { postToken, refreshGrant, tokenIssued } from './tokens.js';
import { ownCodeExchange, postTokenAs, secondClient } from './second-client.js';
import type { FixtureClient } from '../../harness/contracts.js';

export interface ChainLink {
  refreshToken: string;
  accessToken: string;
  /** The credential the chain was issued to (absent: the profile's); its refresh grant must be made as that credential. */
  client?: FixtureClient;
}

/** The 31st link: the slice dimension `chain-length` long, 30 refreshes after the grant. */
export const LONG_CHAIN_LINK = 31;
const DAY_MS = 86_400_000;

export interface ChainOptions {
  /** The slice dimension `position`: 'first' or 'later' (the third link). */
  position: string;
  /** The slice dimension `actor`: 'owner' (default: the fixtures' first user), 'guest' (the second) or 'application'. */
  actor?: string;
  /** The slice dimension `client`: 'profile' (default) or 'second' (GET /fixtures `clients`, its own code exchange, by the owner). */
  client?: string;
  /** The slice dimension `chain-length`: 'long' builds the 31st link, the clock a day on before each refresh (needs the clock). */
  chainLength?: string;
  /** Clock time between the links of a later one (each token's own issue is then well after the chain's start). */
  gapMs?: number;
}

/** The refresh grant for a link, made as the credential its chain was issued to. */
export function refreshAs(t: SuiteContext, refreshToken: string, client?: FixtureClient) {
  return client ? postTokenAs(t, client, { grant_type: 'refresh_token', refresh_token: refreshToken }) : postToken(t, refreshGrant(t, refreshToken));
}

/** Redeem a refresh token (as `client`, default the profile's credential); the next link, or the test fails with what came back. */
export async function nextLink(t: SuiteContext, refreshToken: string, what: string, client?: FixtureClient): Promise<ChainLink> {
  const res = await refreshAs(t, refreshToken, client);
  t.expect(tokenIssued(res) && typeof res.json?.refresh_token === 'string', `${what}: expected HTTP 200 with a new token pair; got HTTP ${res.status}`).toBe(true);
  return { refreshToken: res.json.refresh_token, accessToken: res.json.access_token, ...(client ? { client } : {}) };
}

/** Run fn with a live link of a refresh chain (client_credentials stays permitted meanwhile). */
export async function withChainLink<T>(t: SuiteContext, opts: ChainOptions, fn: (link: ChainLink) => Promise<T>): Promise<T> {
  const build = async (first: ChainLink): Promise<T> => {
    const long = opts.chainLength === 'long';
    if (opts.position === 'first' && !long) return fn(first);
    const gapMs = long ? DAY_MS : opts.gapMs;
    if (gapMs && !t.target.has('clock')) t.notTested(`a later link issued well after its chain began needs the clock: ${t.target.whyMissing('clock') ?? 'not offered'}`);
    let link = first;
    const lastLink = long ? LONG_CHAIN_LINK : 3;
    for (let n = 2; n <= lastLink; n++) {
      if (gapMs) await control(t).advanceClock(gapMs);
      // A chain is built with the refresh grant: when it gives no new pair, REFRESH-NEW-PAIR's own test judges that.
      const previous = link;
      link = await prerequisite(t, 'REFRESH-NEW-PAIR', async () => {
        const next = await nextLink(t, previous.refreshToken, `building the chain: redeeming link ${n - 1}`, previous.client);
        t.expect(next.refreshToken !== previous.refreshToken, `building the chain: redeeming link ${n - 1} must return a new refresh token`).toBe(true);
        return next;
      });
    }
    return fn(link);
  };
  if (opts.actor === 'application') {
    // The application's own account of either credential: its client_credentials grant, permitted meanwhile.
    const client = opts.client === 'second' ? secondClient(t) : undefined;
    return withGrantRequestAs(t, 'client_credentials', opts.client ?? 'profile', async (body) => {
      const res = await postToken(t, body);
      await prerequisite(t, ['TOKEN-CC-ENABLED-WORKS', 'TOKEN-RESPONSE-SHAPE'], () => {
        t.expect(tokenIssued(res) && typeof res.json?.refresh_token === 'string', `client_credentials grant (permitted${client ? ', the second credential' : ''}): expected a token pair; got HTTP ${res.status}`).toBe(true);
      });
      return build({ refreshToken: res.json.refresh_token, accessToken: res.json.access_token, ...(client ? { client } : {}) });
    });
  }
  if (opts.client === 'second') {
    const client = secondClient(t);
    const res = await ownCodeExchange(t, client);
    if (typeof res.json?.refresh_token !== 'string') t.notTested('the second credential\'s own code exchange gave no refresh_token');
    return build({ refreshToken: res.json.refresh_token, accessToken: res.json.access_token, client });
  }
  if (!t.target.has('user-token')) t.notTested(`needs user-token: ${t.target.whyMissing('user-token') ?? 'not offered'}`);
  const guest = opts.actor === 'guest';
  if (guest && !t.target.has('second-user')) t.notTested('the fixtures name no guest (second user)');
  const session = await t.flows.userSession(guest ? 1 : 0);
  return build({ refreshToken: session.refreshToken, accessToken: session.accessToken });
}
