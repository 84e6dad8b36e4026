/**
 * Authorization code flow (spec: GET {auth_url}/authorization; Authentication →
 * Authorization code flow; Errors) and the rules RFC 6749 imposes on codes and
 * redirect URIs.
 */
import { PrerequisiteFailed, prerequisite, rotatedTokenOf } from '../support/prerequisite.js';
import fc from 'fast-check';
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import { locationParams } from '../../harness/wire/secret-harvest.js';
import type { SuiteContext } from '../support/context.js';
import { control, newInbox } from '../support/context.js';
import { firstLock, sameId, user } from '../support/fixtures.js';
import { ARRIVAL_TIMEOUT_MS, LOOPING_TEST_TIMEOUT_MS, arrives, isEvent } from '../support/deliveries.js';
import { expectAccepted, registerUser } from '../support/webhooks.js';
import { checkProperty } from '../support/property.js';
import { charClassExample } from '../support/char-classes.js';
import { CHARS_DOMAIN } from '../../harness/catalog/slices/domains.js';
import { codeGrant, freshCode, postToken, refreshGrant, tokenIssued } from '../support/tokens.js';
import { ownCodeExchange, postTokenAs, secondClient } from '../support/second-client.js';
import { tokenResponseOf, withGrantRequestAs } from '../support/grants.js';
import { eachSlicePair } from '../support/slice-pairs.js';
import { onRedirectUri as isOn, onRegisteredRedirectUri } from '../../harness/wire/redirect-target.js';
import { asClient, clientWithShape, requestingClient, type RequestingClient } from '../support/redirect-clients.js';
import { expectRedirect302, getAuthorization, redirectUriVariant, shownLocation, unregisteredRedirectUris } from '../support/authorization-requests.js';


