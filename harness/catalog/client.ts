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
    { reading: 'The redirect_uri of every authorization request, decoded, is the registered redirect URL: same scheme, host, port, path, query and letter case (the grading mock\'s --redirect-uri); also when the browser reached the application under another loopback name for the same address (probe: the connect URL opened as localhost instead of 127.0.0.1, or the reverse, in the Host header), so a redirect_uri built from the request\'s Host is caught. An application that refuses a Host it does not know (4xx, 421) leaves that slice not tested: a legitimate choice.' }),
  // get-auth-url-authorization/para-2
  r('CLIENT-AUTHZ-URL-ENCODED', 'MUST', O, 'GET {auth_url}/authorization',
    'All values must be URL-encoded.',
    { reading: 'The redirect_uri is sent URL-encoded: no ":", "/", "?", "@", "$", ",", ";", bracket, space, non-ASCII character or stray "%" left as it is, as every URL-encoding of a URL (encodeURIComponent, URLSearchParams) writes it. client_id and state are judged the same way when they hold such characters.' }),
  // authorization-code-flow/item-3
  r('CLIENT-STATE-CHECKED', 'MUST', O, 'Authorization code flow',
    'The application must check that state matches what it sent.',
    { reading: 'Probe family: lockconf brings a browser back to the application with a code the mock issued and a state that matches nothing the application sent (a suffix or prefix added, cut short, empty, missing, letter case changed, forged, one character changed at the start, at the end or inside), while the flow is in progress after the user approved, and after the user cancelled it; in the browser of the flow, and (approval) in a browser without the application\'s session cookie. The code must never reach the token endpoint. Forged values and inner positions are drawn from the run\'s seed and recorded (a run is replayed with its seed). A percent-encoded equivalent of the state is the same state (not a violation). The sentence fixes a match with what the application sent; which browser brings back a state it did send is CLIENT-STATE-SESSION-BOUND (SHOULD).' }),
  // RFC 6749 §10.12
  r('CLIENT-STATE-SESSION-BOUND', 'SHOULD', O, 'RFC 6749 §10.12',
    'The client MUST implement CSRF protection for its redirection URI. This is typically accomplished by requiring any request sent to the redirection URI endpoint to include a value that binds the request to the user-agent\'s authenticated state (e.g., a hash of the session cookie used to authenticate the user-agent).',
    { source: 'RFC 6749', reading: 'Probes: a redirect back carrying a state the application did send, but to another browser (the state another session is waiting for), or reaching a browser without the application\'s session cookie (the right state and code opened in a fresh browser), is not accepted: the code must never reach the token endpoint. SHOULD, not MUST: the spec says only "The application must check that state matches what it sent", which a state the application sent to another browser does match; binding it to the browser session is OAuth\'s CSRF protection (RFC 6749 §10.12, RFC 9700 §2.1), not the spec\'s words.' }),
  // get-auth-url-authorization/row-3
  r('CLIENT-STATE-ONE-USE', 'SHOULD', O, 'GET {auth_url}/authorization',
    'state | yes | Value chosen by the application; returned unchanged at the end; typically a CSRF guard.',
    { reading: 'Probe: once a flow has ended (approved and signed in, or cancelled), a redirect back carrying that flow\'s state and a fresh code is not accepted: the code must never reach the token endpoint. SHOULD: the spec asks that state match what the application sent; that a CSRF guard is used once is OAuth\'s security practice (RFC 9700 §2.1), not the spec\'s words.' }),
  // authorization-code-flow/item-3
  r('CLIENT-CANCELLATION-STATE-CHECKED', 'MUST', O, 'Authorization code flow',
    'On cancellation the query carries error=access_denied and state. The application must check that state matches what it sent.',
    { reading: 'Probe family: while a sign-in is in progress, a cancellation redirect (error=access_denied) whose state matches nothing the application sent (missing, empty, forged, one character changed at the start, at the end or inside, longer, cut short) reaches the browser of the flow, then the flow\'s own approval redirect: a cancellation the application checked is not its own, so it must not end that sign-in. What an application does with a redirect whose state does not match is its choice (keep waiting, or give the sign-in up), so the same state is first sent on an approval redirect: when the sign-in survives that but not the cancellation, the cancellation was taken unchecked (failed); when it survives neither, the rule is not tested for that state. A state the application sent to another browser is CLIENT-STATE-SESSION-BOUND (SHOULD).' }),
  // post-auth-url-access-token/row-4
  r('CLIENT-CODE-FROM-REDIRECT', 'MUST', O, 'POST {auth_url}/access_token',
    'code | grant_type=authorization_code | Authorization code from the redirect.',
    { reading: 'Every code exchanged is one the mock issued to this client in a redirect; after an access_denied redirect (probe: the user cancels) no code exchange follows.' }),
  // RFC 6749 §4.1.2
  r('CLIENT-CODE-ONCE', 'MUST', O, 'RFC 6749 §4.1.2',
    'The client MUST NOT use the authorization code more than once.',
    { source: 'RFC 6749', reading: 'No authorization code is presented to the token endpoint twice: on the first visit of the callback, nor when the user reloads it (probe: the page the redirect back landed on reloaded, the same code and state again in the same browser).' }),
  // post-auth-url-access-token/para-1
  r('CLIENT-TOKEN-FORM-POST', 'MUST', O, 'POST {auth_url}/access_token',
    'Request: Content-Type application/x-www-form-urlencoded, URL-encoded body.',
    { reading: 'Every token request is a POST with Content-Type application/x-www-form-urlencoded, and its body is URL-encoded: it decodes, and the values arrive as sent (the graded mock\'s client secret holds "+", "&", "=" and "/", its codes and refresh tokens end in "+/=", so a body built without URL-encoding, or encoded twice, alters them).' }),
  // post-auth-url-access-token/row-1..3
  r('CLIENT-TOKEN-BODY-FIELDS', 'MUST', O, 'POST {auth_url}/access_token',
    'client_id | always | Client ID. … client_secret | always | Client secret. … grant_type | always | authorization_code, client_credentials or refresh_token. … code | grant_type=authorization_code | Authorization code from the redirect. … refresh_token | grant_type=refresh_token | Current refresh token.',
    { reading: 'Every token request carries client_id, client_secret and grant_type in its form body, and code (authorization_code grant) or refresh_token (refresh_token grant) when its grant requires it; judged by value: grant_type is one of the three named and the grant the request makes (refresh_token on a refresh, authorization_code on a code exchange), client_id and client_secret are the application\'s own (a field given twice is CLIENT-TOKEN-FIELD-ONCE). A request whose grant_type is wrong is judged on the grant its fields show.' }),
  // RFC 6749 §3.2
  r('CLIENT-TOKEN-FIELD-ONCE', 'MUST', O, 'RFC 6749 §3.2',
    'Request and response parameters MUST NOT be included more than once.',
    { source: 'RFC 6749', reading: 'The spec implies it: the document covers "the OAuth 2.0 authorization and token endpoints", and a token request\'s parameters are those of the OAuth 2.0 token endpoint (RFC 6749 §3.2), each a row of the table with one value. No field of a token request\'s form body is given twice (client_id, client_secret, grant_type, code, refresh_token or any other), on every grant the application uses.' }),
  // post-auth-url-access-token/para-2
  r('CLIENT-TOKEN-NO-BASIC', 'MUST', O, 'POST {auth_url}/access_token',
    'client_id and client_secret must be in the body; a Basic Authorization header is ignored (any values, real or bogus, are ignored) and must not be used to carry them.',
    { reading: 'No token request carries an Authorization: Basic header.' }),
  // api-credentials/row-2
  r('CLIENT-SECRET-ONLY-IN-FORM', 'MUST', O, 'API credentials',
    'client_secret | string | Password-like; sent only in form bodies of token requests.',
    { reading: 'The client secret appears nowhere but the form body of token requests: not in any URL (authorization, token or API), not in an API header or body (e.g. a webhook registration), not in what the application sends to the browser (its pages, scripts and JSON, as the probes\' browser receives them). An Authorization: Basic header is judged by CLIENT-TOKEN-NO-BASIC.' }),
  // what-the-service-does/item-2
  r('CLIENT-API-KEY-NOT-TO-BROWSER', 'SHOULD', O, 'What the service does',
    'The application (a confidential client) holds a client_id, client_secret and API key, obtained by registering API credentials.',
    { reading: 'What the application sends to the browser (its pages, scripts and JSON, as the probes\' browser receives them) never holds the API key. SHOULD: the spec does not say where the API key may appear beyond "Sent as the x-api-key header on API calls"; a confidential client keeps its credentials from the user agent (RFC 6749 §2.1), and the API key also signs webhooks.' }),
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
  // limits/row-2
  r('CLIENT-REFRESH-IN-FLIGHT', 'SHOULD', O, 'Limits',
    'Refresh token lifetime | 1 year from issue; valid for exactly one use.',
    { reading: 'Probe: the user asks for a refresh twice at once (a double click, two tabs: two GETs of the refreshUrl with the session\'s cookies, the mock holding the first refresh until the second arrives, at most 1.5 s). The application presents no refresh token in two refreshes (the second use is refused with 400), and the user is still signed in afterwards: the application\'s page, which called the API before, calls it again with success. SHOULD: the spec gives the application no rule for two refreshes at once; a token valid for exactly one use, whose successor "replaces the old one and must be stored", makes one refresh at a time the only way not to lose the session to a double click.' }),
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
    { reading: 'After an API call is answered 401, the refused access token is not presented again, and the user can authorize again: after a 401 on the call of the application\'s page, either the application sends the browser to authorization at once or its connect address does (probe: the mock answers 401 to the application\'s next call). How the user is brought back (a redirect at once, a "reconnect" button) is the application\'s choice: the spec says the user must authorize again, not when. Nor does a refresh grant stand in for it: within a 401 probe, a refresh (the mock leaves the refresh token valid) before the user is sent through authorization again fails the rule (MUST by the sentence: "the user must authorize again", which a refresh, made without the user, is not). Probes put the 401 on each kind of call, and at each point of a flow (slices flow-point): the first call after the code exchange, the first after a refresh, a call of the page or the actions drawn from the run\'s seed.' }),
  // webhook-registration/row-3
  r('CLIENT-WEBHOOK-CLIENT-ID', 'MUST', O, 'Webhook registration',
    'clientID | string | The application\'s client_id.',
    { reading: 'A registration\'s clientID, and the clientID of DELETE /webhook/:lockID/:clientID, are the application\'s own client_id.' }),
  // post-base-url-webhook-lockid/para-1, post-base-url-webhook-user/para-1
  r('CLIENT-WEBHOOK-GROUPS', 'MUST', O, 'Webhook registration',
    'notificationTypes for locks: operation, operation.type, configuration, battery, systemstatus, accessmgmt. … notificationTypes for users: lockmembership, lifecycle.',
    { reading: 'A lock registration asks only for lock groups, a user registration only for user groups; judged by value: notificationTypes is an array of string ("notificationTypes | array of string"), so one comma-separated string fails, and a run whose registrations named no group is not tested, never passed.' }),
  // webhook-registration/row-1..5
  r('CLIENT-WEBHOOK-FIELD-TYPES', 'MUST', O, 'Webhook registration',
    'url | string (URL) | Address that receives the webhook POST. … method | string | HTTP method used for delivery. … header | string | Name of an extra header the service adds to every webhook. … token | string | Value sent in the header named by header.',
    { reading: 'Each of url, method, header and token that a registration carries has the type the table gives: a string, url one that parses as a URL. Which fields are required is not shown, so a field left out is no violation.' }),
  // what-the-service-does/item-6, and the headings of the four webhook endpoints
  r('CLIENT-WEBHOOK-ENDPOINT', 'MUST', O, 'What the service does',
    'Registrations are created and deleted through the API.',
    { reading: 'Every call the application means as one of the four webhook endpoints the spec names uses its method and path: POST /webhook/:lockID, POST /webhook/user, DELETE /webhook/:lockID/:clientID, DELETE /webhook/user (a registration sent as PUT or PATCH, a lock deletion without :clientID, the user deletion misspelt fail). A call to an endpoint the spec does not show (a GET that reads or lists registrations: "All other API endpoints: not shown") is not judged.' }),
  // delete-base-url-webhook-lockid-clientid/para-1, delete-base-url-webhook-user/para-1
  r('CLIENT-DELETE-NO-BODY', 'MUST', O, 'Webhook registration',
    'Deletes a lock webhook registration. No body. … Deletes the user webhook registration. No body.',
    { reading: 'DELETE /webhook/… requests carry no body.' }),
];
