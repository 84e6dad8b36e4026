/**
 * Refresh tokens (spec: States and transitions → Refresh token; Refresh flow;
 * Errors; Limits): one use each, a new pair per use, one year of life, revocation,
 * and OAuth 2.0 error bodies when refused.
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import type { HttpResponse } from '../../harness/contracts.js';
import { oauthErrorSchema, explain, tokenResponseSchema } from '../schemas/token.js';
import type { SuiteContext } from '../support/context.js';
import { control } from '../support/context.js';
import { codeGrant, freshCode, isJwt, postToken, refreshGrant, rememberTokens, sameShapeToken, tokenIssued } from '../support/tokens.js';
import { ownCodeExchange, postTokenAs, secondClient } from '../support/second-client.js';
import { PrerequisiteFailed, prerequisite } from '../support/prerequisite.js';
import { nextLink, refreshAs, withChainLink, type ChainLink } from '../support/refresh-chain.js';
import { eachSlicePair } from '../support/slice-pairs.js';
import { credentialWords } from '../support/client-tokens.js';

const DAY = 86_400_000;

/** The slice dimension `refresh-age`: how many days after its issue a token is presented (a minute more past the year). */
const REFRESH_AGE_DAYS: Readonly<Record<string, number>> = {
  'one-month': 31, 'eleven-months': 334, 'just-under-year': 364, 'just-past-year': 366, 'years-past': 3 * 365,
};

function refresh(t: SuiteContext, refreshToken: string): Promise<HttpResponse> {
  return postToken(t, refreshGrant(t, refreshToken));
}

/** A refresh token that has been used once (and the answer of that use); a refused first use blocks by REFRESH-NEW-PAIR. */
async function usedRefreshToken(t: SuiteContext) {
  const session = await t.flows.userSession();
  const first = await refresh(t, session.refreshToken);
  await prerequisite(t, 'REFRESH-NEW-PAIR', () => {
    t.expect(tokenIssued(first), `first use of a fresh refresh token: expected a token response; got HTTP ${first.status}`).toBe(true);
  });
  return { session, first };
}

/** The Errors row covers expired, used and revoked tokens alike: each refusal is judged for its body too. */
async function expectOAuthErrorBody(t: SuiteContext, res: HttpResponse, what: string): Promise<void> {
  await t.check('REFRESH-ERROR-RESPONSE', () => {
    const parsed = oauthErrorSchema.safeParse(res.json);
    t.expect(parsed.success, `${what}: the body must be an OAuth 2.0 error object {"error": "…"}; ${res.json === undefined ? `got non-JSON ${JSON.stringify(res.text.slice(0, 80))}` : explain(parsed)}`).toBe(true);
  });
}

/**
 * A refresh request refused for `cause` (Errors: "refresh_token expired, already used, or
 * revoked"): a token used once, one past its year (the target's clock), one revoked (the
 * control protocol). A target that cannot bring the cause about leaves the slice not tested.
 */
async function refusedFor(t: SuiteContext, cause: string): Promise<HttpResponse> {
  if (cause === 'used') {
    const { session } = await usedRefreshToken(t);
    return refresh(t, session.refreshToken);
  }
  const need = cause === 'expired' ? 'clock' : 'revoke';
  if (!t.target.has(need)) t.notTested(`a ${cause} refresh token needs ${need}: ${t.target.whyMissing(need) ?? 'not offered by the target'}`);
  const session = await t.flows.userSession();
  if (cause === 'expired') {
    await control(t).advanceClock(366 * DAY + 60_000);
  } else {
    const status = await control(t).revokeRefreshToken(session.refreshToken);
    if (status < 200 || status >= 300) t.notTested(`control: revoking a live refresh token answered ${status}`);
  }
  return refresh(t, session.refreshToken);
}

/** A refresh token of the `client` credential (profile, second) used once, presented again by that credential: the refusal. */
function usedAgainBy(t: SuiteContext, client: string): Promise<HttpResponse> {
  return withChainLink(t, { position: 'first', client }, async (link) => {
    await nextLink(t, link.refreshToken, `first use of a refresh token of the ${client} credential`, link.client);
    return refreshAs(t, link.refreshToken, link.client);
  });
}

