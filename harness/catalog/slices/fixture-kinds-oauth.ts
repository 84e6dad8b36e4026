/**
 * Fixture kinds (credential, lock, actor) of the OAuth authorization, Token endpoint,
 * Client credentials, Refresh tokens and API headers requirements (fixture-kind-types.ts):
 * the dimension that covers each, or the words of the sentence that restrict it.
 */
import type { Area } from '../requirement.js';
import { byDimension as dim, restrictedBy as by, type FixtureKindDeclarations, type KindCoverage } from './fixture-kind-types.js';

export const OAUTH_AREAS: readonly Area[] = ['OAuth authorization', 'Token endpoint', 'Client credentials', 'Refresh tokens', 'API headers'];

// ── Reasons shared by many entries ──────────────────────────────────────────
const NO_LOCK_AUTHZ = (words: string): KindCoverage => by(words, 'the authorization request carries client_id, redirect_uri and state, never a lock: no lock takes part');
const NO_LOCK_TOKEN = (words: string): KindCoverage => by(words, 'a token request carries the grant\'s parameters and the client\'s, never a lock: no lock takes part');
const NO_LOCK_TOKEN_VALUE = (words: string): KindCoverage => by(words, 'the rule is about a token (its form, its life, its refusal), which is issued for an account, not for a lock');
/** The browser-driven steps of the user's own sign-in (the sign-in suite). */
const SIGN_IN_IS_THE_USERS = (): KindCoverage => by('The application does nothing in this step.', 'the e-mail and password, and the SMS, are the user\'s, checked the same whichever application asked; the requesting credential only shapes the first answer (OAUTH-SIGN-IN-STEP) and the redirect that ends the step (OAUTH-AUTHZ-REDIRECT, -CODE-ON-APPROVAL, -DENIAL-ACCESS-DENIED), each declared over the client dimension');
const CLIENT_AUTH_NO_USER = (words: string): KindCoverage => by(words, 'client authentication at the token endpoint: the request names a client and a grant, no user; whose token it is follows from the grant (the grant dimension: the code and refresh grants a user\'s, client_credentials the application\'s)');
const SECOND_CREDENTIAL_IS_THE_RULE = (words: string): KindCoverage => by(words, 'the rule is itself about a second credential: the profile\'s issues, the second of the fixtures (GET /fixtures `clients`) presents');
const APPROVER_IS_USER = (words: string): KindCoverage => by(words, 'the sentence names the user who signs in and approves; the approver dimension where the rule\'s outcome depends on who approves');