describe('GET {auth_url}/authorization', () => {
  conformance('OAUTH-AUTHZ-REDIRECT', 'the authorization step ends in an HTTP 302 redirect to the requesting credential\'s registered redirect_uri, its query, port and path kept', { needs: ['consent'] }, async (t) => {
    const redirects = async (client: RequestingClient, what: string) => {
      const result = await t.flows.authorize({ decision: 'approve', ...asClient(client) });
      t.observe(`first answer of GET /authorization (${what})`, result.initial.status);
      t.expect(result.location, `approval (${what}): expected a 302 Location on redirect_uri; the target refused to redirect`).not.toBeNull();
      t.expect(onRegisteredRedirectUri(result.location, client.redirectUri),
        `approval (${what}): expected the redirect to go to the registered redirect_uri ${client.redirectUri}, its query kept (RFC 6749 §3.1.2); it went to ${shownLocation(result.location)}`).toBe(true);
      expectRedirect302(t, result.redirectStatus, `approval (${what})`);
    };
    // Every credential's registered URI, and every shape a registered URI may have (a query, a port, a path).
    await t.eachSlice('client', (client) => redirects(requestingClient(t, client), `the ${client} credential`));
    await t.eachSlice('redirect-uri-shape', (shape) => redirects(clientWithShape(t, shape), `a registered redirect_uri with a ${shape}`));
  });

  conformance('OAUTH-SIGN-IN-STEP', 'the first answer of GET /authorization is a sign-in step (no error, no empty page), not a redirect to redirect_uri, whichever credential asks', {}, async (t) => {
    // Every application's request: the profile's credential and the second of the fixtures, each with its registered redirect_uri.
    await t.eachSlice('client', async (value) => {
      const client = requestingClient(t, value);
      const url = t.flows.authorizationUrl(asClient(client));
      const first = await getAuthorization(t, url);
      const params = locationParams(first.location);
      const what = `GET /authorization of the ${value} credential`;
      t.observe(`first answer of ${what}`, { status: first.status, redirects: first.location !== null, toRedirectUri: isOn(first.location, client.redirectUri) });
      t.expect(params.has('code'), `${what} answered HTTP ${first.status} with a Location carrying a code: the user must sign in, verify by SMS and approve first`).toBe(false);
      t.expect(isOn(first.location, client.redirectUri),
        `${what} answered HTTP ${first.status} straight to redirect_uri: the user signs in, verifies and approves or cancels before the server answers the application`).toBe(false);
      // A step of the sign-in: a page, or a redirect to one; not an error. 401 may carry a sign-in page; a 429 says nothing of the request.
      if (first.status === 429) t.notTested(`${what} answered HTTP 429 (too many requests): the first step of the sign-in could not be seen`);
      t.expect(first.status < 400 || first.status === 401,
        `${what} answered a valid authorization request with HTTP ${first.status}: its first answer must be a step of the sign-in (a page, or a redirect to one), not an error`).toBe(true);
      t.expect(first.status >= 200 && first.status < 300 && first.empty,
        `${what} answered a valid authorization request with HTTP ${first.status} and an empty body: a page with nothing on it is no step of the sign-in`).toBe(false);
    });
  });

  conformance('OAUTH-STATE-ECHO', 'state comes back unchanged, whatever its characters and length', { needs: ['consent'], timeout: 120_000 }, async (t) => {
    const reserved = fc.constantFrom(...'&=?#+%/ ;:@!$\'()*,[]'.split(''), '%20', '%2B', '+', '\u00e9', '\u{1F512}');
    // The chars domain (harness/catalog/slices/domains.ts): printable ASCII and beyond, drawn with the run's seed.
    const state = fc.oneof(
      { weight: 3, arbitrary: CHARS_DOMAIN.arbitrary() },
      { weight: 2, arbitrary: fc.string({ unit: reserved, minLength: 1, maxLength: 200 }) },
      { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'abcXYZ019-._~&=?#+%/'.split('')), minLength: 65, maxLength: 1500 }) },
    );
    // Every declared character class, each with a fixed example (never left to chance), then fast-check's own.
    await t.eachSlice('chars', async (cls) => {
      const sent = charClassExample(cls);
      const result = await t.flows.authorize({ decision: 'approve', state: sent });
      t.expect(result.location, `a state with ${cls} characters (${sent.length} long): expected a redirect to redirect_uri (${result.error ?? `status ${result.status}`})`).not.toBeNull();
      t.expect(result.params.get('state'), `a state with ${cls} characters must be returned unchanged`).toBe(sent);
    });
    // Every credential's requests: the state comes back to whichever application sent it, on its own registered URI.
    await t.eachSlice('client', async (value) => {
      const client = requestingClient(t, value);
      const sent = `lockconf ${value}+a&b=c/d?e%20f#g\u00e9`;
      const result = await t.flows.authorize({ decision: 'approve', state: sent, ...asClient(client) });
      t.expect(result.location, `the ${value} credential's approval: expected a redirect to its redirect_uri (${result.error ?? `status ${result.status}`})`).not.toBeNull();
      t.expect(result.params.get('state'), `the ${value} credential's approval: the state must be returned unchanged`).toBe(sent);
    });
    const long = 'x'.repeat(40) + '&state=forged#frag?q=1+2%2B%25/' + '\u00fc\u{1F510}'.repeat(20) + 'y'.repeat(1300);
    await checkProperty(t, {
      rule: 'state must be returned unchanged',
      arbitrary: state,
      numRuns: 12,
      // The domain's edges first (every printable ASCII character in one state; the characters beyond ASCII), never left to chance.
      examples: [...Object.values(CHARS_DOMAIN.edges), long, 'a+b c%20d&e=f'],
      show: (s) => ({ length: s.length, state: s.length > 200 ? `${s.slice(0, 200)}…` : s }),
    }, async (sent) => {
      const result = await t.flows.authorize({ decision: 'approve', state: sent });
      // No redirect, or one without any state: what OAUTH-CODE-ON-APPROVAL judges. When that
      // passed in the run (the failure is this state's), the verdict fails this test instead.
      if (result.location === null) throw new PrerequisiteFailed('OAUTH-CODE-ON-APPROVAL', `no redirect for a state of length ${sent.length} (${result.error ?? `status ${result.status}`})`);
      const got = result.params.get('state');
      if (got === sent) return null;
      if (got === null) throw new PrerequisiteFailed('OAUTH-CODE-ON-APPROVAL', `the redirect carries no state (sent ${sent.length} characters)`);
      return `sent a state of ${sent.length} characters, got back ${got.length}: ${JSON.stringify(got.slice(0, 80))} instead of ${JSON.stringify(sent.slice(0, 80))}`;
    });
  });

  conformance('OAUTH-MISSING-STATE', 'what the service answers when state is missing (not shown)', {}, async (t) => {
    const p = t.target.profile;
    const url = `${p.authUrl.replace(/\/+$/, '')}/authorization?${new URLSearchParams({ client_id: p.clientId, redirect_uri: p.redirectUri })}`;
    const first = await getAuthorization(t, url);
    t.observe('GET /authorization without state', { status: first.status, redirectsToRedirectUri: isOn(first.location, p.redirectUri) });
    if (t.control && t.target.has('consent')) {
      const answer = await t.control.consent(url, user(t, 0).userId, 'approve');
      const params = locationParams(answer.location);
      t.observe('consent without state', {
        status: answer.status, redirected: answer.location !== null, code: params.has('code'), state: params.get('state'), error: params.get('error') ?? answer.error ?? null,
      });
    }
  });

  conformance('OAUTH-REDIRECT-URI-REGISTERED', 'an unregistered redirect_uri is never redirected to', {}, async (t) => {
    const refused = async (evil: string) => {
      const url = t.flows.authorizationUrl({ redirectUri: evil });
      const first = await getAuthorization(t, url);
      t.observe(`GET /authorization with unregistered redirect_uri ${evil}`, first.status);
      t.expect(isOn(first.location, evil), `GET /authorization with the unregistered redirect_uri ${evil}: must not redirect to it; got HTTP ${first.status} to it`).toBe(false);
      if (t.target.has('consent')) {
        const result = await t.flows.authorize({ decision: 'approve', redirectUri: evil });
        t.observe(`consent with unregistered redirect_uri ${evil}`, { status: result.status, redirected: result.location !== null, error: result.error ?? null });
        t.expect(isOn(result.location, evil), `approval with the unregistered redirect_uri ${evil}: must not redirect to it; the consent step answered a Location on it`).toBe(false);
      }
    };
    for (const evil of unregisteredRedirectUris(t)) await refused(evil);
    // The registered URL with one component changed is another URL: each component on its own.
    await t.eachSlice('redirect-uri-part', async (part) => {
      const evil = redirectUriVariant(t.target.profile.redirectUri, part);
      if (evil === null) t.notTested(`the registered redirect_uri has no ${part} to change (no letter in its path)`);
      await refused(evil!);
    });
  });

  conformance('OAUTH-UNKNOWN-CLIENT-NO-REDIRECT', 'an unknown client_id is not redirected to the given redirect_uri', {}, async (t) => {
    const clientId = `lockconf-unknown-client-${Date.now().toString(36)}`;
    const redirectUri = t.target.profile.redirectUri;
    const url = t.flows.authorizationUrl({ clientId });
    const first = await getAuthorization(t, url);
    t.observe('GET /authorization with an unknown client_id', first.status);
    t.expect(isOn(first.location, redirectUri), `GET /authorization with an unknown client_id: must not redirect to redirect_uri; got HTTP ${first.status} to it`).toBe(false);
    if (t.target.has('consent')) {
      const result = await t.flows.authorize({ decision: 'approve', clientId });
      t.observe('consent with an unknown client_id', { status: result.status, redirected: result.location !== null, error: result.error ?? null });
      t.expect(isOn(result.location, redirectUri), 'approval for an unknown client_id: must not redirect to redirect_uri; the consent step answered a Location on it').toBe(false);
    }
  });
});