function expectRefused400(t: SuiteContext, res: HttpResponse, what: string): void {
  t.expect(tokenIssued(res), `${what}: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
  t.expect(res.status, `${what}: expected HTTP 400; got HTTP ${res.status}`).toBe(400);
}

describe('Refresh token', () => {
  conformance('REFRESH-NEW-PAIR', 'a refresh returns a new access token and a new refresh token', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const res = await refresh(t, session.refreshToken);
    t.expect(res.status >= 200 && res.status < 300, `refresh grant: expected a token response (HTTP 2xx; the spec names no status); got HTTP ${res.status}`).toBe(true);
    t.expect(typeof res.json?.access_token, 'refresh grant: the response must carry access_token').toBe('string');
    t.expect(typeof res.json?.refresh_token, 'refresh grant: the response must carry refresh_token').toBe('string');
    t.expect(res.json.refresh_token === session.refreshToken, 'refresh grant: the returned refresh_token must be new, not the one redeemed').toBe(false);
    // The token response table covers the refresh_token grant too: its fields and its JWT are judged here as well.
    await t.check('TOKEN-RESPONSE-SHAPE', () => {
      const parsed = tokenResponseSchema.safeParse(res.json);
      t.expect(parsed.success, `refresh grant token response fields: ${explain(parsed)}`).toBe(true);
    });
    await t.check('TOKEN-ACCESS-TOKEN-JWT', () => {
      t.expect(isJwt(res.json.access_token), 'refresh grant: access_token must be a JWT (a JWS or a compact JWE)').toBe(true);
    });
    // A JWT without jti issued in the same second as the first can be byte-identical: observed, not judged.
    t.observe('returned access_token differs from the previous one', res.json.access_token !== session.accessToken);
    // "The new refresh token replaces it": the replacement must itself be redeemable.
    const next = await refresh(t, res.json.refresh_token);
    t.expect(tokenIssued(next), `refresh grant with the refresh_token the previous refresh returned: expected HTTP 200 with a new pair (it replaces the old one); got HTTP ${next.status}${tokenIssued(next) ? '' : ' and no token'}`).toBe(true);
  });

  conformance('REFRESH-SINGLE-USE', 'a used refresh token is refused with 400', { needs: ['user-token'] }, async (t) => {
    const { session } = await usedRefreshToken(t);
    const again = await refresh(t, session.refreshToken);
    expectRefused400(t, again, 'second use of a refresh token');
  });

  conformance('REFRESH-ERROR-RESPONSE', 'a refresh token refused as used, expired or revoked gets 400 with an OAuth 2.0 error body', { needs: ['user-token'] }, async (t) => {
    await t.eachSlice('refusal-cause', async (cause) => {
      const again = await refusedFor(t, cause);
      t.expect(again.status, `a ${cause} refresh token: expected HTTP 400; got HTTP ${again.status}`).toBe(400);
      t.observe(`content-type (${cause})`, again.headers['content-type'] ?? null);
      const parsed = oauthErrorSchema.safeParse(again.json);
      t.expect(parsed.success, `a ${cause} refresh token: the body must be an OAuth 2.0 error object {"error": "…"}; ${again.json === undefined ? `got non-JSON ${JSON.stringify(again.text.slice(0, 80))}` : explain(parsed)}`).toBe(true);
      t.observe(`error (${cause})`, again.json?.error ?? null);
    });
    // Every credential's refused tokens: a used one of the profile's credential and of the second of the fixtures.
    await t.eachSlice('client', async (client) => {
      const again = await usedAgainBy(t, client);
      t.expect(again.status, `a used refresh token of the ${client} credential: expected HTTP 400; got HTTP ${again.status}`).toBe(400);
      const parsed = oauthErrorSchema.safeParse(again.json);
      t.expect(parsed.success, `a used refresh token of the ${client} credential: the body must be an OAuth 2.0 error object {"error": "…"}; ${again.json === undefined ? `got non-JSON ${JSON.stringify(again.text.slice(0, 80))}` : explain(parsed)}`).toBe(true);
    });
  });

  conformance('REFRESH-ERROR-INVALID-GRANT', 'a refresh token refused as used, expired or revoked gets error=invalid_grant', { needs: ['user-token'] }, async (t) => {
    await t.eachSlice('refusal-cause', async (cause) => {
      const again = await refusedFor(t, cause);
      t.expect(again.json?.error, `a ${cause} refresh token: RFC 6749 §5.2 names invalid_grant; got ${JSON.stringify(again.json?.error ?? again.text.slice(0, 80))}`).toBe('invalid_grant');
    });
    await t.eachSlice('client', async (client) => {
      const again = await usedAgainBy(t, client);
      t.expect(again.json?.error, `a used refresh token of the ${client} credential: RFC 6749 §5.2 names invalid_grant; got ${JSON.stringify(again.json?.error ?? again.text.slice(0, 80))}`).toBe('invalid_grant');
    });
  });

  conformance('REFRESH-UNKNOWN-REFUSED', 'a refresh token the service never issued yields no token', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const forged = sameShapeToken(session.refreshToken);
    t.target.redactor.add(forged, 'refresh_token');
    const res = await refresh(t, forged);
    t.observe('an unknown refresh token of the right shape', { status: res.status, error: res.json?.error ?? null });
    t.expect(tokenIssued(res), `an unknown refresh token of the right shape: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
  });

  conformance('REFRESH-UNKNOWN-ERROR-ANSWER', 'a refresh token the service never issued is refused with 400 and an OAuth 2.0 error body (RFC 6749 §5.2)', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const forged = sameShapeToken(session.refreshToken);
    t.target.redactor.add(forged, 'refresh_token');
    const res = await refresh(t, forged);
    if (tokenIssued(res)) throw new PrerequisiteFailed('REFRESH-UNKNOWN-REFUSED', `an unknown refresh token was redeemed (HTTP ${res.status})`);
    t.expect(res.status, `an unknown refresh token: RFC 6749 §5.2 answers a refused token request with HTTP 400; got HTTP ${res.status}`).toBe(400);
    const parsed = oauthErrorSchema.safeParse(res.json);
    t.expect(parsed.success, `an unknown refresh token: the body should be an OAuth 2.0 error object {"error": "…"}; ${res.json === undefined ? `got non-JSON ${JSON.stringify(res.text.slice(0, 80))}` : explain(parsed)}`).toBe(true);
  });

  conformance('REFRESH-OTHER-CLIENT', 'a refresh token issued to one credential is refused to another', { needs: ['consent', 'second-client'] }, async (t) => {
    const second = secondClient(t);
    await ownCodeExchange(t, second);
    const issued = await postToken(t, codeGrant(t, await freshCode(t)));
    const refreshToken: unknown = issued.json?.refresh_token;
    if (!tokenIssued(issued) || typeof refreshToken !== 'string') throw new PrerequisiteFailed('OAUTH-CODE-EXCHANGE', `the profile's credential got no refresh_token from the code grant (HTTP ${issued.status})`);
    const res = await postTokenAs(t, second, { grant_type: 'refresh_token', refresh_token: refreshToken });
    t.observe('a refresh token of the profile\'s credential, redeemed by the second credential', { status: res.status, error: res.json?.error ?? null });
    t.expect(tokenIssued(res), `a live refresh token of the profile's credential, redeemed with a second credential's client_id and client_secret: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
  });

  conformance('REFRESH-REVOKED', 'a revoked refresh token can no longer be redeemed, at every link of a chain and for every account (owner, guest, the application)', { needs: ['revoke'] }, async (t) => {
    const revokedIsRefused = async (link: ChainLink, what: string) => {
      const status = await control(t).revokeRefreshToken(link.refreshToken);
      t.expect(status >= 200 && status < 300, `control: revoking ${what} answered ${status}`).toBe(true);
      const res = await refreshAs(t, link.refreshToken, link.client);
      expectRefused400(t, res, `${what}, revoked`);
      await expectOAuthErrorBody(t, res, `${what}, revoked`);
    };
    // Link and account drawn in pairs: a revocation that fails only on a guest's later link is caught too.
    await eachSlicePair(t, ['position', 'actor'], ({ position, actor }) => withChainLink(t, { position: position!, actor: actor! }, (link) => revokedIsRefused(link, `the ${position} link of the ${actor}'s chain`)));
    // Any issued token, whichever credential it was issued to: the second of the fixtures too.
    await t.eachSlice('client', (client) => withChainLink(t, { position: 'first', client }, (link) => revokedIsRefused(link, `a refresh token of the ${client} credential`)));
  });
});

