/**
 * Slices of the OAuth authorization, Token endpoint, Client credentials, Refresh
 * tokens and API headers areas: for each requirement, the dimensions the spec's
 * text and tables give it (dimensions.ts), with their values.
 */
import type { SliceDeclarations } from './types.js';
import { NON_EMPTY_CHARS } from './dimensions.js';

const EVERY_GRANT = { grant: 'all' } as const;

export const OAUTH_TOKEN_SLICES: SliceDeclarations = {
  dimensions: [
    {
      id: 'basic-content',
      title: 'What an Authorization: Basic header holds',
      source: 'POST {auth_url}/access_token: "a Basic Authorization header is ignored (any values, real or bogus, are ignored)": any value, so besides the real credentials and well-formed bogus ones, what a parser of RFC 7617 chokes on (credentials without a colon, a value that is not base64, no value at all, bytes beyond ASCII)',
      values: ['real', 'bogus', 'no-colon', 'not-base64', 'empty', 'non-ascii'],
    },
    {
      id: 'token-field',
      title: 'Field of the token response',
      source: 'Token response: "access_token | string (a JWT)", "expires_in | integer", "refresh_token | string"',
      values: ['access_token', 'expires_in', 'refresh_token'],
    },
    {
      id: 'refusal-cause',
      title: 'Why a refresh token is refused',
      source: 'Errors: "refresh_token expired, already used, or revoked | HTTP 400 with an error message in the body following OAuth 2.0."; Refresh token: "used, expired or revoked | any use | none | unchanged | HTTP 400 with an OAuth2 error body."',
      values: ['used', 'expired', 'revoked'],
    },
    {
      id: 'presentation',
      title: 'How two presentations of one single-use value (a refresh token, a code) meet: one after the other\'s answer, or both at once',
      source: 'Limits: "Refresh token lifetime | 1 year from issue; valid for exactly one use."; RFC 6749 §4.1.2: "If an authorization code is used more than once, the authorization server MUST deny the request.": one use, however close together two presentations come',
      // two-at-once first: npm test's sample breaks a dimension's last value, and one-after-another needs no timing.
      values: ['two-at-once', 'one-after-another'],
    },
    {
      id: 'approver',
      title: 'The user who signs in and approves a code (a lock\'s owner, or a guest on it)',
      source: 'What the service does: "The service lets an application act on behalf of existing users"; "authorization_code (token for one of the application\'s users)"; Authorization code flow: "The user signs in … and approves or cancels"; Values reported in events: "User access level | user (guest), superuser (owner)"',
      values: ['owner', 'guest'],
    },
    {
      id: 'refresh-age',
      title: 'How long after its own issue a refresh token is presented (the target\'s clock moved): a month, eleven months, a day short of a year; a minute past the longest year, three years',
      source: 'Limits: "Refresh token lifetime | 1 year from issue"; Refresh token: "used within one year of issue" / "a year passes | none | expired": every moment of the year, not only its last day, and every moment after it',
      values: ['one-month', 'eleven-months', 'just-under-year', 'just-past-year', 'years-past'],
    },
    {
      id: 'redirect-uri-shape',
      title: 'What the requesting credential\'s registered redirect_uri carries besides scheme and host: a query component, an explicit port, a path beyond "/" (tried on whichever credential of the profile and the fixtures has it)',
      source: 'API credentials: "redirect_uri | URL | Registered with the credentials"; Authorization code flow: "The server answers HTTP 302 to redirect_uri": any registered URL; RFC 6749 §3.1.2: "The endpoint URI MAY include an "application/x-www-form-urlencoded" formatted (per Appendix B) query component ([RFC3986] Section 3.4), which MUST be retained when adding additional query parameters."',
      values: ['query', 'port', 'path'],
    },
    {
      id: 'rotations-after',
      title: 'How many newer access tokens a previous one has: one (the token presented just before the newest), many (every token of a chain of 25 rotations, the newest always presented)',
      source: 'Access token: "New access tokens do not invalidate previous access tokens.": any number of new tokens, any previous token; an implementation that keeps only the last few of a session fails after many',
      values: ['one', 'many'],
    },
    {
      id: 'chain-length',
      title: 'A link far down a refresh chain: the 31st, after 30 redemptions a day apart (bounded)',
      source: 'Refresh token: "the new refresh token replaces it"; Limits: "1 year from issue; valid for exactly one use": a token\'s rules do not wear out with the length of its chain',
      values: ['long'],
    },
  ],
  slices: {
    // "The response is an HTTP 302 redirect to redirect_uri": every credential's registered URI (the second of the fixtures too),
    // whatever it carries (a query, a port, a path), kept as registered (RFC 6749 §3.1.2).
    'OAUTH-AUTHZ-REDIRECT': { client: 'all', 'redirect-uri-shape': 'all' },
    // GET {auth_url}/authorization: "state … returned unchanged at the end"; "All values must be URL-encoded." Every
    // application's state, on its own registered URI.
    'OAUTH-STATE-ECHO': { chars: NON_EMPTY_CHARS, client: 'all' },
    // "On cancellation the query carries error=access_denied and state" (the original state): "HTTP 302 to redirect_uri",
    // every credential's registered URI, whatever it carries.
    'OAUTH-DENIAL-ACCESS-DENIED': { chars: NON_EMPTY_CHARS, client: 'all', 'redirect-uri-shape': 'all' },
    // redirect_uri "Registered with the credentials": any component that differs makes it another URL.
    'OAUTH-REDIRECT-URI-REGISTERED': { 'redirect-uri-part': 'all' },
    // "token for one of the application's users": the token a code yields acts for the user who approved it, owner or guest.
    'OAUTH-CODE-EXCHANGE': { approver: 'all' },
    // "On approval the query carries code and state": whoever approves, whichever credential asks, whatever its registered URI carries.
    'OAUTH-CODE-ON-APPROVAL': { approver: 'all', client: 'all', 'redirect-uri-shape': 'all' },
    // RFC 6749 §4.1.2, a code used more than once is denied: however close together two exchanges come.
    // "The client MUST NOT use the authorization code more than once": every credential's codes, in pairs with the presentation.
    'OAUTH-CODE-SINGLE-USE': { presentation: 'all', client: 'all' },
    // "The authorization code MUST expire shortly after it is issued": every credential's codes.
    'OAUTH-CODE-EXPIRES': { client: 'all' },

    // POST {auth_url}/access_token: "grant_type | always | authorization_code, client_credentials or refresh_token";
    // every rule of the endpoint holds on each grant.
    'TOKEN-BASIC-IGNORED': { grant: 'all', 'basic-content': 'all' },
    // "Token request carries client credentials in an Authorization: Basic header": any credential's.
    'TOKEN-BASIC-REJECTED': { grant: 'all', client: 'all' },
    // "client_secret | always": every request of every credential (the second one of the fixtures too), drawn in pairs with the grant.
    'TOKEN-BODY-SECRET-CHECKED': { grant: 'all', client: 'all' },
    // "code | grant_type=authorization_code", "refresh_token | grant_type=refresh_token": required in every credential's request.
    'TOKEN-REQUIRED-PARAMETER': { client: 'all' },
    'TOKEN-CLIENT-ID-CHECKED': EVERY_GRANT,
    // "Token request where parameters are malformed": any credential's request, of any grant.
    'TOKEN-MALFORMED-302-ERROR': { grant: 'all', client: 'all' },
    'TOKEN-MISSING-PARAMETER-ANSWER': { client: 'all' },
    // "Token response (authorization_code, client_credentials and refresh_token grants)": each field, each grant.
    'TOKEN-RESPONSE-SHAPE': { grant: 'all', 'token-field': 'all', client: 'all' },
    // "Access token lifetime is given by expires_in": the token of each grant, and of the refresh grant whatever the age of the
    // refresh token redeemed (within its year): the access token's life is its own, not the refresh token's remaining year.
    'TOKEN-ACCESS-LIFETIME-HONOURED': { grant: 'all', 'refresh-age': ['one-month', 'eleven-months', 'just-under-year'], client: 'all' },
    'TOKEN-RESPONSE-JSON': { grant: 'all', client: 'all' },
    // Every credential's responses too (the second of the fixtures), drawn in pairs with the grant.
    'TOKEN-ACCESS-TOKEN-JWT': { grant: 'all', client: 'all' },
    // "URL-encoded body" (every grant's request), and RFC 6749 §5.1's no-store (every response with tokens).
    'TOKEN-BODY-URL-DECODED': { grant: 'all', client: 'all' },
    'TOKEN-NO-STORE': { grant: 'all', client: 'all' },

    // "disabled by default and enabled per credential on request": every credential's default.
    'TOKEN-CC-DISABLED-BY-DEFAULT': { client: 'all' },
    // "POST … with client_id, client_secret and grant_type=client_credentials": every credential granted the permission.
    'TOKEN-CC-ENABLED-WORKS': { client: 'all' },
    // client_credentials: "token for an account owned by the application"; "Token used in the x-access-token header".
    // Every credential granted the permission (the second with its own API key), drawn in pairs with the endpoint.
    'TOKEN-CC-TOKEN-WORKS': { endpoint: ['GET /users/me', 'GET /users/locks/mine'], client: 'all' },
    // "refresh_token | string | Single-use token for the refresh grant": every link of the application's chain.
    'TOKEN-CC-REFRESH-WORKS': { position: 'all', client: 'all' },

    // Refresh token: "the new refresh token replaces it": every link of a chain, and the application's own account.
    'REFRESH-NEW-PAIR': { position: 'all', actor: 'all', client: 'all', 'chain-length': 'all' },
    // "valid for exactly one use": every link (a long chain too), every credential's tokens, and two presentations at once (at most one of them is redeemed).
    'REFRESH-SINGLE-USE': { position: 'all', presentation: 'all', client: 'all', 'chain-length': 'all' },
    // "make a call such as GET /users/me with it": every link, every account, every credential's refreshed token (with its own API key).
    'REFRESH-NEW-ACCESS-TOKEN-WORKS': { position: 'all', actor: 'all', client: 'all' },
    // "1 year from issue": each token's own issue, whatever link it is, at every moment within the year (and after it), drawn in pairs with the link.
    // Every credential's tokens ("1 year from issue" of any refresh token): the three drawn pairwise.
    'REFRESH-VALID-WITHIN-YEAR': { position: 'all', 'refresh-age': ['one-month', 'eleven-months', 'just-under-year'], client: 'all' },
    'REFRESH-EXPIRED-AFTER-YEAR': { position: 'all', 'refresh-age': ['just-past-year', 'years-past'], client: 'all' },
    // "issued | revocation | token revoked | revoked": any issued token, whatever link of its chain, the application's own too.
    'REFRESH-REVOKED': { position: 'all', actor: 'all', client: 'all' },
    // Errors: "refresh_token expired, already used, or revoked | HTTP 400 with an error message in the body following OAuth 2.0": each cause.
    // Every credential's refused tokens too (a used one of the second credential).
    'REFRESH-ERROR-RESPONSE': { 'refusal-cause': 'all', client: 'all' },
    'REFRESH-ERROR-INVALID-GRANT': { 'refusal-cause': 'all', client: 'all' },

    // "Every successful API response returns an updated x-access-token header": every endpoint named,
    // every link of the rotation, the user's and the application's tokens.
    // "x-api-key | <API_KEY> of the credential": every credential's calls (the second of the fixtures with its own API key).
    'HEADERS-ROTATION-ON-SUCCESS': { endpoint: 'all', position: 'all', actor: 'all', client: 'all' },
    'HEADERS-ROTATED-TOKEN-WORKS': { endpoint: 'all', position: 'all', actor: 'all', client: 'all' },
    'HEADERS-ROTATED-TOKEN-JWT': { endpoint: 'all', client: 'all', actor: 'all' },
    'HEADERS-ROTATION-EXTENDS': { endpoint: 'all', position: 'all', client: 'all', actor: 'all' },
    // "Using the newest one keeps a valid token": the first rotated token, and later ones.
    'HEADERS-NEWEST-KEEPS-ACCESS': { position: 'all', client: 'all', actor: 'all' },
    // "New access tokens do not invalidate previous access tokens": any access token, every credential's.
    'HEADERS-PREVIOUS-TOKEN-VALID': { endpoint: 'all', position: 'all', client: 'all', actor: 'all', 'rotations-after': 'all' },
    // "access tokens are not issued valid for less than 24 hours": from every grant and every rotation.
    'HEADERS-TOKEN-LIFETIME-24H': { endpoint: 'all', position: 'all', grant: 'all', client: 'all', actor: 'all' },
    'HEADERS-INVALID-TOKEN-401': { endpoint: 'all', 'invalid-token': 'all' },
    // "Invalid access token on an API call | HTTP 401": any access token past its expiry, every credential's.
    'HEADERS-EXPIRED-TOKEN-401': { endpoint: 'all', client: 'all', actor: 'all' },
    'HEADERS-MISSING-TOKEN-401': { endpoint: 'all' },
  },
  noFault: {
    'TOKEN-CC-ENABLED-WORKS@client=profile': 'The profile\'s permitted client_credentials grant refused takes from every test the grant of that credential (each grant\'s rules of the token endpoint, the application\'s account of the refresh and header rules): no break of that slice alone leaves the other rules judged. The second credential\'s slice has its generated fault; the profile\'s grant is judged by the test\'s first part on every run.',
    'TOKEN-RESPONSE-JSON@client=profile': 'Every token response of the profile\'s credential not JSON is the catalog fault token-response-form-encoded (caught by TOKEN-RESPONSE-JSON): every test that reads a token of that credential rests on it, so no break of that slice alone leaves the other rules judged (it fails nine of them). The second credential\'s slice has its generated fault.',
  },
};