describe('Authorization code flow', () => {
  conformance('OAUTH-CODE-ON-APPROVAL', 'on approval the redirect query carries code and state', { needs: ['consent'] }, async (t) => {
    const state = `lockconf-${Date.now().toString(36)}`;
    const result = await t.flows.authorize({ decision: 'approve', state });
    t.expect(result.location, 'approval: expected a redirect to redirect_uri').not.toBeNull();
    t.expect(result.params.get('code'), 'approval: the redirect query must carry code').toBeTruthy();
    t.expect(result.params.get('state'), 'approval: the redirect query must carry the state sent').toBe(state);
    t.expect(result.params.has('error'), `approval: the redirect must not carry error (got error=${result.params.get('error')})`).toBe(false);
    // Whoever approves: the lock's owner and a guest on it ("token for one of the application's users").
    await t.eachSlice('approver', async (approver) => {
      if (approver === 'guest' && !t.target.has('second-user')) t.notTested('the fixtures name no guest (second user)');
      const sent = `${state}-${approver}`;
      const approved = await t.flows.authorize({ user: approver === 'owner' ? 0 : 1, decision: 'approve', state: sent });
      t.expect(approved.params.get('code'), `approval by the ${approver}: the redirect query must carry code`).toBeTruthy();
      t.expect(approved.params.get('state'), `approval by the ${approver}: the redirect query must carry the state sent`).toBe(sent);
    });
    // Whichever credential asks, whatever its registered redirect_uri holds: code and state readable in the query.
    const carries = async (client: RequestingClient, what: string) => {
      const sent = `${state}-${client.slice}`;
      const approved = await t.flows.authorize({ decision: 'approve', state: sent, ...asClient(client) });
      t.expect(approved.location, `approval (${what}): expected a redirect to redirect_uri (${approved.error ?? `status ${approved.status}`})`).not.toBeNull();
      t.expect(approved.params.get('code'), `approval (${what}): the redirect query must carry code; got ${shownLocation(approved.location)}`).toBeTruthy();
      t.expect(approved.params.get('state'), `approval (${what}): the redirect query must carry the state sent`).toBe(sent);
    };
    await t.eachSlice('client', (client) => carries(requestingClient(t, client), `the ${client} credential`));
    await t.eachSlice('redirect-uri-shape', (shape) => carries(clientWithShape(t, shape), `a registered redirect_uri with a ${shape}`));
  });

  conformance('OAUTH-DENIAL-ACCESS-DENIED', 'cancellation redirects with error=access_denied and the original state, whatever its characters', { needs: ['consent'] }, async (t) => {
    const state = `deny-${Date.now().toString(36)}+&=/?`;
    const result = await t.flows.authorize({ decision: 'deny', state });
    t.expect(result.location, 'cancellation: expected HTTP 302 to redirect_uri').not.toBeNull();
    t.expect(isOn(result.location, t.target.profile.redirectUri), 'cancellation: the redirect must go to redirect_uri').toBe(true);
    t.expect(result.params.get('error'), 'cancellation: the redirect query must carry error=access_denied').toBe('access_denied');
    t.expect(result.params.get('state'), 'cancellation: the redirect query must carry the original state, unchanged').toBe(state);
    t.expect(result.params.has('code'), 'cancellation: no code may be issued').toBe(false);
    // "the original state": each character class too.
    await t.eachSlice('chars', async (cls) => {
      const sent = charClassExample(cls);
      const denied = await t.flows.authorize({ decision: 'deny', state: sent });
      t.expect(denied.params.get('error'), `cancellation with a state of ${cls} characters: error=access_denied expected`).toBe('access_denied');
      t.expect(denied.params.get('state'), `cancellation: a state with ${cls} characters must come back as the original state`).toBe(sent);
    });
    // And the chars domain: its edges (every printable ASCII character, the characters beyond ASCII), then states drawn with the run's seed.
    await checkProperty(t, {
      rule: 'on cancellation the original state comes back',
      arbitrary: CHARS_DOMAIN.arbitrary(),
      numRuns: 4,
      examples: Object.values(CHARS_DOMAIN.edges),
      show: (s) => ({ length: s.length, state: s }),
    }, async (sent) => {
      const denied = await t.flows.authorize({ decision: 'deny', state: sent });
      if (denied.location === null) return `no redirect for a state of length ${sent.length} (${denied.error ?? `status ${denied.status}`})`;
      const got = denied.params.get('state');
      return got === sent ? null : `sent a state of ${sent.length} characters, got back ${got === null ? 'none' : `${JSON.stringify(got.slice(0, 80))} instead of ${JSON.stringify(sent.slice(0, 80))}`}`;
    });
    // Every credential's cancellation, on its own registered redirect_uri, whatever that URI holds (a query, a port, a path):
    // error and state readable, the registered query kept (RFC 6749 §3.1.2).
    const denied = async (client: RequestingClient, what: string) => {
      const sent = `deny-${client.slice}-${Date.now().toString(36)}`;
      const answer = await t.flows.authorize({ decision: 'deny', state: sent, ...asClient(client) });
      t.expect(answer.location, `cancellation (${what}): expected HTTP 302 to redirect_uri (${answer.error ?? `status ${answer.status}`})`).not.toBeNull();
      t.expect(onRegisteredRedirectUri(answer.location, client.redirectUri),
        `cancellation (${what}): the redirect must go to the registered redirect_uri ${client.redirectUri}, its query kept (RFC 6749 §3.1.2); it went to ${shownLocation(answer.location)}`).toBe(true);
      t.expect(answer.params.get('error'), `cancellation (${what}): the redirect query must carry error=access_denied; got ${shownLocation(answer.location)}`).toBe('access_denied');
      t.expect(answer.params.get('state'), `cancellation (${what}): the redirect query must carry the original state, unchanged`).toBe(sent);
      t.expect(answer.params.has('code'), `cancellation (${what}): no code may be issued`).toBe(false);
    };
    await t.eachSlice('client', (client) => denied(requestingClient(t, client), `the ${client} credential`));
    await t.eachSlice('redirect-uri-shape', (shape) => denied(clientWithShape(t, shape), `a registered redirect_uri with a ${shape}`));
    expectRedirect302(t, result.redirectStatus, 'cancellation');
  });

  conformance('OAUTH-CODE-EXCHANGE', 'a code is exchanged for a token response at POST /access_token', { needs: ['consent'] }, async (t) => {
    const code = await freshCode(t);
    const res = await postToken(t, codeGrant(t, code));
    t.expect(res.status >= 200 && res.status < 300, `code exchange: expected a token response (HTTP 2xx; the spec names no status); got HTTP ${res.status}`).toBe(true);
    t.expect(res.json?.access_token ?? null, 'code exchange: the response must carry access_token').not.toBeNull();
    t.expect(res.json?.refresh_token ?? null, 'code exchange: the response must carry refresh_token').not.toBeNull();
    // The fields' types are the token response's rule (TOKEN-RESPONSE-SHAPE): a wrong one blocks, it does not fail here.
    await tokenResponseOf(t, res, 'code exchange');
  });

  conformance('OAUTH-CODE-EXCHANGE', 'the tokens of a code exchange work: the API accepts the access token, the refresh grant redeems the refresh token', { needs: ['consent'] }, async (t) => {
    // access_token: "Token used in the x-access-token header"; refresh_token: "Single-use token for the refresh grant".
    const code = await freshCode(t);
    const res = await postToken(t, codeGrant(t, code));
    t.expect(tokenIssued(res), `code exchange: expected HTTP 200 with a token response; got HTTP ${res.status}`).toBe(true);
    const tokens = await tokenResponseOf(t, res, 'code exchange');
    const me = await t.http.api('GET', '/users/me', { accessToken: tokens.access_token });
    t.expect(me.status, 'GET /users/me with the access token of a code exchange: the token was refused as invalid (HTTP 401)').not.toBe(401);
    t.expect(me.status, `GET /users/me with the access token of a code exchange: the token was refused (HTTP ${me.status})`).not.toBe(403);
    t.expect(me.status, `GET /users/me with the access token of a code exchange: HTTP ${me.status}`).toBeLessThan(500);
    const refreshed = await postToken(t, refreshGrant(t, tokens.refresh_token));
    t.expect(tokenIssued(refreshed), `refresh grant with the refresh_token of a code exchange: expected HTTP 200 with a new token pair; got HTTP ${refreshed.status}`).toBe(true);
  });

  conformance('OAUTH-CODE-EXCHANGE', 'a code is still exchanged after a code was issued to another user', { needs: ['consent', 'second-user'] }, async (t) => {
    // Two approvals outstanding at once: issuing the second user's code must leave the first user's code exchangeable.
    const first = await freshCode(t, 0);
    const second = await freshCode(t, 1);
    const res = await postToken(t, codeGrant(t, first));
    t.expect(tokenIssued(res), `the first user's code, exchanged after the second user's code was issued: expected a token response; got HTTP ${res.status}`).toBe(true);
    const other = await postToken(t, codeGrant(t, second));
    t.expect(tokenIssued(other), `the second user's code, exchanged after the first: expected a token response; got HTTP ${other.status}`).toBe(true);
  });

  conformance('OAUTH-CODE-EXCHANGE', 'the access token a code yields acts for the user who approved it, a lock\'s owner or a guest', { needs: ['consent', 'second-user', 'capture', 'events'], lease: 'fixture-set', timeout: LOOPING_TEST_TIMEOUT_MS }, async (t) => {
    // "token for one of the application's users": a user webhook registered with it hears the approver's own user events.
    // (The body of GET /users/me is not shown: who a token acts for is seen through what it registers.)
    await t.eachSlice('approver', async (approver) => {
      const index = approver === 'owner' ? 0 : 1;
      const approving = user(t, index);
      const res = await postToken(t, codeGrant(t, await freshCode(t, index)));
      t.expect(tokenIssued(res), `the ${approver}'s code: expected a token response; got HTTP ${res.status}`).toBe(true);
      const tokens = await tokenResponseOf(t, res, `the ${approver}'s code exchange`);
      const inbox = await newInbox(t, { label: `code of the ${approver}` });
      expectAccepted(t, await registerUser(t, { inbox, accessToken: tokens.access_token }), `user webhook registered with the token of the ${approver}'s code`);
      await control(t).emit({ kind: 'lock_user_add', lockId: firstLock(t).lockId, userId: approving.userId });
      const heard = await arrives(inbox, (d) => isEvent('lock_user_add')(d) && sameId(d.json?.UserID, approving.userId));
      t.expect(heard, `the token of a code the ${approver} approved must act for the ${approver}: a user webhook registered with it heard no lock_user_add for that user within ${ARRIVAL_TIMEOUT_MS} ms`).toBe(true);
    });
  });
});