describe('What the service does', () => {
  conformance('REFRESH-NEW-ACCESS-TOKEN', 'the refresh grant returns a new access token, not the one already held', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    // A JWT issued in another second differs in iat even without a jti: move a few seconds on first.
    const hasClock = t.target.has('clock');
    if (hasClock) await control(t).advanceClock(5_000);
    const res = await refresh(t, session.refreshToken);
    t.expect(tokenIssued(res), `refresh grant: expected HTTP 200 with a token response; got HTTP ${res.status}`).toBe(true);
    const same = res.json.access_token === session.accessToken;
    if (same && !hasClock) t.notTested('the refresh grant returned the access token already held, and without the clock lockconf cannot tell a reused token from one issued within the same second');
    t.expect(same, 'refresh grant: "a new access token" is returned; it is byte for byte the access token issued with the refresh token redeemed').toBe(false);
  });
});

describe('Refresh flow', () => {
  conformance('REFRESH-NEW-ACCESS-TOKEN-WORKS', 'the access token from a refresh works on GET /users/me, at every link of a chain and for every account (owner, guest, the application)', {}, async (t) => {
    const works = async (link: ChainLink, what: string) => {
      const next = await nextLink(t, link.refreshToken, what, link.client);
      // The call carries the API key of the credential the token was issued to ("x-api-key | <API_KEY> of the credential").
      const me = await t.http.api('GET', '/users/me', { accessToken: next.accessToken, ...(link.client ? { apiKey: link.client.apiKey } : {}) });
      rememberTokens(t, me);
      t.expect(me.status >= 200 && me.status < 300, `${what}: GET /users/me with the refreshed access token: expected 2xx; got HTTP ${me.status}`).toBe(true);
    };
    await eachSlicePair(t, ['position', 'actor'], ({ position, actor }) => withChainLink(t, { position: position!, actor: actor! }, (link) => works(link, `refreshing the ${position} link of the ${actor}'s chain`)));
    // Every credential's refresh: the second of the fixtures too, its token used with its own API key.
    await t.eachSlice('client', (client) => withChainLink(t, { position: 'first', client }, (link) => works(link, `refreshing a refresh token of the ${client} credential`)));
  });
});

