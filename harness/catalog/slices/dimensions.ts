/**
 * The dimensions the spec gives its rules (shared by every declarations file),
 * each with every value and the place in the spec that lists them.
 */
import type { Dimension } from './types.js';

export const GRANT: Dimension = {
  id: 'grant',
  title: 'Grant type of the token request',
  source: 'POST {auth_url}/access_token: "grant_type | always | authorization_code, client_credentials or refresh_token."; Token response (authorization_code, client_credentials and refresh_token grants)',
  values: ['authorization_code', 'client_credentials', 'refresh_token'],
};

export const ENDPOINT: Dimension = {
  id: 'endpoint',
  title: 'API endpoint the spec names',
  source: 'Endpoints: POST {base_url}/webhook/:lockID, POST {base_url}/webhook/user, DELETE {base_url}/webhook/:lockID/:clientID, DELETE {base_url}/webhook/user; Other endpoints named: GET /users/locks/mine, GET /users/me, /remoteoperate/status',
  values: [
    'GET /users/me',
    'GET /users/locks/mine',
    'POST /webhook/:lockID',
    'POST /webhook/user',
    'DELETE /webhook/:lockID/:clientID',
    'DELETE /webhook/user',
    '/remoteoperate/status',
  ],
};

export const POSITION: Dimension = {
  id: 'position',
  title: 'Link of a chain (refresh chain, header rotation)',
  source: 'Refresh token: "the new refresh token replaces it"; Access token: "Every successful API response carries an updated x-access-token header; each new token extends validity slightly." Every link, not only the first.',
  values: ['first', 'later'],
};

export const CHARS: Dimension = {
  id: 'chars',
  title: 'Character class of a value returned or sent unchanged',
  source: 'GET {auth_url}/authorization: "state … returned unchanged at the end"; "All values must be URL-encoded."; Webhook registration: "token | string | … Chosen by the application" (no length given: the empty string too)',
  values: ['percent', 'plus', 'ampersand', 'equals-hash', 'space', 'blanks', 'non-ascii', 'long', 'empty'],
};

/** The classes of a value that has characters (`empty` aside): a state sent empty is no state (RFC 6749 §4.1.1), not a class of one. */
export const NON_EMPTY_CHARS = CHARS.values.filter((v) => v !== 'empty');

export const REDIRECT_URI_PART: Dimension = {
  id: 'redirect-uri-part',
  title: 'URL component of redirect_uri that differs from the registered one',
  source: 'API credentials: "redirect_uri | URL | Registered with the credentials"; GET {auth_url}/authorization: "redirect_uri | yes | The registered redirect URL"',
  values: ['scheme', 'host', 'port', 'path', 'query', 'case'],
};

export const ACTOR: Dimension = {
  id: 'actor',
  title: 'Whose token it is: a lock\'s owner, a guest on it (the fixtures\' users), or the application\'s own account',
  source: 'What the service does: "authorization_code (token for one of the application\'s users) and client_credentials (token for an account owned by the application …)"; Values reported in events: "User access level | user (guest), superuser (owner)": any of the application\'s users, the owner and the guest alike',
  values: ['owner', 'guest', 'application'],
};

export const INVALID_TOKEN: Dimension = {
  id: 'invalid-token',
  title: 'Way an access token is invalid',
  source: 'Errors: "Invalid access token on an API call | HTTP 401"; Access token: "An invalid token yields HTTP 401" (not a token at all, a JWT the service never signed, its own JWT with the signature altered; an expired one is HEADERS-EXPIRED-TOKEN-401)',
  values: ['garbage', 'unsigned-jwt', 'tampered-signature'],
};

export const CLIENT: Dimension = {
  id: 'client',
  title: 'Which client credential makes the request: the profile\'s own, or the second one of the fixtures (GET /fixtures `clients`)',
  source: 'What the service does: "The application (a confidential client) holds a client_id, client_secret and API key, obtained by registering API credentials."; "enabled per credential": every registered credential, not only the first',
  values: ['profile', 'second'],
};

/** The dimensions every declarations file may use. */
export const COMMON_DIMENSIONS: readonly Dimension[] = [GRANT, ENDPOINT, POSITION, CHARS, REDIRECT_URI_PART, ACTOR, INVALID_TOKEN, CLIENT];
