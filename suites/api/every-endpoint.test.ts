/**
 * The API-header rules on every slice the spec gives them (issue 19): every
 * endpoint it names (GET /users/me, GET /users/locks/mine, both registrations,
 * both deletions, the status check), the first and a later link of the rotation
 * (the third x-access-token of a chain), the user's token and the application's
 * own (client_credentials), every grant's token, every way a token is invalid,
 * and every credential's calls ("x-api-key | <API_KEY> of the credential": the second
 * credential of the fixtures too, its own user token with its own API key, on the two
 * user endpoints; the mock takes webhook registrations of the profile's credential only).
 */
import { describe } from 'vitest';
import { eachSlicePair } from '../support/slice-pairs.js';
import { conformance } from '../../harness/service/conformance.js';
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from '../support/context.js';
import { control } from '../support/context.js';
import { callEndpoint, eachEndpointSlice, endpointsInbox, everyEndpointRefused, statusCheckRefused, userEndpoints, webhookEndpoints, type EndpointCall } from '../support/api-endpoints.js';
import { withGrantRequest } from '../support/grants.js';
import { PrerequisiteFailed, isPrerequisiteFailed, rotatedTokenOf } from '../support/prerequisite.js';
import { isJwt, jwtExp, postToken, tamperedJwt } from '../support/tokens.js';
import { actorWords, apiGet, clientToken, credentialWords, walkUserEndpointsAs, withActorToken } from '../support/client-tokens.js';

const DAY_MS = 86_400_000;
const DAY_S = 86_400;
/** expires_in counted down at response time may lose a second or two to rounding and transit. */
const EXPIRES_IN_SLACK_S = 5;
/** Past an expiry by this much, a token is expired whatever small clock-skew leeway the service allows. */
const EXPIRY_LEEWAY_MS = 10 * 60_000;
/** Moved between two rotations, so a token issued later cannot share the earlier one's second. */
const STEP_MS = 2_000;

