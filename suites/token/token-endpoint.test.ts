/**
 * The token endpoint (spec: POST {auth_url}/access_token; Resources → Token
 * response; Errors): where the client credentials travel, the response shape, and
 * the 302 to /error for malformed requests.
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import { explain, tokenResponseSchema } from '../schemas/token.js';
import type { SuiteContext } from '../support/context.js';
import { control } from '../support/context.js';
import { withGrantRequest } from '../support/grants.js';
import { basicHeader, codeGrant, freshCode, isJwt, jwtClaims, postToken, postTokenRaw, refreshGrant, tokenIssued, tokenUrl } from '../support/tokens.js';

/** A fresh code exchanged the ordinary way: the token response every shape check reads. */
async function codeExchange(t: SuiteContext) {
  const code = await freshCode(t);
  return postToken(t, codeGrant(t, code));
}

describe('POST {auth_url}/access_token', () => {
  conformance('TOKEN-RESPONSE-JSON', 'the token response is JSON', { needs: ['consent'] }, async (t) => {
    const res = await codeExchange(t);
    t.expect(res.status, `code exchange: expected HTTP 200; got HTTP ${res.status}`).toBe(200);
    t.observe('content-type', res.headers['content-type'] ?? null);
    t.expect(res.json !== undefined && res.json !== null && typeof res.json === 'object',
      `the token response body must be a JSON object; got ${JSON.stringify(res.text.slice(0, 80))}`).toBe(true);
  });

  conformance('TOKEN-BASIC-REJECTED', 'client credentials in a Basic header instead of the body: 400 "secrets did not match"', { needs: ['consent'] }, async (t) => {
    const p = t.target.profile;
    const code = await freshCode(t);
    const res = await postToken(t, { grant_type: 'authorization_code', code }, { authorization: basicHeader(p.clientId, p.clientSecret) });
    t.expect(tokenIssued(res), 'credentials only in a Basic header: no token may be issued').toBe(false);
    t.expect(res.status, 'credentials only in a Basic header: expected HTTP 400').toBe(400);
    t.expect(res.text.toLowerCase(), 'credentials only in a Basic header: expected the message "secrets did not match" in the body').toContain('secrets did not match');
  });

  conformance('TOKEN-BASIC-IGNORED', 'a bogus Basic header beside correct body credentials is ignored, on every grant', {}, async (t) => {
    await t.eachSlice('grant', (grant) => withGrantRequest(t, grant, async (body) => {
      const res = await postToken(t, body, { authorization: basicHeader('lockconf-bogus-client', 'lockconf-bogus-secret') });
      t.expect(res.status, `${grant} grant, correct body credentials with a bogus Basic header: the header must be ignored (HTTP 200); got HTTP ${res.status}`).toBe(200);
      t.expect(tokenIssued(res), `${grant} grant, correct body credentials with a bogus Basic header: a token must be issued`).toBe(true);
    }));
  });

  conformance('TOKEN-CLIENT-ID-CHECKED', 'a client_id the service does not know is refused, even with the right client_secret', { needs: ['user-token'] }, async (t) => {
    // The refresh grant needs no consent: a live refresh token of the real client, presented under an unknown client_id.
    const unknown = `${t.target.profile.clientId}-lockconf-unknown`;
    const session = await t.flows.userSession();
    const res = await postToken(t, { ...refreshGrant(t, session.refreshToken), client_id: unknown });
    t.observe('unknown client_id answer (refresh_token)', { status: res.status, error: res.json?.error ?? null });
    t.expect(tokenIssued(res), `refresh_token grant under an unknown client_id (right client_secret): no token may be issued; got HTTP ${res.status} with a token`).toBe(false);
  });

  conformance('TOKEN-BODY-SECRET-CHECKED', 'a wrong client_secret in the body is refused, whatever the grant', { needs: ['consent'] }, async (t) => {
    // client_secret is required "always": each grant must check it, not only the code grant.
    // The status is not judged (RFC 6749 allows 400 or 401 invalid_client): only that no token comes back.
    const wrong = `${t.target.profile.clientSecret}-wrong`;
    const code = await freshCode(t);
    const res = await postToken(t, { ...codeGrant(t, code), client_secret: wrong });
    t.observe('wrong secret answer (authorization_code)', { status: res.status, error: res.json?.error ?? null });
    t.expect(tokenIssued(res), `authorization_code grant with a wrong client_secret: no token may be issued; got HTTP ${res.status} with a token`).toBe(false);

    const session = await t.flows.userSession();
    const refreshed = await postToken(t, { ...refreshGrant(t, session.refreshToken), client_secret: wrong });
    t.observe('wrong secret answer (refresh_token)', { status: refreshed.status, error: refreshed.json?.error ?? null });
    t.expect(tokenIssued(refreshed), `refresh_token grant with a wrong client_secret: no token may be issued; got HTTP ${refreshed.status} with a token`).toBe(false);

    if (t.target.has('client-credentials')) {
      await control(t).setClientCredentials(true);
      try {
        const cc = await postToken(t, { grant_type: 'client_credentials', client_id: t.target.profile.clientId, client_secret: wrong });
        t.observe('wrong secret answer (client_credentials, permitted)', { status: cc.status, error: cc.json?.error ?? null });
        t.expect(tokenIssued(cc), `client_credentials grant (permitted) with a wrong client_secret: no token may be issued; got HTTP ${cc.status} with a token`).toBe(false);
      } finally {
        await control(t).setClientCredentials(false);
      }
    }
  });

  conformance('TOKEN-MALFORMED-302-ERROR', 'a malformed request (split by an unquoted &) gets a 302 to /error', {}, async (t) => {
    // `curl -d client_id=…&client_secret=…&grant_type=…` unquoted: the shell cuts the body at the first &.
    const res = await postTokenRaw(t, `client_id=${encodeURIComponent(t.target.profile.clientId)}`);
    t.expect(tokenIssued(res), 'a malformed token request: no token may be issued').toBe(false);
    t.expect(res.status, `a malformed token request (grant_type and client_secret cut off): expected HTTP 302; got HTTP ${res.status}`).toBe(302);
    t.expect(res.location, 'the 302 must carry a Location').toBeTruthy();
    const where = new URL(res.location!, tokenUrl(t));
    t.expect(/\/error\/?$/.test(where.pathname), `the 302 must point to /error; Location path is ${where.pathname}`).toBe(true);
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

describe('Token response', () => {
  conformance('TOKEN-RESPONSE-SHAPE', 'access_token string, expires_in integer, refresh_token string', { needs: ['consent'] }, async (t) => {
    const res = await codeExchange(t);
    t.expect(res.status, `code exchange: expected HTTP 200; got HTTP ${res.status}`).toBe(200);
    const parsed = tokenResponseSchema.safeParse(res.json);
    t.expect(parsed.success, `token response fields: ${explain(parsed)}`).toBe(true);
  });

  conformance('TOKEN-ACCESS-TOKEN-JWT', 'access_token is a JWT', { needs: ['consent'] }, async (t) => {
    const res = await codeExchange(t);
    t.expect(typeof res.json?.access_token, 'the token response must carry access_token').toBe('string');
    t.expect(isJwt(res.json.access_token), 'access_token must be a JWT (a JWS header.payload.signature of base64url JSON, or a compact JWE); jose could not decode it as either').toBe(true);
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
});
