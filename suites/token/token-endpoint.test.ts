/**
 * The token endpoint (spec: POST {auth_url}/access_token; Resources → Token
 * response; Errors): where the client credentials travel, the response shape, and
 * the 302 to /error for malformed requests.
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import { explain, tokenResponseSchema } from '../schemas/token.js';
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from '../support/context.js';
import { alone, control } from '../support/context.js';
import { prerequisite } from '../support/prerequisite.js';
import { tokenResponseOf, withGrantRequest, withGrantRequestAs } from '../support/grants.js';
import { eachSlicePair } from '../support/slice-pairs.js';
import { BOGUS_BASIC_HEADERS, basicHeader, codeGrant, freshCode, isJwt, jwtClaims, postToken, postTokenRaw, refreshGrant, rememberTokens, tokenIssued, tokenUrl } from '../support/tokens.js';
import { secondClient } from '../support/second-client.js';

/** A fresh code exchanged the ordinary way: the token response every shape check reads. */
async function codeExchange(t: SuiteContext) {
  const code = await freshCode(t);
  return postToken(t, codeGrant(t, code));
}

const DAY_MS = 86_400_000;
/** How close to its expiry the token is used: a minute before issue + expires_in. */
const BEFORE_EXPIRY_MS = 60_000;
/** The slice dimension `refresh-age` within the year: days after its own issue a refresh token is redeemed. */
const REFRESH_AGE_DAYS: Readonly<Record<string, number>> = { 'one-month': 31, 'eleven-months': 334, 'just-under-year': 364 };

/**
 * The token of a token response, used once on GET /users/me with the target's clock a minute short of
 * issue + expires_in: it must not be refused (401). Any expires_in the target gives is taken (a freedom:
 * ACCESS-TOKEN-LIFETIME); an x-access-token on the answer is fine (the rotation of every API call).
 */
async function acceptedUntilExpiresIn(t: SuiteContext, res: HttpResponse, what: string, apiKey?: string): Promise<void> {
  const issued = await tokenResponseOf(t, res, what, ['access_token', 'expires_in']);
  t.observe(`${what}: expires_in`, issued.expires_in);
  await control(t).advanceClock(issued.expires_in * 1000 - BEFORE_EXPIRY_MS);
  // With the API key of the credential the token was issued to ("x-api-key | <API_KEY> of the credential").
  const me = await t.http.api('GET', '/users/me', { accessToken: issued.access_token, ...(apiKey !== undefined ? { apiKey } : {}) });
  rememberTokens(t, me);
  t.expect(me.status, `${what}, used on GET /users/me a minute before its expires_in (${issued.expires_in} s) elapsed: "Access token lifetime is given by expires_in", so it must still be accepted; got HTTP ${me.status}`).not.toBe(401);
}