describe('RFC 6749: authorization codes', () => {
  conformance('OAUTH-CODE-SINGLE-USE', 'a code already exchanged is refused, no second token is issued, whether the exchanges come one after the other or both at once, whichever credential it was issued to', { needs: ['consent'] }, async (t) => {
    // "The client MUST NOT use the authorization code more than once": every client's codes, the second
    // credential's own (exchanged as that credential), drawn in pairs with how the two exchanges meet.
    await eachSlicePair(t, ['presentation', 'client'], ({ presentation, client }) => withGrantRequestAs(t, 'authorization_code', client!, async (exchange) => {
      const whose = client === 'second' ? 'the second credential\'s code' : 'a fresh code';
      if (presentation === 'one-after-another') {
        const first = await postToken(t, exchange);
        t.expect(tokenIssued(first), `first exchange of ${whose}: expected a token; got HTTP ${first.status}`).toBe(true);
        const second = await postToken(t, exchange);
        t.observe(`second exchange answer (${client})`, { status: second.status, error: second.json?.error ?? null });
        t.expect(tokenIssued(second), `second exchange of ${whose}: must be denied; got HTTP ${second.status} with a token`).toBe(false);
        return;
      }
      // Both at once: which one is served, and how the other is denied, is the target's (so only the count is judged).
      const answers = await Promise.all([postToken(t, exchange), postToken(t, exchange)]);
      const issued = answers.filter((a) => tokenIssued(a)).length;
      t.observe(`two exchanges at once (${client}): the HTTP statuses`, answers.map((a) => a.status).join(', '));
      t.expect(issued, `two exchanges of ${whose} at once: at most one may issue a token; ${issued} did (HTTP ${answers.map((a) => a.status).join(' and ')})`).toBeLessThanOrEqual(1);
    }));
  });

  conformance('OAUTH-CODE-REPLAY-REVOKES', 'a code exchanged a second time ends the access tokens of its first exchange, the rotated one too', { needs: ['consent'] }, async (t) => {
    const code = await freshCode(t);
    const first = await postToken(t, codeGrant(t, code));
    if (!tokenIssued(first)) throw new PrerequisiteFailed('OAUTH-CODE-EXCHANGE', `first exchange of a fresh code: no token (HTTP ${first.status})`);
    const tokens = await tokenResponseOf(t, first, 'first exchange');
    const used = await prerequisite(t, 'OAUTH-CODE-EXCHANGE', async () => {
      const me = await t.http.api('GET', '/users/me', { accessToken: tokens.access_token });
      if (me.status !== 200) throw new Error(`GET /users/me with the first exchange's access token, before the replay: HTTP ${me.status}`);
      return me;
    });
    const rotated = rotatedTokenOf(used, 'GET /users/me before the replay');
    const replay = await postToken(t, codeGrant(t, code));
    t.observe('second exchange answer', { status: replay.status, issued: tokenIssued(replay) });
    if (tokenIssued(replay)) throw new PrerequisiteFailed('OAUTH-CODE-SINGLE-USE', 'the second exchange of the code issued a token: nothing was revoked that a denial would revoke');
    for (const [what, token] of [['the access token of the first exchange', tokens.access_token], ['the token GET /users/me rotated it to', rotated]] as const) {
      if (!token) continue;
      const after = await t.http.api('GET', '/users/me', { accessToken: token });
      t.observe(`GET /users/me with ${what}, after the replay`, { status: after.status });
      t.expect(after.status, `after the code was exchanged a second time, GET /users/me with ${what} should be refused (HTTP 401): the tokens of a replayed code should be revoked; got HTTP ${after.status}`).toBe(401);
    }
  });

  conformance('OAUTH-CODE-INVALID-REFUSED', 'a code the service never issued is refused', {}, async (t) => {
    const res = await postToken(t, codeGrant(t, `lockconf-bogus-${Date.now().toString(36)}`));
    t.observe('bogus code answer', { status: res.status, error: res.json?.error ?? null });
    t.expect(tokenIssued(res), `a bogus authorization code: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
  });

  conformance('OAUTH-CODE-OTHER-CLIENT', 'a code issued to one credential is refused to another', { needs: ['consent', 'second-client'] }, async (t) => {
    const second = secondClient(t);
    await ownCodeExchange(t, second);
    const code = await freshCode(t);
    const res = await postTokenAs(t, second, { grant_type: 'authorization_code', code });
    t.observe('a code issued to the profile\'s credential, redeemed by the second credential', { status: res.status, error: res.json?.error ?? null });
    t.expect(tokenIssued(res), `a code issued to the profile's credential, exchanged with a second credential's client_id and client_secret: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
  });

  conformance('OAUTH-CODE-EXPIRES', 'a code is refused 24 hours after issue, whichever credential it was issued to', { needs: ['consent', 'clock'] }, async (t) => {
    // "Shortly after it is issued": whatever the lifetime chosen, a day is well beyond it. Every
    // credential's codes: the second credential's own, exchanged as that credential.
    await t.eachSlice('client', (client) => withGrantRequestAs(t, 'authorization_code', client, async (exchange) => {
      await control(t).advanceClock(24 * 3_600_000);
      const res = await postToken(t, exchange);
      t.observe(`exchange 24 hours after issue (${client})`, { status: res.status, error: res.json?.error ?? null });
      t.expect(tokenIssued(res), `a code of ${client === 'second' ? 'the second credential' : 'the profile\'s credential'} exchanged 24 hours after issue: the code must have expired; got HTTP ${res.status} with a token`).toBe(false);
    }));
  });

  conformance('OAUTH-CODE-LIFETIME', 'a code is refused once 10 minutes have passed', { needs: ['consent', 'clock'] }, async (t) => {
    const clock = control(t);
    const within = await freshCode(t);
    await clock.advanceClock(60_000);
    const soon = await postToken(t, codeGrant(t, within));
    t.observe('exchange 1 minute after issue', { status: soon.status, issued: tokenIssued(soon) });
    const late = await freshCode(t);
    await clock.advanceClock(10 * 60_000 + 30_000);
    const res = await postToken(t, codeGrant(t, late));
    t.expect(tokenIssued(res), `a code exchanged 10 min 30 s after issue: expected it to be refused (RFC 6749 recommends at most 10 minutes); got HTTP ${res.status} with a token`).toBe(false);
  });
});