function ok(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

async function me(t: SuiteContext, accessToken: string | null, apiKey?: string): Promise<HttpResponse> {
  return apiGet(t, '/users/me', accessToken, apiKey);
}

/** Every named endpoint: the webhook ones only with a capture server their registrations can point to. */
async function everyEndpoint(t: SuiteContext): Promise<EndpointCall[]> {
  if (!t.target.has('capture')) return userEndpoints();
  return [...userEndpoints(), ...webhookEndpoints(t, (await endpointsInbox(t)).url)];
}

/** Slices of endpoints that could not be called (no capture server) are not tested, with the reason. */
async function untestedWebhookSlices(t: SuiteContext): Promise<void> {
  if (t.target.has('capture')) return;
  const reason = `the webhook endpoints and the status check need a capture server to register to: ${t.target.whyMissing('capture') ?? 'none'}`;
  for (const endpoint of t.slices('endpoint').filter((e) => !userEndpoints().some((u) => u.endpoint === e))) {
    await t.slice({ endpoint }, () => t.notTested(reason));
  }
}

/**
 * A successful GET /users/me with `token`, and the token it rotated to; fails the running slice when
 * the call is refused. A success without x-access-token blocks the test by HEADERS-ROTATION-ON-SUCCESS
 * (its own test fails there).
 */
/** The slice dimension `rotations-after`: how many rotations follow the first token of the chain. */
const ROTATIONS_AFTER: Record<string, number> = { one: 1, many: 25 };

async function rotateOnce(t: SuiteContext, token: string, what: string): Promise<string> {
  const res = await me(t, token);
  t.expect(ok(res), `${what}: GET /users/me with a valid access token: expected 2xx; got HTTP ${res.status}`).toBe(true);
  const rotated = rotatedTokenOf(res, `${what}: GET /users/me`);
  t.expect(rotated, `${what}: GET /users/me answered ${res.status} without an x-access-token header`).toBeTruthy();
  return rotated!;
}

/** The tokens of a rotation chain up to `position` (first: the grant's token and its rotated one; later: the second and third rotated ones). */
async function rotationAt(t: SuiteContext, start: string, position: string, step = false): Promise<{ presented: string; rotated: string }> {
  let presented = start;
  const rotations = position === 'first' ? 1 : 3;
  for (let n = 1; n < rotations; n++) {
    if (step) await control(t).advanceClock(STEP_MS);
    presented = await rotateOnce(t, presented, `building the rotation chain (rotation ${n})`);
  }
  if (step) await control(t).advanceClock(STEP_MS);
  return { presented, rotated: await rotateOnce(t, presented, `the ${position} rotation`) };
}

describe('Request headers for API calls, on every endpoint', () => {
  conformance('HEADERS-ROTATION-ON-SUCCESS', 'x-access-token on every endpoint, at every link of the rotation, for every account (owner, guest, the application)', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    await eachEndpointSlice(t, await everyEndpoint(t), session.accessToken, async ({ call, res, rotated }) => {
      t.expect(ok(res), `${call.name} with a valid access token and a well-formed request: expected 2xx; got HTTP ${res.status}`).toBe(true);
      t.expect(rotated, `${call.name} answered ${res.status}: every successful API response must carry an updated x-access-token header; it had none`).toBeTruthy();
    });
    await untestedWebhookSlices(t);
    // Link and account drawn in pairs: the guest's later links too.
    await eachSlicePair(t, ['position', 'actor'], ({ position, actor }) => withActorToken(t, actor!, async (token) => { await rotationAt(t, token, position!); }));
    // Every credential's calls, each with its own API key.
    await t.eachSlice('client', (client) => walkUserEndpointsAs(t, client, ({ name, res, rotated }) => {
      t.expect(ok(res), `${name} with a valid access token: expected 2xx; got HTTP ${res.status}`).toBe(true);
      t.expect(rotated, `${name} answered ${res.status}: every successful API response must carry an updated x-access-token header; it had none`).toBeTruthy();
    }));
  });

  conformance('HEADERS-ROTATED-TOKEN-WORKS', 'the token every endpoint returns works, at every link, for every account (owner, guest, the application)', { needs: ['user-token'] }, async (t) => {
    const works = async (token: string, what: string, apiKey?: string) => {
      const res = await me(t, token, apiKey);
      t.expect(ok(res), `GET /users/me with the token ${what} returned: expected 2xx ("using the newest one keeps a valid token"); got HTTP ${res.status}`).toBe(true);
    };
    const session = await t.flows.userSession();
    await eachEndpointSlice(t, await everyEndpoint(t), session.accessToken, async ({ call, res, rotated }) => {
      rotatedTokenOf(res, call.name); // a success without one: HEADERS-ROTATION-ON-SUCCESS's to judge
      t.expect(rotated, `${call.name} answered without x-access-token: nothing to use`).toBeTruthy();
      await works(rotated!, call.name);
    });
    await untestedWebhookSlices(t);
    await eachSlicePair(t, ['position', 'actor'], ({ position, actor }) => withActorToken(t, actor!, async (token) => works((await rotationAt(t, token, position!)).rotated, `the ${position} rotation of the ${actor}'s token`)));
    // Every credential's rotated tokens, used with its own API key.
    await t.eachSlice('client', (client) => walkUserEndpointsAs(t, client, async ({ name, res, rotated, apiKey }) => {
      rotatedTokenOf(res, name); // a success without one: HEADERS-ROTATION-ON-SUCCESS's to judge
      t.expect(rotated, `${name} answered without x-access-token: nothing to use`).toBeTruthy();
      await works(rotated!, name, apiKey);
    }));
  });

  conformance('HEADERS-ROTATED-TOKEN-JWT', 'the x-access-token of every endpoint is a JWT', { needs: ['user-token'] }, async (t) => {
    const session = await t.flows.userSession();
    await eachEndpointSlice(t, await everyEndpoint(t), session.accessToken, async ({ call, res, rotated }) => {
      rotatedTokenOf(res, call.name); // a success without one: HEADERS-ROTATION-ON-SUCCESS's to judge
      t.expect(rotated, `${call.name} answered without x-access-token: nothing to judge`).toBeTruthy();
      t.expect(isJwt(rotated!), `${call.name}: the x-access-token returned must be an access token, and access tokens are JWTs; jose could not decode it as a JWS or a compact JWE`).toBe(true);
    });
    await untestedWebhookSlices(t);
    await t.eachSlice('client', (client) => walkUserEndpointsAs(t, client, ({ name, res, rotated }) => {
      rotatedTokenOf(res, name); // a success without one: HEADERS-ROTATION-ON-SUCCESS's to judge
      t.expect(rotated, `${name} answered without x-access-token: nothing to judge`).toBeTruthy();
      t.expect(isJwt(rotated!), `${name}: the x-access-token returned must be an access token, and access tokens are JWTs; jose could not decode it as a JWS or a compact JWE`).toBe(true);
    }));
    // Every account's rotated tokens: the guest's and the application's too.
    await t.eachSlice('actor', (actor) => withActorToken(t, actor, async (token) => {
      const rotated = await rotateOnce(t, token, actorWords(actor));
      t.expect(isJwt(rotated), `GET /users/me with ${actorWords(actor)}: the x-access-token returned must be an access token, and access tokens are JWTs; jose could not decode it as a JWS or a compact JWE`).toBe(true);
    }));
  });
});