describe('POST {auth_url}/access_token', () => {
  conformance('TOKEN-MALFORMED-302-ERROR', 'a malformed request (split by an unquoted &) gets a 302 to /error, whichever credential sends it', {}, async (t) => {
    // `curl -d client_id=…&client_secret=…&grant_type=…` unquoted: the shell cuts the body at the first &. Every credential's request.
    await t.eachSlice('client', async (client) => {
      const clientId = client === 'profile' ? t.target.profile.clientId : secondClient(t).clientId;
      const res = await postTokenRaw(t, `client_id=${encodeURIComponent(clientId)}`);
      t.expect(tokenIssued(res), `a malformed token request of the ${client} credential: no token may be issued`).toBe(false);
      t.expect(res.status, `a malformed token request of the ${client} credential (grant_type and client_secret cut off): expected HTTP 302; got HTTP ${res.status}`).toBe(302);
      const where = res.location ? new URL(res.location, tokenUrl(t)).pathname : null;
      t.expect(where !== null && /\/error\/?$/.test(where), `a malformed token request of the ${client} credential: the 302 must point to /error; Location path is ${where ?? 'absent'}`).toBe(true);
    });
  });

  /** The methods other than POST that are wrong beyond doubt (GET is described by troubleshooting guidance: TOKEN-GET-METHOD). */
  const WRONG_METHODS = ['PUT', 'DELETE', 'PATCH'] as const;

  conformance('TOKEN-MALFORMED-302-ERROR', 'a token request with the wrong HTTP method (PUT, DELETE, PATCH) gets a 302 to /error', {}, async (t) => {
    const p = t.target.profile;
    const form = { grant_type: 'authorization_code', client_id: p.clientId, client_secret: p.clientSecret, code: `lockconf-bogus-${Date.now().toString(36)}` };
    for (const method of WRONG_METHODS) {
      const res = await t.http.request({ method, url: tokenUrl(t), form });
      rememberTokens(t, res);
      t.expect(tokenIssued(res), `${method} /access_token: no token may be issued`).toBe(false);
      t.expect(res.status, `${method} /access_token (the wrong HTTP method): expected HTTP 302; got HTTP ${res.status}`).toBe(302);
      const where = res.location ? new URL(res.location, tokenUrl(t)).pathname : null;
      t.expect(where !== null && /\/error\/?$/.test(where), `${method} /access_token: the 302 must point to /error; Location path is ${where ?? 'absent'}`).toBe(true);
    }
  });

  /** The grants whose request the table gives a parameter of their own ("Required when"), with that parameter. */
  const GRANT_PARAMETERS = [['authorization_code', 'code'], ['refresh_token', 'refresh_token']] as const;

  conformance('TOKEN-REQUIRED-PARAMETER', 'a code or refresh grant request without its code or refresh_token yields no token, whichever credential sends it', {}, async (t) => {
    // Every credential's requests: the profile's, and the second of the fixtures (its own client_id and client_secret).
    await t.eachSlice('client', async (client) => {
      const own = client === 'profile' ? t.target.profile : secondClient(t);
      for (const [grant, missing] of GRANT_PARAMETERS) {
        const res = await postToken(t, { grant_type: grant, client_id: own.clientId, client_secret: own.clientSecret });
        t.observe(`${grant} grant of the ${client} credential without ${missing}`, { status: res.status, error: res.json?.error ?? null, location: res.location ? new URL(res.location, tokenUrl(t)).pathname : null });
        t.expect(tokenIssued(res), `${grant} grant of the ${client} credential without ${missing} (required when grant_type=${grant}): no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
      }
    });
  });

  conformance('TOKEN-MISSING-PARAMETER-ANSWER', 'a code or refresh grant request without its code or refresh_token is refused as malformed (302 to /error) or as invalid_request (400, RFC 6749 §5.2), whichever credential sends it', {}, async (t) => {
    // Two readings, both legal (freedom MISSING-PARAMETER-REFUSAL): the Errors row's malformed request, or RFC 6749 §5.2's invalid_request.
    await t.eachSlice('client', async (client) => {
    const p = client === 'profile' ? t.target.profile : secondClient(t);
    for (const [grant, missing] of GRANT_PARAMETERS) {
      const res = await postToken(t, { grant_type: grant, client_id: p.clientId, client_secret: p.clientSecret });
      const where = res.status === 302 && res.location ? new URL(res.location, tokenUrl(t)).pathname : null;
      const toError = where !== null && /\/error\/?$/.test(where);
      const invalidRequest = res.status === 400 && res.json !== null && typeof res.json === 'object' && res.json.error === 'invalid_request';
      t.expect(toError || invalidRequest, `${grant} grant of the ${client} credential without ${missing}: expected HTTP 302 to /error (the Errors row's malformed request) or HTTP 400 with an OAuth 2.0 error body, error=invalid_request (RFC 6749 §5.2); got HTTP ${res.status}${where ? ` to ${where}` : ''}${res.json?.error ? ` error=${res.json.error}` : ''}`).toBe(true);
    }
    });
  });

  conformance('TOKEN-GET-METHOD', 'what GET with query parameters does (which method is authoritative: not shown)', { needs: ['consent'] }, async (t) => {
    const code = await freshCode(t);
    const res = await t.flows.tokenRequest({ grant_type: 'authorization_code', code }, { method: 'GET' });
    t.observe('GET /access_token with query parameters', {
      status: res.status,
      location: res.location ? new URL(res.location, tokenUrl(t)).pathname : null,
      issuedToken: tokenIssued(res),
    });
  });
});

/** A correct request of `grant`, sent with `change` applied to its body and with these headers. */
async function grantRequest(t: SuiteContext, grant: string, change: (body: Record<string, string>) => Record<string, string> = (b) => b, headers: Record<string, string> = {}) {
  return withGrantRequest(t, grant, (body) => postToken(t, change(body), headers));
}

/** Every UTF-8 byte of `value` as %XX (characters that need no encoding too). */
function percentEncodeAll(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** The directives of a Cache-Control or Pragma header, lower case. */
function directives(header: string | undefined): string[] {
  return (header ?? '').split(',').map((d) => d.trim().toLowerCase().split('=')[0]!).filter(Boolean);
}

/** The same request with client_id and client_secret taken out of the body. */
function withoutBodyCredentials(body: Record<string, string>): Record<string, string> {
  const { client_id: _id, client_secret: _secret, ...rest } = body;
  return rest;
}

describe('POST {auth_url}/access_token, on every grant', () => {
  conformance('TOKEN-RESPONSE-JSON', 'the token response is JSON, on every grant, to every credential', {}, async (t) => {
    // Grant and credential drawn in pairs: the second credential's responses of each grant too.
    await eachSlicePair(t, ['grant', 'client'], ({ grant, client }) => withGrantRequestAs(t, grant!, client!, async (body) => {
      const res = await postToken(t, body);
      // The success status is not the spec's (RFC 6749 §5.1 names 200): a token response is any 2xx here.
      t.expect(res.status >= 200 && res.status < 300, `${grant} grant of the ${client} credential: expected a token response (HTTP 2xx); got HTTP ${res.status}`).toBe(true);
      t.observe(`content-type (${grant}, ${client})`, res.headers['content-type'] ?? null);
      t.expect(res.json !== undefined && res.json !== null && typeof res.json === 'object',
        `${grant} grant of the ${client} credential: the token response body must be a JSON object; got ${JSON.stringify(res.text.slice(0, 80))}`).toBe(true);
    }));
  });

  conformance('TOKEN-BASIC-REJECTED', 'client credentials in a Basic header instead of the body: 400 "secrets did not match", on every grant', {}, async (t) => {
    const p = t.target.profile;
    await t.eachSlice('grant', async (grant) => {
      const res = await grantRequest(t, grant, withoutBodyCredentials, { authorization: basicHeader(p.clientId, p.clientSecret) });
      t.expect(tokenIssued(res), `${grant} grant, credentials only in a Basic header: no token may be issued`).toBe(false);
      t.expect(res.status, `${grant} grant, credentials only in a Basic header: expected HTTP 400; got HTTP ${res.status}`).toBe(400);
      t.expect(res.text.toLowerCase(), `${grant} grant, credentials only in a Basic header: expected the message "secrets did not match" in the body`).toContain('secrets did not match');
    });
    // Any credential's client_id and client_secret sent that way: the second of the fixtures too (on the code grant, or the refresh grant without consent).
    const grant = t.target.has('consent') ? 'authorization_code' : 'refresh_token';
    await t.eachSlice('client', (client) => withGrantRequestAs(t, grant, client, async (body) => {
      const res = await postToken(t, withoutBodyCredentials(body), { authorization: basicHeader(body.client_id!, body.client_secret!) });
      t.expect(tokenIssued(res), `${grant} grant, the ${client} credential only in a Basic header: no token may be issued`).toBe(false);
      t.expect(res.status, `${grant} grant, the ${client} credential only in a Basic header: expected HTTP 400; got HTTP ${res.status}`).toBe(400);
      t.expect(res.text.toLowerCase(), `${grant} grant, the ${client} credential only in a Basic header: expected the message "secrets did not match" in the body`).toContain('secrets did not match');
    }));
  });

  conformance('TOKEN-BASIC-IGNORED', 'a Basic header beside correct body credentials is ignored, on every grant, real or bogus', {}, async (t) => {
    const p = t.target.profile;
    const headers: Record<string, string> = { ...BOGUS_BASIC_HEADERS, real: basicHeader(p.clientId, p.clientSecret) };
    await t.eachSlice('grant', async (grant) => {
      const res = await grantRequest(t, grant, undefined, { authorization: headers.bogus! });
      t.expect(tokenIssued(res), `${grant} grant, correct body credentials with a bogus Basic header: the header must be ignored (a token issued); got HTTP ${res.status}`).toBe(true);
    });
    // "any values, real or bogus, are ignored": the real credentials in the header too (on the code grant, or the refresh grant without consent).
    const grant = t.target.has('consent') ? 'authorization_code' : 'refresh_token';
    await t.eachSlice('basic-content', async (content) => {
      const res = await grantRequest(t, grant, undefined, { authorization: headers[content]! });
      t.expect(tokenIssued(res), `${grant} grant, correct body credentials with a ${content} Basic header: the header must be ignored (HTTP 200 with a token); got HTTP ${res.status}`).toBe(true);
    });
  });

  conformance('TOKEN-CLIENT-ID-CHECKED', 'a client_id the service does not know is refused, even with the right client_secret, on every grant', {}, async (t) => {
    const unknown = `${t.target.profile.clientId}-lockconf-unknown`;
    await t.eachSlice('grant', async (grant) => {
      const res = await grantRequest(t, grant, (b) => ({ ...b, client_id: unknown }));
      t.observe(`unknown client_id answer (${grant})`, { status: res.status, error: res.json?.error ?? null });
      t.expect(tokenIssued(res), `${grant} grant under an unknown client_id (right client_secret): no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
    });
  });

  conformance('TOKEN-BODY-SECRET-CHECKED', 'a wrong client_secret in the body is refused, on every grant, for every credential', {}, async (t) => {
    // client_secret is required "always": each grant must check it. The status is not judged (RFC 6749 allows 400 or 401 invalid_client).
    // Grant and credential drawn in pairs ("always", for every credential): the second credential's wrong secret on each grant too.
    await eachSlicePair(t, ['grant', 'client'], ({ grant, client }) => withGrantRequestAs(t, grant!, client!, async (body) => {
      const res = await postToken(t, { ...body, client_secret: `${body.client_secret}-wrong` });
      t.observe(`wrong secret answer (${grant}, ${client} credential)`, { status: res.status, error: res.json?.error ?? null });
      t.expect(tokenIssued(res), `${grant} grant of the ${client} credential with a wrong client_secret: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
    }));
  });

  conformance('TOKEN-BODY-URL-DECODED', 'a request of each grant with every value percent-encoded yields a token', {}, async (t) => {
    // "URL-encoded body": %XX is decoded whatever the character, so every byte of every value is sent as %XX.
    await t.eachSlice('grant', async (grant) => {
      const res = await withGrantRequest(t, grant, (body) => postTokenRaw(t, Object.entries(body).map(([k, v]) => `${k}=${percentEncodeAll(v)}`).join('&')));
      t.expect(tokenIssued(res), `${grant} grant with every value percent-encoded (%XX for each byte): the values must be decoded and a token issued; got HTTP ${res.status}`).toBe(true);
    });
    // Every credential's request body (on the code grant, or the refresh grant without consent).
    const grant = t.target.has('consent') ? 'authorization_code' : 'refresh_token';
    await t.eachSlice('client', async (client) => {
      const res = await withGrantRequestAs(t, grant, client, (body) => postTokenRaw(t, Object.entries(body).map(([k, v]) => `${k}=${percentEncodeAll(v)}`).join('&')));
      t.expect(tokenIssued(res), `${grant} grant of the ${client} credential with every value percent-encoded: the values must be decoded and a token issued; got HTTP ${res.status}`).toBe(true);
    });
  });

  conformance('TOKEN-NO-STORE', 'the token response of each grant carries Cache-Control: no-store and Pragma: no-cache', {}, async (t) => {
    await t.eachSlice('grant', async (grant) => {
      const res = await grantRequest(t, grant);
      t.expect(tokenIssued(res), `${grant} grant: expected a token response; got HTTP ${res.status}`).toBe(true);
      t.expect(directives(res.headers['cache-control']), `${grant} grant: the token response must carry Cache-Control: no-store; got ${JSON.stringify(res.headers['cache-control'] ?? null)}`).toContain('no-store');
      t.expect(directives(res.headers.pragma), `${grant} grant: the token response must carry Pragma: no-cache; got ${JSON.stringify(res.headers.pragma ?? null)}`).toContain('no-cache');
    });
    // "in any response containing tokens": every credential's (on the code grant, or the refresh grant without consent).
    const grant = t.target.has('consent') ? 'authorization_code' : 'refresh_token';
    await t.eachSlice('client', (client) => withGrantRequestAs(t, grant, client, async (body) => {
      const res = await postToken(t, body);
      t.expect(tokenIssued(res), `${grant} grant of the ${client} credential: expected a token response; got HTTP ${res.status}`).toBe(true);
      t.expect(directives(res.headers['cache-control']), `${grant} grant of the ${client} credential: the token response must carry Cache-Control: no-store; got ${JSON.stringify(res.headers['cache-control'] ?? null)}`).toContain('no-store');
      t.expect(directives(res.headers.pragma), `${grant} grant of the ${client} credential: the token response must carry Pragma: no-cache; got ${JSON.stringify(res.headers.pragma ?? null)}`).toContain('no-cache');
    }));
  });

  conformance('TOKEN-MALFORMED-302-ERROR', 'a request of each grant sent with a wrong method (PUT) gets a 302 to /error', {}, async (t) => {
    // Errors: "or the wrong HTTP method | HTTP 302 to /error". GET is left out: the spec does not say which method is authoritative.
    await t.eachSlice('grant', (grant) => withGrantRequest(t, grant, async (body) => {
      const res = await t.http.request({ method: 'PUT', url: tokenUrl(t), form: body });
      rememberTokens(t, res);
      t.expect(tokenIssued(res), `${grant} grant sent with PUT: no token may be issued`).toBe(false);
      t.expect(res.status, `${grant} grant sent with PUT (a wrong method): expected HTTP 302; got HTTP ${res.status}`).toBe(302);
      const where = res.location ? new URL(res.location, tokenUrl(t)).pathname : null;
      t.expect(where !== null && /\/error\/?$/.test(where), `${grant} grant sent with PUT: the 302 must point to /error; Location path is ${where ?? 'absent'}`).toBe(true);
    }));
  });
});

describe('Token response', () => {
  conformance('TOKEN-RESPONSE-SHAPE', 'access_token string, expires_in integer, refresh_token string, on every grant', {}, async (t) => {
    // Grant and credential drawn in pairs: the second credential's responses of each grant too.
    await eachSlicePair(t, ['grant', 'client'], ({ grant, client }) => withGrantRequestAs(t, grant!, client!, async (body) => {
      const res = await postToken(t, body);
      // The success status is not the spec's (RFC 6749 §5.1 names 200): a token response is any 2xx here.
      t.expect(res.status >= 200 && res.status < 300, `${grant} grant of the ${client} credential: expected a token response (HTTP 2xx); got HTTP ${res.status}`).toBe(true);
      const parsed = tokenResponseSchema.safeParse(res.json);
      t.expect(parsed.success, `${grant} grant token response fields (${client} credential): ${explain(parsed)}`).toBe(true);
    }));
    // Each field on its own: present, of its type (expires_in an integer number of seconds).
    const res = await grantRequest(t, t.target.has('consent') ? 'authorization_code' : 'refresh_token');
    const fields = tokenResponseSchema.shape;
    await t.eachSlice('token-field', (field) => {
      const parsed = fields[field as keyof typeof fields].safeParse(res.json?.[field]);
      t.expect(parsed.success, `token response field ${field}: ${explain(parsed)}`).toBe(true);
    });
  });

  conformance('TOKEN-ACCESS-TOKEN-JWT', 'access_token is a JWT, on every grant', {}, async (t) => {
    await eachSlicePair(t, ['grant', 'client'], ({ grant, client }) => withGrantRequestAs(t, grant!, client!, async (body) => {
      const res = await postToken(t, body);
      t.expect(tokenIssued(res), `${grant} grant of the ${client} credential: the token response must carry access_token`).toBe(true);
      // A JWT is a string: an access_token of another type is the token response's fault (TOKEN-RESPONSE-SHAPE), which blocks this check.
      const tokens = await tokenResponseOf(t, res, `${grant} grant`, ['access_token']);
      t.expect(isJwt(tokens.access_token), `${grant} grant of the ${client} credential: access_token must be a JWT (a JWS header.payload.signature of base64url JSON, or a compact JWE); jose could not decode it as either`).toBe(true);
    }));
  });


  conformance('TOKEN-JWT-EXP', 'whether the JWT carries exp and agrees with expires_in (not shown)', { needs: ['consent'] }, async (t) => {
    const res = await codeExchange(t);
    const claims = typeof res.json?.access_token === 'string' ? jwtClaims(res.json.access_token) : null;
    const exp = typeof claims?.exp === 'number' ? claims.exp : null;
    const iat = typeof claims?.iat === 'number' ? claims.iat : null;
    t.observe('JWT claims present', claims ? Object.keys(claims).sort() : null);
    t.observe('exp', exp === null ? 'absent' : {
      expMinusIat: iat === null ? null : exp - iat,
      expiresIn: res.json?.expires_in ?? null,
      agreesWithinAMinute: iat !== null && typeof res.json?.expires_in === 'number' ? Math.abs(exp - iat - res.json.expires_in) <= 60 : null,
    });
  });

  conformance('TOKEN-TOKEN-TYPE', 'token_type in the token response (listed by RFC 6749, not by the spec)', { needs: ['consent'] }, async (t) => {
    const res = await codeExchange(t);
    t.observe('token_type', res.json?.token_type ?? 'absent');
  });

  conformance('TOKEN-ACCESS-LIFETIME', 'the access token lifetime (expires_in; "currently four months")', { needs: ['consent'] }, async (t) => {
    const res = await codeExchange(t);
    const s = res.json?.expires_in;
    t.observe('expires_in', typeof s === 'number' ? { seconds: s, days: Math.round((s / 86_400) * 10) / 10 } : s ?? 'absent');
  });

  conformance('TOKEN-ACCESS-LIFETIME-HONOURED', 'an access token is accepted until its own expires_in has nearly elapsed, from every grant and whatever the age of the refresh token redeemed', { needs: ['clock'] }, async (t) => {
    await alone(t, async () => {
      // Every credential's tokens ("Access token lifetime is given by expires_in": any access token), drawn in pairs with the grant.
      await eachSlicePair(t, ['grant', 'client'], ({ grant, client }) => withGrantRequestAs(t, grant!, client!, async (body) => {
        const apiKey = client === 'second' ? secondClient(t).apiKey : undefined;
        await acceptedUntilExpiresIn(t, await postToken(t, body), `the ${grant} grant's access token of the ${client} credential`, apiKey);
      }));
      // "Access token lifetime is given by expires_in": not cut short by the year of the refresh token it was redeemed for.
      await t.eachSlice('refresh-age', async (age) => {
        if (!t.target.has('user-token')) t.notTested(`the refresh grant needs user-token: ${t.target.whyMissing('user-token') ?? 'not offered by the target'}`);
        const { refreshToken } = await t.flows.userSession();
        const days = REFRESH_AGE_DAYS[age]!;
        await control(t).advanceClock(days * DAY_MS);
        const res = await postToken(t, refreshGrant(t, refreshToken));
        await prerequisite(t, 'REFRESH-VALID-WITHIN-YEAR', () => {
          t.expect(tokenIssued(res), `a refresh token ${days} days after its issue (within its year): expected a token response; got HTTP ${res.status}`).toBe(true);
        });
        await acceptedUntilExpiresIn(t, res, `the access token of a refresh token redeemed ${days} days after its issue`);
      });
    });
  });
});
