/**
 * API request headers and access tokens (spec: Authentication → Request headers for
 * API calls; States and transitions → Access token; Errors): every 2xx rotates the
 * token, rotated tokens work and extend validity, old tokens stay valid, and
 * invalid, expired or missing tokens get 401 (the last three, and every rule on every endpoint, in every-endpoint.test.ts).
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from '../support/context.js';
import { control } from '../support/context.js';
import { endpointsInbox, everyEndpointRefused, callEndpoint, expectCallAccepted, userEndpoints, walkEndpoints, webhookEndpoints } from '../support/api-endpoints.js';
import { PrerequisiteFailed, prerequisite, rotatedTokenOf } from '../support/prerequisite.js';
import { isJwt, jwtExp, postToken, refreshGrant, rememberTokens, tamperedJwt } from '../support/tokens.js';
import { actorWords, clientToken, credentialWords, withActorToken } from '../support/client-tokens.js';

const DAY_S = 86_400;
/** Past an expiry by this much, a token is expired whatever small clock-skew leeway the service allows. */
const EXPIRY_LEEWAY_MS = 10 * 60_000;
/** expires_in counted down at response time may lose a second or two to rounding and transit. */
const EXPIRES_IN_SLACK_S = 5;

function ok(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

async function call(t: SuiteContext, path: string, accessToken: string | null, apiKey?: string | null): Promise<HttpResponse> {
  const res = await t.http.api('GET', path, { accessToken, ...(apiKey !== undefined ? { apiKey } : {}) });
  rememberTokens(t, res);
  return res;
}

/** Tokens this module received in x-access-token: a 401 for one of them may be HEADERS-ROTATED-TOKEN-WORKS's failure. */
const fromRotation = new Set<string>();

/**
 * A 401 for a token that came from x-access-token blocks the test by HEADERS-ROTATED-TOKEN-WORKS
 * when that failed in the run; with `own`, the failure is the test's own when it did not.
 */
function refusedRotated(t: SuiteContext, res: HttpResponse, token: string | null, message: string, own?: string): void {
  if (res.status !== 401 || token === null || !fromRotation.has(token)) return;
  throw new PrerequisiteFailed([...(own ? [own] : []), 'HEADERS-ROTATED-TOKEN-WORKS'], `${message}; got HTTP ${res.status} for a token received in x-access-token`);
}

/**
 * A successful call and the token it rotated to; fails the declared rule when the call is refused.
 * A success without x-access-token blocks the test by HEADERS-ROTATION-ON-SUCCESS, whose own test judges it.
 */
async function rotate(t: SuiteContext, accessToken: string, path = '/users/me'): Promise<string> {
  const res = await call(t, path, accessToken);
  return rotatedFrom(t, res, accessToken, path);
}

/**
 * rotate, with a token used a few minutes before its own expires_in has elapsed: its refusal (401) is
 * TOKEN-ACCESS-LIFETIME-HONOURED's failure (its own test judges it), which blocks this test.
 */
async function rotateBeforeExpiry(t: SuiteContext, accessToken: string): Promise<string> {
  const res = await call(t, '/users/me', accessToken);
  await prerequisite(t, 'TOKEN-ACCESS-LIFETIME-HONOURED', () => {
    t.expect(res.status, 'GET /users/me with an access token a few minutes before its expires_in elapsed: refused (HTTP 401)').not.toBe(401);
  });
  return rotatedFrom(t, res, accessToken, '/users/me');
}

function rotatedFrom(t: SuiteContext, res: HttpResponse, accessToken: string, path: string): string {
  refusedRotated(t, res, accessToken, `GET ${path} with the token an earlier answer returned`);
  t.expect(ok(res), `GET ${path} with a valid access token: expected 2xx; got HTTP ${res.status}`).toBe(true);
  const rotated = rotatedTokenOf(res, `GET ${path}`);
  t.expect(rotated, `GET ${path} answered ${res.status} without an x-access-token header`).toBeTruthy();
  fromRotation.add(rotated!);
  return rotated!;
}

describe('Request headers for API calls', () => {
  conformance('HEADERS-ROTATION-ON-SUCCESS', 'every successful API response carries an x-access-token header', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    let token = session.accessToken;
    for (const path of ['/users/me', '/users/locks/mine']) {
      const res = await call(t, path, token);
      refusedRotated(t, res, token, `GET ${path} with the token the previous answer returned`);
      t.expect(ok(res), `GET ${path} with a valid access token: expected 2xx; got HTTP ${res.status}`).toBe(true);
      const rotated = res.headers['x-access-token'];
      if (rotated) fromRotation.add(rotated);
      t.expect(rotated, `GET ${path} answered ${res.status}: every successful API response must carry an updated x-access-token header; it had none`).toBeTruthy();
      t.observe(`GET ${path}: rotated token differs from the one presented`, rotated !== token);
      token = rotated!; // the application keeps the newest token
    }
  });

  conformance('HEADERS-ROTATION-ON-SUCCESS', 'the webhook registrations, deletions and the status check carry x-access-token too', { needs: ['user-token', 'capture'] }, async (t) => {
    const session = await t.flows.userSession();
    const inbox = await endpointsInbox(t);
    await walkEndpoints(t, webhookEndpoints(t, inbox.url), session.accessToken, (visit) => {
      const { call, res, rotated } = visit;
      // A refusal is the endpoint's business (or the rotated token's): this test checks the header of a success.
      expectCallAccepted(visit, `${call.name} with a valid access token and a well-formed request: expected 2xx`);
      t.expect(rotated, `${call.name} answered ${res.status}: every successful API response must carry an updated x-access-token header; it had none`).toBeTruthy();
    });
  });

  conformance('HEADERS-ROTATED-TOKEN-WORKS', 'the token from x-access-token is accepted by the API', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const rotated = await rotate(t, session.accessToken, '/users/locks/mine');
    const res = await call(t, '/users/me', rotated);
    t.expect(ok(res), `GET /users/me with the token from x-access-token: expected 2xx ("using the newest one keeps a valid token"); got HTTP ${res.status}`).toBe(true);
  });

  conformance('HEADERS-ROTATED-TOKEN-WORKS', 'the token each endpoint returns works, on every endpoint the spec names', { needs: ['user-token', 'capture'] }, async (t) => {
    const session = await t.flows.userSession();
    const inbox = await endpointsInbox(t);
    // Each call is made with the token the previous answer returned, as an application keeping the newest one does.
    const calls = [...userEndpoints(), ...webhookEndpoints(t, inbox.url), ...userEndpoints()];
    await walkEndpoints(t, calls, session.accessToken, (visit) => {
      const { call, res, presented } = visit;
      const fresh = presented !== session.accessToken ? ' (made with the token the previous answer returned)' : '';
      // Refused for what it asked (a registration refused with 400), not for its token: the endpoint's business.
      if (res.status !== 401) expectCallAccepted(visit, `${call.name}${fresh}: expected 2xx`);
      t.expect(res.status, `${call.name}${fresh}: expected 2xx; got HTTP ${res.status}`).toBeGreaterThanOrEqual(200);
      t.expect(res.status, `${call.name}${fresh}: expected 2xx; got HTTP ${res.status}`).toBeLessThan(300);
    });
  });

  conformance('HEADERS-ROTATED-TOKEN-JWT', 'every x-access-token returned is a JWT', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const calls = [...userEndpoints()];
    if (t.target.has('capture')) calls.push(...webhookEndpoints(t, (await endpointsInbox(t)).url));
    let seen = 0;
    await walkEndpoints(t, calls, session.accessToken, ({ call, rotated }) => {
      if (rotated === null) return; // its presence is HEADERS-ROTATION-ON-SUCCESS's business
      seen += 1;
      t.expect(isJwt(rotated), `${call.name}: the x-access-token returned must be an access token, and access tokens are JWTs; jose could not decode it as a JWS or a compact JWE`).toBe(true);
    });
    if (seen === 0) t.notTested('no answer carried an x-access-token header: nothing to judge');
    if (!t.target.has('capture')) t.notTested(`the two user endpoints returned JWTs; the webhook endpoints need a capture server to register to (${t.target.whyMissing('capture') ?? 'none'})`);
  });

  conformance('HEADERS-TOKEN-LIFETIME-24H', 'access tokens are not issued valid for less than 24 hours', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    // expires_in may be counted from the moment the response was written (exp minus now, rounded
    // down): a 24-hour token can read 86399. A few seconds of slack; the clock check below is exact.
    t.expect(session.expiresIn, `expires_in is ${session.expiresIn} s; access tokens are not issued valid for less than 24 hours (86400 s, a few seconds of rounding allowed)`).toBeGreaterThanOrEqual(DAY_S - EXPIRES_IN_SLACK_S);
    if (t.target.has('clock')) {
      await control(t).advanceClock((DAY_S - 60) * 1000);
      const res = await call(t, '/users/me', session.accessToken);
      t.expect(ok(res), `the access token 23 h 59 min after issue: expected it still valid (2xx); got HTTP ${res.status}`).toBe(true);
      const rotated = res.headers['x-access-token'];
      const exp = rotated ? jwtExp(rotated) : null;
      // "Each new token extends validity slightly": how far a rotated token reaches is the target's choice.
      if (exp !== null) t.observe('token rotated 23 h 59 min after issue: seconds until its exp', exp - Math.floor((await t.targetNow()) / 1000));
    }
    // From a refresh grant too.
    const refreshed = await postToken(t, refreshGrant(t, session.refreshToken));
    if (refreshed.status === 200 && typeof refreshed.json?.expires_in === 'number') {
      t.expect(refreshed.json.expires_in, `the refresh grant's expires_in is ${refreshed.json.expires_in} s; access tokens are not issued valid for less than 24 hours`).toBeGreaterThanOrEqual(DAY_S - EXPIRES_IN_SLACK_S);
    }
  });

  conformance('HEADERS-TOKEN-LIFETIME-24H', 'a token from an x-access-token header is valid 24 hours, even one received just before the old one expires', { needs: ['user-token', 'clock'] }, async (t) => {
    const session = await t.flows.userSession();
    // Two minutes before the first token expires: the rotated token must still last a day from now.
    await control(t).advanceClock(Math.max(0, session.expiresIn * 1000 - 120_000));
    const rotated = await rotateBeforeExpiry(t, session.accessToken);
    await control(t).advanceClock((DAY_S - 60) * 1000);
    const res = await call(t, '/users/me', rotated);
    refusedRotated(t, res, rotated, 'a token received in x-access-token, used 23 h 59 min later', t.requirement.id);
    t.expect(res.status, `a token received in x-access-token, used 23 h 59 min later: access tokens are not issued valid for less than 24 hours (2xx expected); got HTTP ${res.status}`).toBeLessThan(300);
    t.expect(res.status).toBeGreaterThanOrEqual(200);
  });

  conformance('HEADERS-NEWEST-KEEPS-ACCESS', 'following the newest token every 23 hours keeps access for days past the first token\'s expiry', { needs: ['user-token', 'clock'] }, async (t) => {
    const session = await t.flows.userSession();
    const clock = control(t);
    await clock.advanceClock(Math.max(0, session.expiresIn * 1000 - 600_000));
    let token = await rotateBeforeExpiry(t, session.accessToken);
    // Four days of an application calling once every 23 hours with the newest token it holds: the
    // first link of the rotation (day 1 uses the first rotated token) and later ones (days 3 and 4: the third and fourth).
    const day = async (n: number) => {
      await clock.advanceClock(23 * 3_600_000);
      const res = await call(t, '/users/me', token);
      refusedRotated(t, res, token, `day ${n}, calling with the newest token`, t.requirement.id);
      t.expect(res.status, `day ${n} after the first token's expiry window, calling every 23 hours with the newest token: "using the newest one keeps a valid token" (2xx expected); got HTTP ${res.status}`).toBeLessThan(300);
      t.expect(res.status).toBeGreaterThanOrEqual(200);
      if (res.headers['x-access-token']) fromRotation.add(res.headers['x-access-token']);
      token = res.headers['x-access-token'] ?? token;
    };
    await t.slice({ position: 'first' }, () => day(1));
    await day(2);
    await t.slice({ position: 'later' }, async () => {
      await day(3);
      await day(4);
    });
    const first = await call(t, '/users/me', session.accessToken);
    t.observe('the first token, 3 days and 22 hours past its expiry', first.status);
    // Every credential's application ("x-api-key | <API_KEY> of the credential"): the second of the fixtures too, its own
    // user token kept newest with its own API key, two days past its first token's expiry window.
    const keepNewest = async (token: string, expiresIn: number, words: string, apiKey?: string) => {
      await clock.advanceClock(Math.max(0, expiresIn * 1000 - 600_000));
      let newest = token;
      for (let n = 0; n <= 2; n++) {
        if (n > 0) await clock.advanceClock(23 * 3_600_000);
        const what = n === 0 ? `${words}, just before its first token's expiry` : `${words}, day ${n}, calling with the newest token`;
        const res = await call(t, '/users/me', newest, apiKey);
        // The token itself, ten minutes before its expires_in elapsed: its refusal is TOKEN-ACCESS-LIFETIME-HONOURED's (its own test judges it).
        if (n === 0) await prerequisite(t, 'TOKEN-ACCESS-LIFETIME-HONOURED', () => { t.expect(res.status, `${what}: refused (HTTP 401)`).not.toBe(401); });
        if (n > 0) refusedRotated(t, res, newest, what, t.requirement.id);
        t.expect(ok(res), `${what}: "using the newest one keeps a valid token" (2xx expected); got HTTP ${res.status}`).toBe(true);
        const rotated = res.headers['x-access-token'];
        if (rotated) fromRotation.add(rotated);
        newest = rotated ?? newest;
      }
    };
    await t.eachSlice('client', async (client) => {
      const held = await clientToken(t, client);
      await keepNewest(held.accessToken, held.expiresIn, credentialWords(client), held.apiKey);
    });
    // "a stored token": every account's (the guest's, the application's own).
    await t.eachSlice('actor', (actor) => withActorToken(t, actor, async (token, expiresIn) => {
      if (!Number.isFinite(expiresIn)) t.notTested(`${actorWords(actor)} came with no numeric expires_in (TOKEN-RESPONSE-SHAPE's to judge)`);
      await keepNewest(token, expiresIn, actorWords(actor));
    }));
  });

  conformance('HEADERS-API-KEY', 'what the service answers without or with a wrong x-api-key (not shown)', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const missing = await call(t, '/users/me', session.accessToken, null);
    const wrong = await call(t, '/users/me', session.accessToken, 'lockconf-wrong-api-key');
    t.observe('without x-api-key', missing.status);
    t.observe('with a wrong x-api-key', wrong.status);
  });

  conformance('HEADERS-RESPONSE-BODIES', 'response bodies of GET /users/me and GET /users/locks/mine (not shown)', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    for (const path of ['/users/me', '/users/locks/mine']) {
      const res = await call(t, path, session.accessToken);
      t.observe(`GET ${path}`, { status: res.status, contentType: res.headers['content-type'] ?? null, body: res.json ?? res.text.slice(0, 500) });
    }
  });
});