describe('Refresh token, at every link of a chain', () => {
  conformance('REFRESH-NEW-PAIR', 'every link of a chain (the 31st too), of every account and every credential, is replaced by a new refresh token', {}, async (t) => {
    const replaced = async (link: ChainLink, what: string) => {
      const next = await nextLink(t, link.refreshToken, what, link.client);
      t.expect(next.refreshToken === link.refreshToken, `${what}: the returned refresh_token must be new, not the one redeemed`).toBe(false);
    };
    await eachSlicePair(t, ['position', 'actor'], ({ position, actor }) => withChainLink(t, { position: position!, actor: actor! }, (link) => replaced(link, `refreshing the ${position} link of the ${actor}'s chain`)));
    // Every credential's chains: the second credential of the fixtures, its own code exchanged.
    await t.eachSlice('client', (client) => withChainLink(t, { position: 'first', client }, (link) => replaced(link, `refreshing a refresh token of the ${client} credential`)));
    // Far down a chain: the 31st link, after 30 refreshes a day apart.
    await t.eachSlice('chain-length', (chainLength) => withChainLink(t, { position: 'later', chainLength }, (link) => replaced(link, 'refreshing the 31st link of a chain (30 refreshes a day apart)')));
  });

  conformance('REFRESH-SINGLE-USE', 'every link of a chain (the 31st too), of every credential, is refused with 400 once used', {}, async (t) => {
    const usedOnce = async (link: ChainLink, what: string) => {
      await nextLink(t, link.refreshToken, `first use of ${what}`, link.client);
      expectRefused400(t, await refreshAs(t, link.refreshToken, link.client), `second use of ${what}`);
    };
    // Link and credential drawn in pairs: the second credential's later links too.
    await eachSlicePair(t, ['position', 'client'], ({ position, client }) => withChainLink(t, { position: position!, client: client! }, (link) => usedOnce(link, `the ${position} link of a chain of the ${client} credential`)));
    await t.eachSlice('chain-length', (chainLength) => withChainLink(t, { position: 'later', chainLength }, (link) => usedOnce(link, 'the 31st link of a chain (30 refreshes a day apart)')));
  });

  conformance('REFRESH-SINGLE-USE', 'two presentations of one refresh token, one after the other\'s answer or both at once: at most one is redeemed', {}, async (t) => {
    await t.eachSlice('presentation', (presentation) => withChainLink(t, { position: 'first' }, async (link) => {
      if (presentation === 'one-after-another') {
        await nextLink(t, link.refreshToken, 'the first presentation');
        expectRefused400(t, await refresh(t, link.refreshToken), 'a second presentation, after the first was answered');
        return;
      }
      // "valid for exactly one use", however close together the presentations come: which one is
      // redeemed, and how the other is refused, is the target's to choose (so only the count is judged).
      const answers = await Promise.all([refresh(t, link.refreshToken), refresh(t, link.refreshToken)]);
      const redeemed = answers.filter((a) => tokenIssued(a)).length;
      t.observe('two presentations at once: the HTTP statuses', answers.map((a) => a.status).join(', '));
      t.expect(redeemed, `two presentations of one refresh token at once: at most one may be redeemed ("valid for exactly one use"); ${redeemed} were (HTTP ${answers.map((a) => a.status).join(' and ')})`).toBeLessThanOrEqual(1);
    }));
  });

  conformance('REFRESH-VALID-WITHIN-YEAR', 'a refresh token is still redeemed a month, eleven months and 364 days after its own issue, at every link of a chain', { needs: ['clock'] }, async (t) => {
    // A later link is issued 200 days after the one before it: its year counts from its own issue, not the chain's start.
    // Link and age drawn in pairs: every moment of the year on every link.
    // Link, age and credential drawn in pairs: the second credential's tokens keep their year too.
    await eachSlicePair(t, ['position', 'refresh-age', 'client'], ({ position, 'refresh-age': age, client }) => withChainLink(t, { position: position!, gapMs: 200 * DAY, client: client! }, async (link) => {
      const days = REFRESH_AGE_DAYS[age!]!;
      await control(t).advanceClock(days * DAY);
      const res = await refreshAs(t, link.refreshToken, link.client);
      t.expect(tokenIssued(res), `the ${position} link of a chain of ${credentialWords(client!)}, ${days} days after its own issue (within one year): a new token pair must be issued; got HTTP ${res.status}`).toBe(true);
    }));
  });

  conformance('REFRESH-EXPIRED-AFTER-YEAR', 'a refresh token is refused with 400 once a year has passed since its own issue (a minute past it, three years past it), at every link of a chain', { needs: ['clock'] }, async (t) => {
    // Link, age and credential drawn in pairs: the second credential's tokens expire too.
    await eachSlicePair(t, ['position', 'refresh-age', 'client'], ({ position, 'refresh-age': age, client }) => withChainLink(t, { position: position!, client: client! }, async (link) => {
      // A year may have 366 days: just past the longer one is past a year whichever is meant.
      const days = REFRESH_AGE_DAYS[age!]!;
      await control(t).advanceClock(days * DAY + 60_000);
      const res = await refreshAs(t, link.refreshToken, link.client);
      expectRefused400(t, res, `the ${position} link of a chain of ${credentialWords(client!)}, ${days} days and 1 minute after its issue`);
      await expectOAuthErrorBody(t, res, 'an expired refresh token');
    }));
  });
});