describe('Access token, on every endpoint and link', () => {
  conformance('HEADERS-ROTATION-EXTENDS', 'the token every endpoint returns, and every link of the rotation, expires later than the one presented', { needs: ['user-token', 'clock'] }, async (t) => {
    const later = (presented: string, rotated: string | null, what: string) => {
      const before = jwtExp(presented);
      const after = rotated ? jwtExp(rotated) : null;
      if (before === null || after === null) t.notTested(`${what}: the tokens carry no readable exp (HEADERS-ROTATION-EXTENDS judges it by behaviour on GET /users/me)`);
      t.expect(after, `${what}: the rotated token's exp (${after}) must be later than the presented token's exp (${before})`).toBeGreaterThan(before!);
    };
    const session = await t.flows.userSession();
    await control(t).advanceClock(STEP_MS);
    await eachEndpointSlice(t, await everyEndpoint(t), session.accessToken, async ({ call, res, presented, rotated }) => {
      rotatedTokenOf(res, call.name); // a success without one: HEADERS-ROTATION-ON-SUCCESS's to judge
      later(presented, rotated, call.name);
      await control(t).advanceClock(STEP_MS); // the next rotation is issued in another second
    });
    await untestedWebhookSlices(t);
    await t.eachSlice('position', async (position) => {
      const { presented, rotated } = await rotationAt(t, (await t.flows.userSession()).accessToken, position, true);
      later(presented, rotated, `the ${position} rotation`);
    });
    await t.eachSlice('client', (client) => walkUserEndpointsAs(t, client, ({ name, res, presented, rotated }) => {
      rotatedTokenOf(res, name); // a success without one: HEADERS-ROTATION-ON-SUCCESS's to judge
      later(presented, rotated, name);
    }, { stepMs: STEP_MS, advance: (ms) => control(t).advanceClock(ms) }));
    // "each new token": every account's.
    await t.eachSlice('actor', (actor) => withActorToken(t, actor, async (token) => {
      await control(t).advanceClock(STEP_MS);
      later(token, await rotateOnce(t, token, actorWords(actor)), `GET /users/me with ${actorWords(actor)}`);
    }));
  });

  conformance('HEADERS-PREVIOUS-TOKEN-VALID', 'the token presented stays valid after every endpoint and every link of the rotation', { needs: ['user-token'] }, async (t) => {
    const stillValid = async (presented: string, what: string, apiKey?: string) => {
      const res = await me(t, presented, apiKey);
      t.expect(ok(res), `GET /users/me with the token presented to ${what}: new access tokens do not invalidate previous ones (2xx expected); got HTTP ${res.status}`).toBe(true);
    };
    const session = await t.flows.userSession();
    await eachEndpointSlice(t, await everyEndpoint(t), session.accessToken, ({ call, presented }) => stillValid(presented, call.name));
    await untestedWebhookSlices(t);
    await t.eachSlice('position', async (position) => stillValid((await rotationAt(t, (await t.flows.userSession()).accessToken, position)).presented, `the ${position} rotation`));
    await t.eachSlice('client', (client) => walkUserEndpointsAs(t, client, ({ name, presented, apiKey }) => stillValid(presented, name, apiKey)));
    // Any number of new tokens: the one just before the newest, and every token of a chain of 25 rotations
    // (the newest always presented, as an application does), each presented again once the chain is built.
    await t.eachSlice('rotations-after', async (after) => {
      const chain = [(await t.flows.userSession()).accessToken];
      for (let n = 1; n <= ROTATIONS_AFTER[after]!; n++) chain.push(await rotateOnce(t, chain.at(-1)!, `building a rotation chain (rotation ${n})`));
      const previous = chain.slice(0, -1);
      for (const [i, token] of previous.entries()) await stillValid(token, `the rotation chain: token ${i + 1} of ${chain.length}, ${chain.length - 1 - i} newer token(s) issued after it`);
    });
    // "New access tokens do not invalidate previous access tokens": every account's.
    await t.eachSlice('actor', (actor) => withActorToken(t, actor, async (token) => {
      await rotateOnce(t, token, actorWords(actor));
      await stillValid(token, `GET /users/me with ${actorWords(actor)}`);
    }));
  });

  conformance('HEADERS-TOKEN-LIFETIME-24H', 'every token, from every grant, endpoint and link of the rotation, is valid 24 hours', { needs: ['user-token', 'clock'] }, async (t) => {
    // expires_in of each grant: no token is issued valid for less than 24 hours (a few seconds of rounding allowed).
    await t.eachSlice('grant', (grant) => withGrantRequest(t, grant, async (body) => {
      const res = await postToken(t, body);
      t.expect(res.json?.expires_in, `${grant} grant: expires_in is ${res.json?.expires_in ?? 'absent'}; access tokens are not issued valid for less than 24 hours (86400 s)`).toBeGreaterThanOrEqual(DAY_S - EXPIRES_IN_SLACK_S);
    }));
    // Tokens received now from every endpoint and both links, each used 23 h 59 min later.
    // A token not received: null, or the step it rested on (a success without x-access-token), which blocks the test when used.
    const received = new Map<string, string | PrerequisiteFailed | null>();
    const session = await t.flows.userSession();
    let token = session.accessToken;
    for (const call of await everyEndpoint(t)) {
      const res = await callEndpoint(t, call, token);
      const rotated = res.headers['x-access-token'] ?? null;
      let held: string | PrerequisiteFailed | null = ok(res) ? rotated : null;
      try {
        rotatedTokenOf(res, call.name);
      } catch (err) {
        held = err as PrerequisiteFailed;
      }
      received.set(`endpoint=${call.endpoint}`, held);
      if (rotated) token = rotated;
    }
    for (const position of t.slices('position')) {
      received.set(`position=${position}`, await rotationAt(t, (await t.flows.userSession()).accessToken, position).then((r) => r.rotated, (err: unknown) => (isPrerequisiteFailed(err) ? err : null)));
    }
    await control(t).advanceClock(DAY_MS - 60_000);
    const usedLater = async (key: string) => {
      const held = received.get(key);
      if (isPrerequisiteFailed(held)) throw held;
      t.expect(held, `${key}: no token was received (the call failed or carried no x-access-token)`).toBeTruthy();
      const res = await me(t, held!);
      t.expect(ok(res), `${key}: a token received in x-access-token, used 23 h 59 min later: access tokens are not issued valid for less than 24 hours (2xx expected); got HTTP ${res.status}`).toBe(true);
    };
    for (const endpoint of t.slices('endpoint')) {
      if (!received.has(`endpoint=${endpoint}`)) continue;
      await t.slice({ endpoint }, () => usedLater(`endpoint=${endpoint}`));
    }
    await untestedWebhookSlices(t);
    await t.eachSlice('position', (position) => usedLater(`position=${position}`));
    // Every credential's tokens: its code grant's expires_in, and a token its call received, used a day later with its API key.
    await t.eachSlice('client', async (client) => {
      const held = await clientToken(t, client);
      t.expect(held.expiresIn, `the code grant of ${credentialWords(client)}: expires_in is ${held.expiresIn}; access tokens are not issued valid for less than 24 hours (86400 s)`).toBeGreaterThanOrEqual(DAY_S - EXPIRES_IN_SLACK_S);
      const res = await me(t, held.accessToken, held.apiKey);
      t.expect(ok(res), `GET /users/me as ${credentialWords(client)}: expected 2xx; got HTTP ${res.status}`).toBe(true);
      const rotated = rotatedTokenOf(res, `GET /users/me as ${credentialWords(client)}`);
      await control(t).advanceClock(DAY_MS - 60_000);
      const later = await me(t, rotated!, held.apiKey);
      t.expect(ok(later), `a token received in x-access-token by ${credentialWords(client)}, used 23 h 59 min later: access tokens are not issued valid for less than 24 hours (2xx expected); got HTTP ${later.status}`).toBe(true);
    });
    // Every account's rotated tokens: the guest's and the application's too.
    await t.eachSlice('actor', (actor) => withActorToken(t, actor, async (token) => {
      const rotated = await rotateOnce(t, token, actorWords(actor));
      await control(t).advanceClock(DAY_MS - 60_000);
      const later = await me(t, rotated);
      t.expect(ok(later), `a token received in x-access-token for ${actorWords(actor)}, used 23 h 59 min later: access tokens are not issued valid for less than 24 hours (2xx expected); got HTTP ${later.status}`).toBe(true);
    }));
  });

  conformance('HEADERS-INVALID-TOKEN-401', 'every endpoint answers 401 to every kind of invalid token', {}, async (t) => {
    const tokens: Record<string, () => Promise<string>> = {
      garbage: async () => 'lockconf-not-a-token',
      'unsigned-jwt': async () => 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJsb2NrY29uZiJ9.c2lnbmF0dXJl',
      'tampered-signature': async () => {
        if (!t.target.has('user-token')) t.notTested(`a JWT of the service's own needs user-token: ${t.target.whyMissing('user-token') ?? 'not offered'}`);
        return tamperedJwt((await t.flows.userSession()).accessToken);
      },
    };
    for (const kind of t.slices('invalid-token')) {
      for (const call of everyEndpointRefused(t)) {
        await t.slice({ endpoint: call.endpoint, 'invalid-token': kind }, async () => {
          const res = await callEndpoint(t, call, await tokens[kind]!());
          statusCheckRefused(t, call, res);
          t.expect(res.status, `${call.name} with an invalid token (${kind}): expected HTTP 401; got HTTP ${res.status}`).toBe(401);
        });
      }
    }
  });

  conformance('HEADERS-EXPIRED-TOKEN-401', 'every endpoint answers 401 to an access token past its expires_in', { needs: ['user-token', 'clock'] }, async (t) => {
    const session = await t.flows.userSession();
    // Past expires_in by more than the clock-skew leeway RFC 7519 §4.1.4 allows ("usually no more than a few minutes").
    await control(t).advanceClock(session.expiresIn * 1000 + EXPIRY_LEEWAY_MS);
    for (const call of everyEndpointRefused(t)) {
      await t.slice({ endpoint: call.endpoint }, async () => {
        const res = await callEndpoint(t, call, session.accessToken);
        statusCheckRefused(t, call, res);
        t.expect(res.status, `${call.name} with a token ${session.expiresIn} s + 10 min old (past expires_in and any clock-skew leeway): expected HTTP 401; got HTTP ${res.status}`).toBe(401);
      });
    }
    // Every credential's expired token ("Invalid access token on an API call"), with its own API key.
    await t.eachSlice('client', async (client) => {
      const held = await clientToken(t, client);
      await control(t).advanceClock(held.expiresIn * 1000 + EXPIRY_LEEWAY_MS);
      const res = await me(t, held.accessToken, held.apiKey);
      t.expect(res.status, `GET /users/me as ${credentialWords(client)} with its token ${held.expiresIn} s + 10 min old: expected HTTP 401; got HTTP ${res.status}`).toBe(401);
    });
    // Every account's expired token: the guest's and the application's too.
    await t.eachSlice('actor', (actor) => withActorToken(t, actor, async (token, expiresIn) => {
      if (!Number.isFinite(expiresIn)) t.notTested(`${actorWords(actor)} came with no numeric expires_in (TOKEN-RESPONSE-SHAPE's to judge): its expiry cannot be passed`);
      await control(t).advanceClock(expiresIn * 1000 + EXPIRY_LEEWAY_MS);
      const res = await me(t, token);
      t.expect(res.status, `GET /users/me with ${actorWords(actor)} ${expiresIn} s + 10 min old: expected HTTP 401; got HTTP ${res.status}`).toBe(401);
    }));
  });

  conformance('HEADERS-MISSING-TOKEN-401', 'every endpoint answers 401 to a call without x-access-token', {}, async (t) => {
    for (const call of everyEndpointRefused(t)) {
      await t.slice({ endpoint: call.endpoint }, async () => {
        const res = await callEndpoint(t, call, null);
        statusCheckRefused(t, call, res);
        t.expect(res.status, `${call.name} without x-access-token: expected HTTP 401; got HTTP ${res.status}`).toBe(401);
      });
    }
  });
});
