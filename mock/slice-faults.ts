/**
 * Slice faults (issue 19): a fault named `<REQUIREMENT-ID>@<dim>=<value>`
 * (`TOKEN-BASIC-IGNORED@grant=refresh_token`) breaks one rule on one slice only
 * (one grant, one endpoint, one link of a chain…) while every other slice stays
 * right. The faults are not written one by one: the harness's slice catalog
 * (harness/catalog/slices) declares the slices, and each requirement has ONE
 * break point here and one call `ctx.faults.breaks(ID, { dim: value })` at the
 * place the mock implements the rule, generic over the dimension's values.
 *
 * A slice fault is valid when its requirement is listed here with its dimension.
 * The mock stays standalone: the dimension names are plain strings shared by
 * convention with harness/catalog/slices/dimensions.ts (the self-verification
 * checks that they agree).
 */

import type { SliceBreak } from './slice-break.js';
import { WEBHOOK_SLICE_BREAKS } from './webhooks/slice-breaks.js';

export type { SliceBreak };

export const SLICE_BREAKS = {
  // OAuth authorization
  'OAUTH-AUTHZ-REDIRECT': { dims: ['client', 'redirect-uri-shape'], description: 'The approval redirect of that credential\'s requests goes to its registered redirect_uri without the path; to a registered redirect_uri of that shape, without that component (its query, its port, its path: oauth/authorization-request.ts redirectBase).' },
  'OAUTH-STATE-ECHO': { dims: ['chars', 'client'], description: 'A state holding characters of that class (or, for that credential\'s requests, of any class) comes back altered on approval (decoded, cut, trimmed or re-encoded as a careless implementation does: slice-values.ts).' },
  'OAUTH-DENIAL-ACCESS-DENIED': { dims: ['chars', 'client', 'redirect-uri-shape'], description: 'On cancellation, a state holding characters of that class comes back altered (slice-values.ts); the cancellation of that credential\'s requests goes to its registered redirect_uri without the path; to a registered redirect_uri of that shape, without that component (oauth/authorization-request.ts redirectBase).' },
  'OAUTH-CODE-ON-APPROVAL': { dims: ['approver', 'client', 'redirect-uri-shape'], description: 'The approval of that approver (a lock\'s owner, a guest on one), of that credential\'s request, or to a registered redirect_uri of that shape, redirects with the state but no code (oauth/consent.ts).' },
  'OAUTH-CODE-SINGLE-USE': { dims: ['presentation', 'client'], description: 'one-after-another: a code is not used up by its exchange; two-at-once: a code is used up only once its exchange has answered, so a second exchange made meanwhile issues tokens too; a code issued to that credential is not used up by its exchange.' },
  'OAUTH-CODE-EXPIRES': { dims: ['client'], description: 'A code issued to that credential never expires (oauth/codes.ts).' },
  'OAUTH-CODE-EXCHANGE': { dims: ['approver'], description: 'The access token a code of that approver (a lock\'s owner, a guest on one) yields acts for another user: their partner on a lock (oauth/approver.ts).' },
  'OAUTH-REDIRECT-URI-REGISTERED': { dims: ['redirect-uri-part'], description: 'A redirect_uri that differs from the registered one only in that URL component is taken for the registered one and redirected to.' },
  'OAUTH-SIGN-IN-SCREENS': { dims: ['decision', 'sign-ins'], description: 'At the sign-in pages, the consent page\'s button of that decision answers as the other one (oauth/authorization-endpoint.ts); or a new sign-in ends those in progress (oauth/pending.ts).' },
  'OAUTH-SIGN-IN-STEP': { dims: ['client'], description: 'GET /authorization of that credential\'s request skips the sign-in: it answers at once with a redirect carrying a code for the first user (oauth/authorization-endpoint.ts).' },
  'OAUTH-SIGN-IN-WRONG-PASSWORD': { dims: ['credential'], description: 'The sign-in page takes that wrong credential: a wrong password signs in as the e-mail\'s account, an e-mail of no account as the first user.' },
  'OAUTH-CONSENT-SHOWS-REQUEST': { dims: ['shown', 'client'], description: 'The consent page leaves that out: the requesting application\'s name (requester), or the list of what it may do (authorized); or, for that credential\'s requests, both (oauth/authorization-endpoint.ts).' },

  // Token endpoint
  'TOKEN-BASIC-IGNORED': { dims: ['grant', 'basic-content'], description: 'On that grant (or with that kind of Basic header), an Authorization: Basic header beside correct body credentials makes the request fail: a bogus one because it does not match, a real one as a second authentication method.' },
  'TOKEN-BASIC-REJECTED': { dims: ['grant', 'client'], description: 'On that grant, or for that credential, client credentials carried only in an Authorization: Basic header are accepted.' },
  'TOKEN-REQUIRED-PARAMETER': { dims: ['client'], description: 'A code or refresh grant request of that credential without its code or refresh_token is served: a token for the first user of the fixtures (oauth/token-endpoint.ts missingParameter).' },
  'TOKEN-BODY-SECRET-CHECKED': { dims: ['grant', 'client'], description: 'On that grant, or for that credential (the profile\'s, the second of the fixtures), client_secret in the body is not checked.' },
  'TOKEN-CLIENT-ID-CHECKED': { dims: ['grant'], description: 'On that grant, any client_id is taken for the registered one when client_secret is right.' },
  'TOKEN-MALFORMED-302-ERROR': { dims: ['grant', 'client'], description: 'A malformed request of that grant (its body sent with a wrong method), or naming that credential\'s client_id, gets a 400 JSON error instead of a 302 to /error.' },
  'TOKEN-MISSING-PARAMETER-ANSWER': { dims: ['client'], description: 'A code or refresh grant request of that credential without its code or refresh_token is refused with a plain-text 400: neither the Errors row\'s 302 to /error nor RFC 6749\'s invalid_request.' },
  'TOKEN-RESPONSE-SHAPE': { dims: ['grant', 'token-field', 'client'], description: 'In the token response of that grant or of that credential (expires_in), or in every token response (that field), a field has the wrong type: expires_in a string of digits, access_token or refresh_token a number.' },
  'TOKEN-RESPONSE-JSON': { dims: ['grant', 'client'], description: 'The token response of that grant, or to that credential, is form-encoded, not JSON.' },
  'TOKEN-ACCESS-TOKEN-JWT': { dims: ['grant', 'client'], description: 'The access_token of that grant, or issued to that credential, is an opaque random string (which the API accepts), not a JWT.' },
  'TOKEN-BODY-URL-DECODED': { dims: ['grant', 'client'], description: 'The values of a token request of that grant, or naming that credential\'s client_id, are read as sent, not percent-decoded (oauth/index.ts).' },
  'TOKEN-NO-STORE': { dims: ['grant', 'client'], description: 'The token response of that grant, or to that credential, carries neither Cache-Control: no-store nor Pragma: no-cache.' },

  // Client credentials
  'TOKEN-ACCESS-LIFETIME-HONOURED': { dims: ['grant', 'refresh-age', 'client'], description: 'The access token issued by that grant, to that credential, or by the refresh grant for a refresh token of that age (a window around 31, 334 or 364 days: oauth/refresh-tokens.ts refreshAge), stops working an hour before its expires_in has elapsed (expires_in itself unchanged).' },
  'TOKEN-CC-ENABLED-WORKS': { dims: ['client'], description: 'That credential\'s client_credentials grant is refused although it has the permission.' },
  'TOKEN-CC-DISABLED-BY-DEFAULT': { dims: ['client'], description: 'While no credential has the permission, that credential\'s client_credentials grant is served.' },
  'TOKEN-CC-TOKEN-WORKS': { dims: ['endpoint', 'client'], description: 'That endpoint refuses (401) the access token of the application\'s own account; or every endpoint does, for the account of that credential.' },
  'TOKEN-CC-REFRESH-WORKS': { dims: ['position', 'client'], description: 'The refresh grant refuses the application\'s own refresh token at that link of its chain, or of that credential\'s account.' },

  // Refresh tokens
  'REFRESH-NEW-PAIR': { dims: ['position', 'actor', 'client', 'chain-length'], description: 'Redeeming a refresh token at that link of its chain (the 31st or later: chain-length=long), of that account (owner, guest, the application) or of that credential (the profile\'s, the second) returns the same refresh token again.' },
  'REFRESH-SINGLE-USE': { dims: ['position', 'presentation', 'client', 'chain-length'], description: 'A refresh token at that link of its chain (the 31st or later: chain-length=long), or of that credential, is not used up by its redemption; one-after-another: no token is; two-at-once: a token is used up only once its redemption has answered, so a second presentation made meanwhile is redeemed too.' },
  'REFRESH-NEW-ACCESS-TOKEN-WORKS': { dims: ['position', 'actor', 'client'], description: 'The access token returned for a refresh token at that link of its chain (or of that account, or issued to that credential) is refused by the API.' },
  'REFRESH-VALID-WITHIN-YEAR': { dims: ['position', 'refresh-age', 'client'], description: 'A refresh token at that link of its chain, or issued to that credential, expires 30 days after the chain began, not a year after its own issue; or one presented at that age (a window around 31, 334 or 364 days: oauth/refresh-tokens.ts refreshAge) is taken for expired.' },
  'REFRESH-EXPIRED-AFTER-YEAR': { dims: ['position', 'refresh-age', 'client'], description: 'A refresh token at that link of its chain, issued to that credential, or presented at that age past its year (366 days to 400, or later), never expires.' },
  'REFRESH-REVOKED': { dims: ['position', 'actor', 'client'], description: 'Revoking a refresh token at that link of its chain (or of that account, or issued to that credential) leaves it redeemable.' },
  'REFRESH-ERROR-RESPONSE': { dims: ['refusal-cause', 'client'], description: 'A refresh token refused for that cause (used, expired, revoked), or presented by that credential, gets HTTP 400 with a plain-text body, not an OAuth 2.0 error object.' },
  'REFRESH-ERROR-INVALID-GRANT': { dims: ['refusal-cause', 'client'], description: 'A refresh token refused for that cause, or presented by that credential, gets error=invalid_request instead of invalid_grant.' },

  // API headers
  'HEADERS-ROTATION-ON-SUCCESS': { dims: ['endpoint', 'position', 'actor', 'client'], description: 'Successful answers of that endpoint (at that link of the rotation, for that account, or to a token of that credential) carry no x-access-token header.' },
  'HEADERS-ROTATED-TOKEN-WORKS': { dims: ['endpoint', 'position', 'actor', 'client'], description: 'The x-access-token of that endpoint\'s answers (at that link, for that account, or of that credential) is a token the API refuses.' },
  'HEADERS-ROTATED-TOKEN-JWT': { dims: ['endpoint', 'client', 'actor'], description: 'The x-access-token of that endpoint\'s answers (or of that credential\'s calls, or for that account) is an opaque random string (which the API accepts), not a JWT.' },
  'HEADERS-NEWEST-KEEPS-ACCESS': { dims: ['position', 'client', 'actor'], description: 'A token rotated at that link of the rotation (or for that credential, or for that account) is valid only an hour past the token presented, never for a day: an application calling once a day with the newest token loses access.' },
  'HEADERS-ROTATION-EXTENDS': { dims: ['endpoint', 'position', 'client', 'actor'], description: 'A token rotated by that endpoint (at that link, for that credential, or for that account) expires at the same moment as the one presented.' },
  'HEADERS-PREVIOUS-TOKEN-VALID': { dims: ['endpoint', 'position', 'client', 'actor', 'rotations-after'], description: 'Rotating on that endpoint (at that link, for that credential, or for that account) invalidates the token presented; rotations-after=one: every rotation does; many: a token is invalidated once four newer ones of its chain exist (a session keeps its last few: api/authentication.ts).' },
  'HEADERS-TOKEN-LIFETIME-24H': { dims: ['endpoint', 'position', 'grant', 'client', 'actor'], description: 'Tokens rotated by that endpoint (at that link, for that credential, or for that account), or issued by that grant, are valid for one hour only.' },
  'HEADERS-INVALID-TOKEN-401': { dims: ['endpoint', 'invalid-token'], description: 'That endpoint (or every endpoint, for that kind of invalid token) answers an invalid access token with 403 instead of 401.' },
  'HEADERS-EXPIRED-TOKEN-401': { dims: ['endpoint', 'client', 'actor'], description: 'That endpoint accepts an access token past its expiry; or every endpoint does, for a token of that credential or of that account.' },
  'HEADERS-MISSING-TOKEN-401': { dims: ['endpoint'], description: 'That endpoint answers a request without x-access-token with 400 instead of 401.' },

  // Webhook registration, delivery, signature and event payloads (mock/webhooks/slice-breaks.ts)
  ...WEBHOOK_SLICE_BREAKS,
} as const satisfies Record<string, SliceBreak>;

export type SliceBreakId = keyof typeof SLICE_BREAKS;

/** A slice fault's parts, or null when `name` is not written `ID@dim=value`. */
export function parseSliceFault(name: string): { requirement: string; dim: string; value: string } | null {
  const m = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)@([a-z][a-z0-9-]*)=(.+)$/.exec(name);
  return m ? { requirement: m[1]!, dim: m[2]!, value: m[3]! } : null;
}

/** Why `name` is not a valid slice fault, or null when it is. */
export function sliceFaultProblem(name: string): string | null {
  const parsed = parseSliceFault(name);
  if (!parsed) return `a slice fault is written ID@dim=value; got ${name}`;
  const point = (SLICE_BREAKS as Record<string, SliceBreak>)[parsed.requirement];
  if (!point) return `${parsed.requirement} has no slice break point (mock/slice-faults.ts)`;
  if (!point.dims.includes(parsed.dim)) return `${parsed.requirement} breaks only over ${point.dims.join(', ')}, not ${parsed.dim}`;
  return null;
}