export const OAUTH_FIXTURE_KINDS: FixtureKindDeclarations = {
  // ── OAuth authorization ───────────────────────────────────────────────────
  'OAUTH-AUTHZ-REDIRECT': {
    credential: dim('client'),
    lock: NO_LOCK_AUTHZ('GET {auth_url}/authorization'),
    actor: by('The response', 'the status of the redirect that ends the step, one response per request; who approved is OAUTH-CODE-ON-APPROVAL\'s approver dimension'),
  },
  'OAUTH-SIGN-IN-STEP': {
    credential: dim('client'),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: by('The user signs in', 'the first answer comes before anyone has signed in: no actor exists yet'),
  },
  'OAUTH-SIGN-IN-SCREENS': {
    credential: SIGN_IN_IS_THE_USERS(),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: by('with a previously verified e-mail address and password', 'the test account the login section or GET /sign-in/account names (one account with a phone for SMS); the decision and sign-ins dimensions vary what that user does'),
  },
  'OAUTH-SIGN-IN-WRONG-PASSWORD': {
    credential: SIGN_IN_IS_THE_USERS(),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: by('with a previously verified e-mail address and password', 'the wrong credentials of the test account (the credential dimension of sign-in.ts: a wrong password, an e-mail of no account)'),
  },
  'OAUTH-SIGN-IN-WRONG-SMS': {
    credential: SIGN_IN_IS_THE_USERS(),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: by('verifies by an SMS text message to a previously verified mobile phone', 'the test account with a verified phone (one account)'),
  },
  'OAUTH-SIGN-IN-SMS-NOT-SKIPPED': {
    credential: SIGN_IN_IS_THE_USERS(),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: by('verifies by an SMS text message to a previously verified mobile phone', 'the test account with a verified phone (one account)'),
  },
  'OAUTH-CONSENT-SHOWS-REQUEST': {
    credential: dim('client'),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: by('sees who is requesting access and what is authorized', 'what the consent step shows is the requesting application\'s (the shown dimension), the same whoever signed in'),
  },
  'OAUTH-CODE-ON-APPROVAL': {
    credential: dim('client'),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: dim('approver'),
  },
  'OAUTH-STATE-ECHO': {
    credential: dim('client'),
    lock: NO_LOCK_AUTHZ('GET {auth_url}/authorization'),
    actor: by('returned unchanged at the end', 'the state comes back to the application whoever approves; the approver dimension of OAUTH-CODE-ON-APPROVAL judges the state each approver\'s redirect carries'),
  },
  'OAUTH-DENIAL-ACCESS-DENIED': {
    credential: dim('client'),
    lock: NO_LOCK_AUTHZ('Authorization code flow'),
    actor: APPROVER_IS_USER('User declines at the authorization step'),
  },
  'OAUTH-REDIRECT-URI-REGISTERED': {
    credential: by('mismatching redirection URI', 'a URI that is not the requesting credential\'s registered one (the redirect-uri-part dimension); another credential\'s URI is one such'),
    lock: NO_LOCK_AUTHZ('If the request fails due to a missing, invalid, or mismatching redirection URI'),
    actor: by('MUST NOT automatically redirect the user-agent', 'the refusal comes before or at consent, whoever the user agent\'s user is'),
  },
  'OAUTH-UNKNOWN-CLIENT-NO-REDIRECT': {
    credential: by('the client identifier is missing or invalid', 'the rule is about a client_id of no credential'),
    lock: NO_LOCK_AUTHZ('If the request fails due to a missing, invalid, or mismatching redirection URI'),
    actor: by('MUST NOT automatically redirect the user-agent', 'the refusal comes before or at consent, whoever the user agent\'s user is'),
  },
  'OAUTH-CODE-EXCHANGE': {
    credential: by('The application\'s server (holding client_secret)', 'the exchange by the credential the code was issued to; a second credential\'s own exchange is shown by OAUTH-CODE-OTHER-CLIENT and REFRESH-OTHER-CLIENT before they judge'),
    lock: NO_LOCK_TOKEN('POSTs to {auth_url}/access_token'),
    actor: dim('approver'),
  },
  'OAUTH-CODE-SINGLE-USE': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('authorization code'),
    actor: by('the authorization code', 'a code of one approval; the presentation dimension varies how the two uses meet'),
  },
  'OAUTH-CODE-REPLAY-REVOKES': {
    credential: by('all tokens previously issued based on that authorization code', 'the tokens of that one code, issued to its one client'),
    lock: NO_LOCK_TOKEN('authorization code'),
    actor: by('based on that authorization code', 'the tokens of that one code\'s approver'),
  },
  'OAUTH-CODE-INVALID-REFUSED': {
    credential: by('The provided authorization grant', 'a code no credential was issued: the credential presenting it takes no part'),
    lock: NO_LOCK_TOKEN('authorization code'),
    actor: by('is invalid', 'a code never issued belongs to no user'),
  },
  'OAUTH-CODE-OTHER-CLIENT': {
    credential: SECOND_CREDENTIAL_IS_THE_RULE('the authenticated confidential client'),
    lock: NO_LOCK_TOKEN('authorization code'),
    actor: by('ensure that the authorization code was issued to the authenticated confidential client', 'the check is between client and code; the user who approved takes no part'),
  },
  'OAUTH-CODE-EXPIRES': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('authorization code'),
    actor: by('after it is issued', 'a code\'s age; the user who approved takes no part'),
  },
  'OAUTH-CODE-LIFETIME': {
    credential: by('The authorization code', 'one code\'s lifetime, the same rule whichever client holds it'),
    lock: NO_LOCK_TOKEN('authorization code'),
    actor: by('after it is issued', 'a code\'s age; the user who approved takes no part'),
  },

  // ── Token endpoint ──────────────────────────────────────────────────────────
  'TOKEN-RESPONSE-JSON': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('POST {auth_url}/access_token'),
    actor: dim('grant'),
  },
  'TOKEN-RESPONSE-SHAPE': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Token response'),
    actor: dim('grant'),
  },
  'TOKEN-ACCESS-LIFETIME-HONOURED': {
    credential: dim('client'),
    lock: by('Access token lifetime is given by expires_in', 'judged on GET /users/me, which names no lock'),
    actor: dim('grant'),
  },
  'TOKEN-ACCESS-TOKEN-JWT': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Token response'),
    actor: dim('grant'),
  },
  'TOKEN-BASIC-REJECTED': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Token request'),
    actor: dim('grant'),
  },
  'TOKEN-BASIC-IGNORED': {
    credential: dim('basic-content'),
    lock: NO_LOCK_TOKEN('POST {auth_url}/access_token'),
    actor: dim('grant'),
  },
  'TOKEN-CLIENT-ID-CHECKED': {
    credential: by('client_id | always | Client ID.', 'the rule is about a client_id of no credential'),
    lock: NO_LOCK_TOKEN('POST {auth_url}/access_token'),
    actor: dim('grant'),
  },
  'TOKEN-BODY-SECRET-CHECKED': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('POST {auth_url}/access_token'),
    actor: dim('grant'),
  },
  'TOKEN-BODY-URL-DECODED': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('POST {auth_url}/access_token'),
    actor: dim('grant'),
  },
  'TOKEN-NO-STORE': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('in any response containing tokens'),
    actor: dim('grant'),
  },
  'TOKEN-REQUIRED-PARAMETER': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Body field | Required when | Meaning'),
    actor: by('grant_type=authorization_code', 'the rule names the two grants that require a code or a refresh_token, both a user\'s; each is sent (the requirement\'s test covers both grants)'),
  },
  'TOKEN-MISSING-PARAMETER-ANSWER': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Token request'),
    actor: by('Token request where parameters are malformed', 'how a request is refused is the target\'s choice (freedom MISSING-PARAMETER-REFUSAL), judged on the code and refresh grants\' requests alike; no account is reached'),
  },
  'TOKEN-MALFORMED-302-ERROR': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Token request'),
    actor: dim('grant'),
  },

  // ── Client credentials ──────────────────────────────────────────────────────
  'TOKEN-CC-DISABLED-BY-DEFAULT': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('client_credentials grant without permission'),
    actor: by('token for an account owned by the application', 'the application\'s own account: one actor'),
  },
  'TOKEN-CC-ENABLED-WORKS': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('POST {auth_url}/access_token with client_id, client_secret and grant_type=client_credentials'),
    actor: by('grant_type=client_credentials', 'the application\'s own account: one actor'),
  },
  'TOKEN-CC-TOKEN-WORKS': {
    credential: dim('client'),
    lock: by('Token used in the x-access-token header', 'judged on the endpoints that name no lock (GET /users/me, GET /users/locks/mine: the endpoint dimension); the application\'s account need not be a member of any fixture lock'),
    actor: by('token for an account owned by the application', 'the application\'s own account: one actor'),
  },
  'TOKEN-CC-REFRESH-WORKS': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('refresh_token | string | Single-use token for the refresh grant.'),
    actor: by('Client credentials flow', 'the application\'s own account: one actor'),
  },
  'TOKEN-CC-PER-CREDENTIAL': {
    credential: SECOND_CREDENTIAL_IS_THE_RULE('enabled per credential'),
    lock: NO_LOCK_TOKEN('client_credentials'),
    actor: by('token for an account owned by the application', 'the application\'s own account: one actor'),
  },

  // ── Refresh tokens ──────────────────────────────────────────────────────────
  'REFRESH-NEW-PAIR': { credential: dim('client'), lock: NO_LOCK_TOKEN('refresh_token grant using it'), actor: dim('actor') },
  'REFRESH-NEW-ACCESS-TOKEN': {
    credential: by('A refresh_token grant exchanges a single-use refresh token', 'one redemption compared with the token held before it; every credential\'s and account\'s redemption is REFRESH-NEW-PAIR\'s'),
    lock: NO_LOCK_TOKEN('A refresh_token grant'),
    actor: by('A refresh_token grant exchanges a single-use refresh token', 'one redemption compared with the token held before it; every credential\'s and account\'s redemption is REFRESH-NEW-PAIR\'s'),
  },
  'REFRESH-SINGLE-USE': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('valid for exactly one use'),
    actor: by('valid for exactly one use', 'a refresh token\'s own state (used): the position, chain-length, client and presentation dimensions vary the token; the account it serves is REFRESH-NEW-PAIR\'s actor dimension'),
  },
  'REFRESH-ERROR-RESPONSE': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('refresh_token expired, already used, or revoked'),
    actor: by('refresh_token expired, already used, or revoked', 'the refusal\'s body, by cause (the refusal-cause dimension)'),
  },
  'REFRESH-ERROR-INVALID-GRANT': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('or refresh token is invalid, expired, revoked'),
    actor: by('or refresh token is invalid, expired, revoked', 'the refusal\'s error code, by cause (the refusal-cause dimension)'),
  },
  'REFRESH-UNKNOWN-REFUSED': {
    credential: by('or refresh token is invalid', 'a token never issued belongs to no credential'),
    lock: NO_LOCK_TOKEN('or refresh token is invalid'),
    actor: by('or refresh token is invalid', 'a token never issued belongs to no account'),
  },
  'REFRESH-UNKNOWN-ERROR-ANSWER': {
    credential: by('or refresh token is invalid', 'a token never issued belongs to no credential'),
    lock: NO_LOCK_TOKEN('or refresh token is invalid'),
    actor: by('or refresh token is invalid', 'a token never issued belongs to no account'),
  },
  'REFRESH-OTHER-CLIENT': {
    credential: SECOND_CREDENTIAL_IS_THE_RULE('ensure that the refresh token was issued to the authenticated client'),
    lock: NO_LOCK_TOKEN('refresh token'),
    actor: by('ensure that the refresh token was issued to the authenticated client', 'the check is between client and token; the account takes no part'),
  },
  'REFRESH-VALID-WITHIN-YEAR': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('refresh_token grant using it'),
    actor: by('used within one year of issue', 'a token\'s age (the refresh-age and position dimensions, in pairs)'),
  },
  'REFRESH-EXPIRED-AFTER-YEAR': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('a year passes'),
    actor: by('1 year from issue', 'a token\'s age (the refresh-age and position dimensions, in pairs)'),
  },
  'REFRESH-REVOKED': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN('Token can no longer be redeemed'),
    actor: dim('actor'),
  },
  'REFRESH-NEW-ACCESS-TOKEN-WORKS': {
    credential: dim('client'),
    lock: by('GET /users/me', 'judged on GET /users/me, which names no lock'),
    actor: dim('actor'),
  },

  // ── API headers ─────────────────────────────────────────────────────────────
  'HEADERS-ROTATION-ON-SUCCESS': {
    credential: dim('client'),
    lock: dim('endpoint'),
    actor: dim('actor'),
  },
  'HEADERS-ROTATED-TOKEN-WORKS': {
    credential: dim('client'),
    lock: by('Using the newest one keeps a valid token', 'the rotated token is judged on GET /users/me, which names no lock; the lock endpoints it came from are the endpoint dimension'),
    actor: dim('actor'),
  },
  'HEADERS-ROTATED-TOKEN-JWT': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN_VALUE('access_token | string (a JWT)'),
    actor: dim('actor'),
  },
  'HEADERS-NEWEST-KEEPS-ACCESS': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN_VALUE('Using the newest one keeps a valid token'),
    actor: dim('actor'),
  },
  'HEADERS-ROTATION-EXTENDS': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN_VALUE('each new token extends validity slightly'),
    actor: dim('actor'),
  },
  'HEADERS-PREVIOUS-TOKEN-VALID': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN_VALUE('New access tokens do not invalidate previous access tokens.'),
    actor: dim('actor'),
  },
  'HEADERS-INVALID-TOKEN-401': {
    credential: by('An invalid token', 'a token no credential was issued (the invalid-token dimension)'),
    lock: dim('endpoint'),
    actor: by('An invalid token', 'a token that is no account\'s (the invalid-token dimension)'),
  },
  'HEADERS-EXPIRED-TOKEN-401': {
    credential: dim('client'),
    lock: dim('endpoint'),
    actor: dim('actor'),
  },
  'HEADERS-MISSING-TOKEN-401': {
    credential: by('x-access-token | <ACCESS_TOKEN>', 'no token at all: no credential\'s'),
    lock: dim('endpoint'),
    actor: by('x-access-token | <ACCESS_TOKEN>', 'no token at all: no account\'s'),
  },
  'HEADERS-TOKEN-LIFETIME-24H': {
    credential: dim('client'),
    lock: NO_LOCK_TOKEN_VALUE('access tokens are not issued valid for less than 24 hours'),
    actor: dim('actor'),
  },
};
