/**
 * The requirements of an application's OAuth client (the application as the
 * target): the rules of the spec that bind the application's side of the OAuth
 * flows and API calls, graded by the reference mock from what the client sent
 * (`npm run mock -- --grade`, then `npm run conformance -- --client`).
 * Each quotes its spec statement verbatim; the anchor (harness/catalog/spec-statements.ts)
 * is noted above each entry. `reading` says what the grading checks.
 */
import { r, type Area, type Requirement } from './requirement.js';

const O = 'OAuth client' as const;

/** The client areas in report order. */
export const CLIENT_AREAS: readonly Area[] = [O];

export const CLIENT_REQUIREMENTS: readonly Requirement[] = [
  // authorization-code-flow/item-1
  r('CLIENT-AUTHZ-REQUEST', 'MUST', O, 'Authorization code flow',
    'The application sends the user to GET {auth_url}/authorization with client_id, redirect_uri and state.',
    { reading: 'Every authorization request the mock receives for the client carries client_id, redirect_uri and a non-empty state.' }),
  // get-auth-url-authorization/row-2
  r('CLIENT-AUTHZ-REDIRECT-URI', 'MUST', O, 'GET {auth_url}/authorization',
    'redirect_uri | yes | The registered redirect URL, URL-encoded.',
    { reading: 'The redirect_uri of every authorization request, decoded, is the registered redirect URL: same scheme, host, port, path, query and letter case (the grading mock\'s --redirect-uri).' }),
  // get-auth-url-authorization/para-2
  r('CLIENT-AUTHZ-URL-ENCODED', 'MUST', O, 'GET {auth_url}/authorization',
    'All values must be URL-encoded.',
    { reading: 'The redirect_uri is sent URL-encoded: no ":", "/", "?", "@", "$", ",", ";", bracket, space, non-ASCII character or stray "%" left as it is, as every URL-encoding of a URL (encodeURIComponent, URLSearchParams) writes it. client_id and state are judged the same way when they hold such characters.' }),
  // authorization-code-flow/item-3
  r('CLIENT-STATE-CHECKED', 'MUST', O, 'Authorization code flow',
    'The application must check that state matches what it sent.',
    { reading: 'Probe family: lockconf brings the browser back to the application with a code the mock issued and a state that is not the one in progress (a suffix or prefix added, cut short, empty, missing, letter case changed, the valid state of another session), while the flow is in progress after the user approved, and after the user cancelled it; the code must never reach the token endpoint. A percent-encoded equivalent of the state is the same state (not a violation).' }),
  // get-auth-url-authorization/row-3
  r('CLIENT-STATE-ONE-USE', 'SHOULD', O, 'GET {auth_url}/authorization',
    'state | yes | Value chosen by the application; returned unchanged at the end; typically a CSRF guard.',
    { reading: 'Probe: once a flow has ended (approved and signed in, or cancelled), a redirect back carrying that flow\'s state and a fresh code is not accepted: the code must never reach the token endpoint. SHOULD: the spec asks that state match what the application sent; that a CSRF guard is used once is OAuth\'s security practice (RFC 9700 §2.1), not the spec\'s words.' }),
  // post-auth-url-access-token/row-4
  r('CLIENT-CODE-FROM-REDIRECT', 'MUST', O, 'POST {auth_url}/access_token',
    'code | grant_type=authorization_code | Authorization code from the redirect.',
    { reading: 'Every code exchanged is one the mock issued to this client in a redirect; after an access_denied redirect (probe: the user cancels) no code exchange follows.' }),
  // RFC 6749 §4.1.2
  r('CLIENT-CODE-ONCE', 'MUST', O, 'RFC 6749 §4.1.2',
    'The client MUST NOT use the authorization code more than once.',
    { source: 'RFC 6749', reading: 'No authorization code is presented to the token endpoint twice.' }),
  // post-auth-url-access-token/para-1
  r('CLIENT-TOKEN-FORM-POST', 'MUST', O, 'POST {auth_url}/access_token',
    'Request: Content-Type application/x-www-form-urlencoded, URL-encoded body.',
    { reading: 'Every token request is a POST with Content-Type application/x-www-form-urlencoded.' }),
  // post-auth-url-access-token/row-1..3
  r('CLIENT-TOKEN-BODY-FIELDS', 'MUST', O, 'POST {auth_url}/access_token',
    'client_id | always | Client ID. … client_secret | always | Client secret. … grant_type | always | authorization_code, client_credentials or refresh_token. … code | grant_type=authorization_code | Authorization code from the redirect. … refresh_token | grant_type=refresh_token | Current refresh token.',
    { reading: 'Every token request carries client_id, client_secret and grant_type in its form body, and code (authorization_code grant) or refresh_token (refresh_token grant) when its grant requires it.' }),
  // post-auth-url-access-token/para-2
  r('CLIENT-TOKEN-NO-BASIC', 'MUST', O, 'POST {auth_url}/access_token',
    'client_id and client_secret must be in the body; a Basic Authorization header is ignored (any values, real or bogus, are ignored) and must not be used to carry them.',
    { reading: 'No token request carries an Authorization: Basic header.' }),
  // api-credentials/row-2
  r('CLIENT-SECRET-ONLY-IN-FORM', 'MUST', O, 'API credentials',
    'client_secret | string | Password-like; sent only in form bodies of token requests.',
    { reading: 'The client secret appears nowhere but the form body of token requests: not in any URL (authorization, token or API), not in an API header or body (e.g. a webhook registration). An Authorization: Basic header is judged by CLIENT-TOKEN-NO-BASIC.' }),
  // limits/row-2
  r('CLIENT-REFRESH-SINGLE-USE', 'MUST', O, 'Limits',
    'Refresh token lifetime | 1 year from issue; valid for exactly one use.',
    { reading: 'A refresh token the mock has redeemed is never presented again.' }),
  // refresh-flow/para-1
  r('CLIENT-REFRESH-STORE-NEW', 'MUST', O, 'Refresh flow',
    'The response is the token response; the returned refresh_token replaces the old one and must be stored.',
    { reading: 'Every refresh presents the latest refresh token of its chain: one the mock issued to this client and has not replaced.' }),
  // refresh-token/row-4
  r('CLIENT-REFRESH-NO-RETRY', 'SHOULD', O, 'Refresh token',
    'used, expired or revoked | any use | none | unchanged | HTTP 400 with an OAuth2 error body.',
    { reading: 'A refused refresh token stays refused, so the application does not present it again after a 400 (probe: the mock refuses a refresh). SHOULD: the spec states the outcome, not a rule for the application.' }),
  // request-headers-for-api-calls/row-1
  r('CLIENT-API-KEY-HEADER', 'MUST', O, 'Request headers for API calls',
    'x-api-key | <API_KEY> of the credential',
    { reading: 'Every API call carries x-api-key with the credential\'s API key.' }),
  // request-headers-for-api-calls/row-2
  r('CLIENT-API-ACCESS-TOKEN-HEADER', 'MUST', O, 'Request headers for API calls',
    'x-access-token | <ACCESS_TOKEN>',
    { reading: 'Every API call carries x-access-token, and it is an access token the service issued to this client (a token response\'s access_token or an answer\'s x-access-token), not a refresh token or a made-up value.' }),
  // request-headers-for-api-calls/row-3
  r('CLIENT-API-CONTENT-TYPE', 'MUST', O, 'Request headers for API calls',
    'content-type | application/json',
    { reading: 'Every API call carries content-type application/json.' }),
  // request-headers-for-api-calls/para-1
  r('CLIENT-API-HEADERS-NOT-ENCODED', 'MUST', O, 'Request headers for API calls',
    'Parameters in headers are not URL-encoded.',
    { reading: 'x-api-key and x-access-token are sent as they are, never percent-encoded (the graded mock\'s API key holds characters URL-encoding changes).' }),
  // limits/row-7
  r('CLIENT-ADOPT-NEW-ACCESS-TOKEN', 'SHOULD', O, 'Limits',
    'Recommended token cache update | Every request ideally; at least once per 24 hours.',
    { reading: 'Once an answer has carried a newer x-access-token, the application does not present the token it replaced again.' }),
  // errors/row-3
  r('CLIENT-REAUTHORIZE-ON-401', 'MUST', O, 'Errors',
    'Invalid access token on an API call | HTTP 401; the user must authorize again.',
    { reading: 'After an API call is answered 401, the refused access token is not presented again and the user is sent through authorization again (probe: the mock answers 401 to the application\'s next call).' }),
  // webhook-registration/row-3
  r('CLIENT-WEBHOOK-CLIENT-ID', 'MUST', O, 'Webhook registration',
    'clientID | string | The application\'s client_id.',
    { reading: 'A registration\'s clientID, and the clientID of DELETE /webhook/:lockID/:clientID, are the application\'s own client_id.' }),
  // post-base-url-webhook-lockid/para-1, post-base-url-webhook-user/para-1
  r('CLIENT-WEBHOOK-GROUPS', 'MUST', O, 'Webhook registration',
    'notificationTypes for locks: operation, operation.type, configuration, battery, systemstatus, accessmgmt. … notificationTypes for users: lockmembership, lifecycle.',
    { reading: 'A lock registration asks only for lock groups, a user registration only for user groups.' }),
  // delete-base-url-webhook-lockid-clientid/para-1, delete-base-url-webhook-user/para-1
  r('CLIENT-DELETE-NO-BODY', 'MUST', O, 'Webhook registration',
    'Deletes a lock webhook registration. No body. … Deletes the user webhook registration. No body.',
    { reading: 'DELETE /webhook/… requests carry no body.' }),
];
