/**
 * Refresh chains (spec: States and transitions → Refresh token: "the new refresh
 * token replaces it"): a live refresh token at a given link of its chain, the
 * first (from the grant) or a later one (the third, after two refreshes), of the
 * user's account or of the application's own (client_credentials).
 */
import type { SuiteContext } from './context.js';
import { control } from './context.js';
import { withGrantRequest } from './grants.js';
import { prerequisite } from './prerequisite.js';
import { postToken, refreshGrant, tokenIssued } from './tokens.js';

export interface ChainLink {
  refreshToken: string;
  accessToken: string;
}

export interface ChainOptions {
  /** The slice dimension `position`: 'first' or 'later' (the third link). */
  position: string;
  /** The slice dimension `actor`: 'user' (default) or 'application'. */
  actor?: string;
  /** Clock time between the links of a later one (each token's own issue is then well after the chain's start). */
  gapMs?: number;
}

/** Redeem a refresh token; the next link, or the test fails with what came back. */
export async function nextLink(t: SuiteContext, refreshToken: string, what: string): Promise<ChainLink> {
  const res = await postToken(t, refreshGrant(t, refreshToken));
  t.expect(tokenIssued(res) && typeof res.json?.refresh_token === 'string', `${what}: expected HTTP 200 with a new token pair; got HTTP ${res.status}`).toBe(true);
  return { refreshToken: res.json.refresh_token, accessToken: res.json.access_token };
}

/** Run fn with a live link of a refresh chain (client_credentials stays permitted meanwhile). */
export async function withChainLink<T>(t: SuiteContext, opts: ChainOptions, fn: (link: ChainLink) => Promise<T>): Promise<T> {
  const build = async (first: ChainLink): Promise<T> => {
    if (opts.position === 'first') return fn(first);
    if (opts.gapMs && !t.target.has('clock')) t.notTested(`a later link issued well after its chain began needs the clock: ${t.target.whyMissing('clock') ?? 'not offered'}`);
    let link = first;
    for (const n of [2, 3]) {
      if (opts.gapMs) await control(t).advanceClock(opts.gapMs);
      // A chain is built with the refresh grant: when it gives no new pair, REFRESH-NEW-PAIR's own test judges that.
      const previous = link;
      link = await prerequisite(t, 'REFRESH-NEW-PAIR', async () => {
        const next = await nextLink(t, previous.refreshToken, `building the chain: redeeming link ${n - 1}`);
        t.expect(next.refreshToken !== previous.refreshToken, `building the chain: redeeming link ${n - 1} must return a new refresh token`).toBe(true);
        return next;
      });
    }
    return fn(link);
  };
  if (opts.actor === 'application') {
    return withGrantRequest(t, 'client_credentials', async (body) => {
      const res = await postToken(t, body);
      await prerequisite(t, ['TOKEN-CC-ENABLED-WORKS', 'TOKEN-RESPONSE-SHAPE'], () => {
        t.expect(tokenIssued(res) && typeof res.json?.refresh_token === 'string', `client_credentials grant (permitted): expected a token pair; got HTTP ${res.status}`).toBe(true);
      });
      return build({ refreshToken: res.json.refresh_token, accessToken: res.json.access_token });
    });
  }
  if (!t.target.has('user-token')) t.notTested(`needs user-token: ${t.target.whyMissing('user-token') ?? 'not offered'}`);
  const session = await t.flows.userSession();
  return build({ refreshToken: session.refreshToken, accessToken: session.accessToken });
}