describe('Access token', () => {
  conformance('HEADERS-ROTATION-EXTENDS', 'each rotated token extends validity', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const hasClock = t.target.has('clock');
    // An hour later, so an extension is visible even at the one-second resolution of exp.
    if (hasClock) await control(t).advanceClock(3_600_000);
    const rotated = await rotate(t, session.accessToken);
    const before = jwtExp(session.accessToken);
    const after = jwtExp(rotated);
    if (before !== null && after !== null) {
      t.observe('exp moved by (s)', after - before);
      if (!hasClock && after === before) t.notTested('the rotated token was issued within the same second as the original; without the clock the extension cannot be seen');
      t.expect(after, `the rotated token's exp (${after}) must be later than the presented token's exp (${before})`).toBeGreaterThan(before);
      return;
    }
    if (!hasClock) t.notTested('the tokens carry no exp and the clock cannot be moved: the extension cannot be seen');
    // No exp to read: show it by behaviour. Move to the first instant the presented token is
    // refused (just past its lifetime; a little later for a target with leeway) and require
    // the rotated token to be accepted at that same instant: it must expire later.
    await control(t).advanceClock(Math.max(0, session.expiresIn * 1000 - 3_600_000));
    let movedMs = 0;
    for (const stepTo of [1_000, 60_000, 300_000, 3_600_000]) {
      await control(t).advanceClock(stepTo - movedMs);
      movedMs = stepTo;
      const old = await call(t, '/users/me', session.accessToken);
      if (ok(old)) continue;
      const res = await call(t, '/users/me', rotated);
      t.expect(ok(res), `the rotated token, at the instant the presented token is refused (${movedMs / 1000} s past its expires_in of ${session.expiresIn} s): expected still valid; got HTTP ${res.status}`).toBe(true);
      return;
    }
    t.notTested('the presented token was still accepted an hour past its lifetime: the extension cannot be seen by behaviour');
  });

  conformance('HEADERS-PREVIOUS-TOKEN-VALID', 'a rotated token does not invalidate the previous one', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    const rotated = await rotate(t, session.accessToken);
    await rotate(t, rotated);
    const res = await call(t, '/users/me', session.accessToken);
    t.expect(ok(res), `GET /users/me with the token presented before two rotations: new access tokens do not invalidate previous ones (2xx expected); got HTTP ${res.status}`).toBe(true);
    // A refresh grant issues a new access token too: the rule holds for it as well.
    await t.flows.refresh(session.refreshToken);
    const afterRefresh = await call(t, '/users/me', session.accessToken);
    t.expect(ok(afterRefresh), `GET /users/me with the access token held before a refresh grant: new access tokens do not invalidate previous ones (2xx expected); got HTTP ${afterRefresh.status}`).toBe(true);
  });
});
