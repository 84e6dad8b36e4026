/**
 * The requirement catalog: every rule of the Lock Access Service spec
 * (../shared/spec/lock-access-service.md) that lockconf checks, as data.
 *
 * IDs are stable. A spec sentence maps to one ID; a test may check several IDs;
 * an ID may need several tests. `rule` quotes the spec (or the RFC) so a report
 * reader sees the rule without opening the spec. Things the spec marks "not
 * shown" are INFO: observed and reported, never failed.
 */

export type Level = 'MUST' | 'SHOULD' | 'INFO';

/** What a test needs from the target beyond the six required profile fields. */
export type Capability =
  | 'control' // the control protocol (any of it)
  | 'consent' // POST /consent: act as the user at the sign-in and consent screens
  | 'clock' // POST /clock: move the target's clock
  | 'events' // POST /events: make a lock or user emit an event
  | 'revoke' // POST /refresh-tokens/revoke
  | 'client-credentials' // POST /client-credentials: grant the client_credentials permission
  | 'user-token' // a user access + refresh token (from consent, or from the token cache)
  | 'second-user' // a second user's token (fixtures users[1])
  | 'capture'; // a capture server the target can reach

export type Area =
  | 'OAuth authorization'
  | 'Token endpoint'
  | 'Client credentials'
  | 'Refresh tokens'
  | 'API headers'
  | 'Webhook registration'
  | 'Webhook delivery'
  | 'Webhook signature'
  | 'Event payloads';

export interface Requirement {
  /** Stable ID, e.g. OAUTH-STATE-ECHO. */
  id: string;
  level: Level;
  /** Spec area (Allure epic, report group, suite file). */
  area: Area;
  /** The spec section (heading) the rule comes from, or the RFC section. */
  section: string;
  /** Where the rule comes from: the spec, or an RFC clause OAuth 2.0 itself imposes. */
  source: string;
  /** The rule, quoted from the spec or RFC. */
  rule: string;
  /** Set when no test can check this requirement; the reason is reported. */
  untestable?: string;
}

const SPEC = 'Lock Access Service spec';

function r(
  id: string,
  level: Level,
  area: Area,
  section: string,
  rule: string,
  extra: Partial<Pick<Requirement, 'source' | 'untestable'>> = {},
): Requirement {
  return { id, level, area, section, source: extra.source ?? SPEC, rule, ...(extra.untestable ? { untestable: extra.untestable } : {}) };
}

const A = 'OAuth authorization' as const;
const T = 'Token endpoint' as const;
const C = 'Client credentials' as const;
const R = 'Refresh tokens' as const;
const H = 'API headers' as const;
const W = 'Webhook registration' as const;
const D = 'Webhook delivery' as const;
const S = 'Webhook signature' as const;
const E = 'Event payloads' as const;

export const CATALOG: readonly Requirement[] = [
  // ── Authorization code flow ──────────────────────────────────────────────
  r('OAUTH-AUTHZ-REDIRECT', 'MUST', A, 'GET {auth_url}/authorization',
    'The response is an HTTP 302 redirect to redirect_uri.'),
  r('OAUTH-CODE-ON-APPROVAL', 'MUST', A, 'Authorization code flow',
    'The server answers HTTP 302 to redirect_uri. On approval the query carries code and state.'),
  r('OAUTH-STATE-ECHO', 'MUST', A, 'GET {auth_url}/authorization',
    'state: Value chosen by the application; returned unchanged at the end; typically a CSRF guard.'),
  r('OAUTH-DENIAL-ACCESS-DENIED', 'MUST', A, 'Authorization code flow',
    'On cancellation the query carries error=access_denied and state. (Errors: User declines at the authorization step: HTTP 302 to redirect_uri with error=access_denied and the original state.)'),
  r('OAUTH-REDIRECT-URI-REGISTERED', 'MUST', A, 'RFC 6749 §3.1.2.4, §4.1.2.1',
    'If the request fails due to a missing, invalid, or mismatching redirection URI, the authorization server SHOULD inform the resource owner of the error and MUST NOT automatically redirect the user-agent to the invalid redirection URI.',
    { source: 'RFC 6749' }),
  r('OAUTH-UNKNOWN-CLIENT-NO-REDIRECT', 'MUST', A, 'RFC 6749 §4.1.2.1',
    'If the request fails due to a missing, invalid, or mismatching redirection URI, or if the client identifier is missing or invalid, the authorization server ... MUST NOT automatically redirect the user-agent to the invalid redirection URI.',
    { source: 'RFC 6749' }),
  r('OAUTH-MISSING-STATE', 'INFO', A, 'GET {auth_url}/authorization',
    'state is a required query parameter; what the service answers when it is missing: not shown.'),
  r('OAUTH-CODE-EXCHANGE', 'MUST', A, 'Authorization code flow',
    'The application\'s server (holding client_secret) POSTs to {auth_url}/access_token with grant_type=authorization_code, client_id, client_secret and code, and receives the token response.'),
  r('OAUTH-CODE-SINGLE-USE', 'MUST', A, 'RFC 6749 §4.1.2',
    'The client MUST NOT use the authorization code more than once. If an authorization code is used more than once, the authorization server MUST deny the request.',
    { source: 'RFC 6749' }),
  r('OAUTH-CODE-INVALID-REFUSED', 'MUST', A, 'RFC 6749 §5.2',
    'invalid_grant: The provided authorization grant (e.g., authorization code ...) is invalid, expired, revoked ... The authorization server issues no token for it.',
    { source: 'RFC 6749' }),
  r('OAUTH-CODE-EXPIRES', 'MUST', A, 'RFC 6749 §4.1.2',
    'The authorization code MUST expire shortly after it is issued to mitigate the risk of leaks.',
    { source: 'RFC 6749' }),
  r('OAUTH-CODE-LIFETIME', 'SHOULD', A, 'RFC 6749 §4.1.2',
    'The authorization code MUST expire shortly after it is issued to mitigate the risk of leaks. A maximum authorization code lifetime of 10 minutes is RECOMMENDED.',
    { source: 'RFC 6749' }),

  // ── Token endpoint ───────────────────────────────────────────────────────
  r('TOKEN-RESPONSE-JSON', 'MUST', T, 'POST {auth_url}/access_token',
    'Response: JSON token response (see Resources).'),
  r('TOKEN-RESPONSE-SHAPE', 'MUST', T, 'Token response',
    'access_token: string (a JWT); expires_in: integer, seconds until the access token expires; refresh_token: string, single-use token for the refresh grant.'),
  r('TOKEN-ACCESS-TOKEN-JWT', 'MUST', T, 'Token response',
    'access_token | string (a JWT) | Token used in the x-access-token header.'),
  r('TOKEN-JWT-EXP', 'INFO', T, 'Token response',
    'Whether the JWT carries an exp claim, and whether it agrees with expires_in: not shown.'),
  r('TOKEN-TOKEN-TYPE', 'INFO', T, 'RFC 6749 §5.1',
    'token_type is REQUIRED by RFC 6749 §5.1; the spec\'s token response table does not list it.',
    { source: 'RFC 6749' }),
  r('TOKEN-ACCESS-LIFETIME', 'INFO', T, 'Refresh flow',
    'Access token lifetime is given by expires_in; it is currently four months and may change at any time.'),
  r('TOKEN-BASIC-REJECTED', 'MUST', T, 'Errors',
    'Token request carries client credentials in an Authorization: Basic header instead of the body: HTTP 400, message: secrets did not match.'),
  r('TOKEN-BASIC-IGNORED', 'MUST', T, 'POST {auth_url}/access_token',
    'client_id and client_secret must be in the body; a Basic Authorization header is ignored (any values, real or bogus, are ignored) and must not be used to carry them.'),
  r('TOKEN-BODY-SECRET-CHECKED', 'MUST', T, 'POST {auth_url}/access_token',
    'client_secret | always | Client secret. (A token request with a wrong client_secret is refused.)'),
  r('TOKEN-MALFORMED-302-ERROR', 'MUST', T, 'Errors',
    'Token request where parameters are malformed, for example unquoted shell ampersands splitting the request, or the wrong HTTP method: HTTP 302 to /error.'),
  r('TOKEN-GET-METHOD', 'INFO', T, 'POST {auth_url}/access_token',
    'Troubleshooting guidance also describes calling this same address with GET and query parameters, and says using POST can produce a 302 to /error; which method is authoritative is not shown.'),

  // ── Client credentials ───────────────────────────────────────────────────
  r('TOKEN-CC-DISABLED-BY-DEFAULT', 'MUST', C, 'Client credentials flow',
    'Credentials cannot use this grant unless the service operator grants permission. (client_credentials grant without permission: Rejected.)'),
  r('TOKEN-CC-ENABLED-WORKS', 'MUST', C, 'Client credentials flow',
    'POST {auth_url}/access_token with client_id, client_secret and grant_type=client_credentials. The response is the same shape as for authorization code.'),
  r('TOKEN-CC-REJECTION-STATUS', 'INFO', C, 'Errors',
    'client_credentials grant without permission: Rejected (status not described).'),

  // ── Refresh tokens ───────────────────────────────────────────────────────
  r('REFRESH-NEW-PAIR', 'MUST', R, 'Refresh token',
    'issued → refresh_token grant using it → used: A new access token and a new refresh token are returned; the new refresh token replaces it.'),
  r('REFRESH-SINGLE-USE', 'MUST', R, 'Refresh token',
    'used, expired or revoked → any use → unchanged: HTTP 400 with an OAuth2 error body. (Refresh token lifetime: valid for exactly one use.)'),
  r('REFRESH-ERROR-RESPONSE', 'MUST', R, 'Errors',
    'refresh_token expired, already used, or revoked: HTTP 400 with an error message in the body following OAuth 2.0.'),
  r('REFRESH-ERROR-INVALID-GRANT', 'SHOULD', R, 'RFC 6749 §5.2',
    'invalid_grant: The provided authorization grant ... or refresh token is invalid, expired, revoked ...',
    { source: 'RFC 6749' }),
  r('REFRESH-UNKNOWN-REFUSED', 'MUST', R, 'RFC 6749 §5.2',
    'A refresh token the service never issued is refused with HTTP 400 and an OAuth 2.0 error body (invalid_grant).',
    { source: 'RFC 6749' }),
  r('REFRESH-VALID-WITHIN-YEAR', 'MUST', R, 'Refresh token',
    'issued → refresh_token grant using it, used within one year of issue → used: A new access token and a new refresh token are returned.'),
  r('REFRESH-EXPIRED-AFTER-YEAR', 'MUST', R, 'Refresh token',
    'issued → a year passes → expired: A later use yields HTTP 400. (Refresh token lifetime: 1 year from issue.)'),
  r('REFRESH-REVOKED', 'MUST', R, 'Refresh token',
    'issued → revocation → revoked: Token can no longer be redeemed.'),
  r('REFRESH-NEW-ACCESS-TOKEN-WORKS', 'MUST', R, 'Refresh flow',
    'The response is the token response; the returned refresh_token replaces the old one and must be stored. To verify a new token before replacing the old one, make a call such as GET /users/me with it.'),

  // ── API headers and access tokens ────────────────────────────────────────
  r('HEADERS-ROTATION-ON-SUCCESS', 'MUST', H, 'Request headers for API calls',
    'Every successful API response returns an updated x-access-token header.'),
  r('HEADERS-ROTATED-TOKEN-WORKS', 'MUST', H, 'Request headers for API calls',
    'Using the newest one keeps a valid token.'),
  r('HEADERS-ROTATION-EXTENDS', 'MUST', H, 'Access token',
    'Every successful API response carries an updated x-access-token header; each new token extends validity slightly.'),
  r('HEADERS-PREVIOUS-TOKEN-VALID', 'MUST', H, 'Access token',
    'New access tokens do not invalidate previous access tokens.'),
  r('HEADERS-INVALID-TOKEN-401', 'MUST', H, 'Access token',
    'An invalid token yields HTTP 401 and the user must authorize again.'),
  r('HEADERS-EXPIRED-TOKEN-401', 'MUST', H, 'Errors',
    'Invalid access token on an API call: HTTP 401; the user must authorize again. (An access token past its expires_in is invalid.)'),
  r('HEADERS-MISSING-TOKEN-401', 'SHOULD', H, 'Request headers for API calls',
    'x-access-token: <ACCESS_TOKEN> is a request header of every API call; an invalid token yields HTTP 401.'),
  r('HEADERS-TOKEN-LIFETIME-24H', 'MUST', H, 'Request headers for API calls',
    'Updating a stored token at least once every 24 hours is sufficient (access tokens are not issued valid for less than 24 hours).'),
  r('HEADERS-API-KEY', 'INFO', H, 'Request headers for API calls',
    'x-api-key: <API_KEY> of the credential. What the service answers when it is missing or wrong: not shown.'),
  r('HEADERS-RESPONSE-BODIES', 'INFO', H, 'Other endpoints named',
    'Response bodies of GET /users/locks/mine and GET /users/me: not shown.'),

  // ── Webhook registration ─────────────────────────────────────────────────
  r('WEBHOOK-LOCK-REGISTER', 'MUST', W, 'POST {base_url}/webhook/:lockID',
    'Registers a lock webhook. The service sends one HTTP POST per event to the registered URL.'),
  r('WEBHOOK-LOCK-OVERWRITE', 'MUST', W, 'POST {base_url}/webhook/:lockID',
    'One registration per lock per user; calling again for the same user overwrites it.'),
  r('WEBHOOK-LOCK-PER-USER', 'MUST', W, 'Limits',
    'Webhook registrations: One per lock per user. (A second user\'s registration on the same lock does not replace the first user\'s.)'),
  r('WEBHOOK-LOCK-DELETE', 'MUST', W, 'DELETE {base_url}/webhook/:lockID/:clientID',
    'Deletes a lock webhook registration. No body.'),
  r('WEBHOOK-KEYPAD-VIA-LOCK', 'MUST', W, 'POST {base_url}/webhook/:lockID',
    'Registers a lock webhook (also delivers keypad events for a lock with a keypad).'),
  r('WEBHOOK-USER-REGISTER', 'MUST', W, 'POST {base_url}/webhook/user',
    'Registers a user webhook. Same body shape; notificationTypes for users: lockmembership, lifecycle.'),
  r('WEBHOOK-USER-OVERWRITE', 'MUST', W, 'POST {base_url}/webhook/user',
    'One registration per user; calling again overwrites it.'),
  r('WEBHOOK-USER-DELETE', 'MUST', W, 'DELETE {base_url}/webhook/user',
    'Deletes the user webhook registration. No body.'),
  r('WEBHOOK-NOTIFICATION-FILTER', 'SHOULD', W, 'Registration groups (notificationTypes)',
    'notificationTypes | array of string | Event groups wanted (see Events). (A registration receives only events of the groups it asked for.)'),
  r('WEBHOOK-ENDPOINT-RESPONSES', 'INFO', W, 'Other endpoints named',
    'Response bodies and status codes of the four webhook endpoints: not shown. Required and optional status of each webhook registration field and any restriction on the method value: not shown.'),

  // ── Delivery ─────────────────────────────────────────────────────────────
  r('DELIVERY-ONE-POST', 'MUST', D, 'Delivery',
    'The service sends one HTTP POST (JSON body, Content-Type application/json) to the registered url per event. Each event is delivered at most once.'),
  r('DELIVERY-CONTENT-TYPE', 'MUST', D, 'Delivery',
    'one HTTP POST (JSON body, Content-Type application/json)'),
  r('DELIVERY-CUSTOM-HEADER', 'MUST', D, 'Delivery',
    'Headers on each delivery: Content-Type, X-Signature, and the application-chosen header set to the application-chosen token.'),
  r('DELIVERY-SIGNATURE-PRESENT', 'MUST', D, 'Delivery',
    'Headers on each delivery: Content-Type, X-Signature ... every webhook is stated to carry one.'),
  r('DELIVERY-NO-RETRY', 'MUST', D, 'Delivery',
    'A response without an HTTP 2xx status is not retried. (Webhook receiver answers with non-2xx: Event is not retried.)'),
  r('DELIVERY-NO-REDIRECT', 'MUST', D, 'Delivery',
    'Redirections (HTTP 302) are not followed.'),
  r('DELIVERY-STATUS-CHECK-FANOUT', 'MUST', D, 'Other endpoints named',
    '/remoteoperate/status: A status check; calling it triggers a status webhook to all listeners of that lock.'),
  r('DELIVERY-STATUS-CHECK-ENDPOINT', 'INFO', D, 'Other endpoints named',
    'Method, request and response of /remoteoperate/status: not shown.'),

  // ── Signature ────────────────────────────────────────────────────────────
  r('SIGNATURE-FORMAT', 'MUST', S, 'Signature',
    'X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature.'),
  r('SIGNATURE-VALID', 'MUST', S, 'Signature',
    'payload_string is the timestamp as a string, then the character ., then the JSON request body as a string. The expected signature is HMAC with SHA-256 over payload_string, keyed with the API key.'),
  r('SIGNATURE-TIMESTAMP-CURRENT', 'MUST', S, 'Signature',
    'The receiver compares the timestamp to the current time. A valid signature with a timestamp older than the receiver\'s tolerance should be rejected; 5 minutes is the recommended tolerance.'),
  r('SIGNATURE-ENCODING', 'INFO', S, 'Signature',
    'Text encoding of the signature value: not shown.'),

  // ── Event payloads: lock webhooks ────────────────────────────────────────
  r('EVENT-OPERATION-APP', 'MUST', E, 'Lock events',
    'Lock operated by app or API | operation | unlock, lock, unlatch | Device=lock, User object with full fields'),
  r('EVENT-OPERATION-KEYPAD', 'MUST', E, 'Lock events',
    'Lock operated by keypad | operation | unlock, lock, unlatch | Device=keypad, User object'),
  r('EVENT-OPERATION-MANUAL', 'MUST', E, 'Lock events',
    'Lock turned manually | operation | unlock, lock, unlatch | Device=lock, User.UserID=manualunlock (unlock and unlatch) or manuallock (lock), timeStamp, Timestamp, EventID'),
  r('EVENT-DOOR-STATE', 'MUST', E, 'Lock events',
    'Door state | operation | closed, open, ajar | Device=lock, User.UserID=DoorStateChanged'),
  r('EVENT-STATUS-CHECK', 'MUST', E, 'Lock events',
    'Status check result | status | unlock, lock, unlatch (state now) | Device=lock, User object. Sent to all listeners of the lock whenever a status check is made.'),
  r('EVENT-LOCK-NAME-CHANGED', 'MUST', E, 'Lock events',
    'Lock name changed | configuration | lock_name_changed | Lock.Name, User object'),
  r('EVENT-LOCK-BATTERY', 'MUST', E, 'Lock events',
    'Lock battery warning | system | lock_battery_alert | warningLevel (see States), userID (string, lower-case name)'),
  r('EVENT-LOCK-CLOCK-DRIFT', 'MUST', E, 'Lock events',
    'Lock clock wrong | systemstatus | lock_log_timestamp_drifted | warningLevel, Timestamp (time the webhook was sent), TimestampDrifted (lock-reported time, in the future or too far in the past)'),
  r('EVENT-KEYPAD-PIN-MANAGED', 'MUST', E, 'Lock events',
    'Keypad PIN managed (app-managed PINs) | configuration | keypad_pin_managed | Lock.Name, Pin {state, action}, PinUser (the PIN\'s assignee), User (the owner who added it). Pin.state is load, disable, enable or delete.'),
  r('EVENT-MASTER-PIN', 'MUST', E, 'Lock events',
    'Master PIN changed | configuration | keypad_pin_managed | Pin is an empty object; User and PinUser carry UserID=masterpin, FirstName=Master, LastName=PIN, PhoneNo=n/a, Email=n/a, imageInfo=n/a; timeStamp, Timestamp, EventID'),
  r('EVENT-KEYPAD-BATTERY', 'MUST', E, 'Lock events',
    'Keypad battery | battery | keypad_battery_none, keypad_battery_warning, keypad_battery_critical | DeviceType=keypad, DeviceSerialNumber (string)'),
  r('EVENT-BRIDGE', 'MUST', E, 'Lock events',
    'Bridge went online/offline | systemstatus | online, offline | LockID is an array of lock identifiers'),
  r('EVENT-LOCK-USER-ADD', 'MUST', E, 'Lock events',
    'User added to lock | authorization | lock_user_add | Lock.Name, User object'),
  r('EVENT-LOCK-USER-REMOVE', 'MUST', E, 'Lock events',
    'User removed from lock | authorization | lock_user_remove | Lock.Name, User object'),
  r('EVENT-LOCK-USERTYPE-CHANGED', 'MUST', E, 'Lock events',
    'Access level changed | authorization | lock_usertype_changed | Lock.Name, User object including UserType (user = guest, superuser = owner), timeStamp, EventID, Timestamp'),
  r('EVENT-LOCK-ACCESSTYPE-CHANGED', 'MUST', E, 'Lock events',
    'Access schedule changed | authorization | lock_accesstype_changed | Lock.Name, User object including AccessType, timeStamp, EventID, Timestamp'),
  r('EVENT-OPERATION-TYPE', 'INFO', E, 'Registration groups (notificationTypes)',
    'The exact mapping from registration groups to EventType values, the payload of operation.type events, and the payload of lifecycle events: not shown.'),
  r('EVENT-TIMESTAMP-UNITS', 'INFO', E, 'Webhook payload fields (common)',
    'Timestamp | integer (epoch milliseconds in samples). The unit is shown only in samples.'),
  r('EVENT-BRIDGE-OFFLINE-DELAY', 'INFO', E, 'Lock events',
    'The bridge offline event is sent after about 5 minutes without contact; the online event is sent as soon as the bridge is seen online.',
    { untestable: 'Neither the spec nor the control protocol offers a way to cut a bridge off; the control protocol emits the bridge event directly, so the detection delay cannot be observed.' }),

  // ── Event payloads: user webhooks ────────────────────────────────────────
  r('EVENT-USER-LOCK-USER-ADD', 'MUST', E, 'User events',
    'All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp. lock_user_add: no extra field.'),
  r('EVENT-USER-LOCK-USER-REMOVE', 'MUST', E, 'User events',
    'All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp. lock_user_remove: no extra field.'),
  r('EVENT-USER-USERTYPE-CHANGED', 'MUST', E, 'User events',
    'All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp. lock_usertype_changed: UserType: user (guest) or superuser (owner).'),
  r('EVENT-USER-ACCESSTYPE-CHANGED', 'MUST', E, 'User events',
    'All carry EventType=authorization, UserID (string UUID), LockID, EventID, timeStamp and Timestamp. lock_accesstype_changed: AccessType: rule_access_always, rule_access_temporary, rule_access_recurring.'),
  r('EVENT-LIFECYCLE', 'INFO', E, 'Registration groups (notificationTypes)',
    'lifecycle (user): The user deleted their account. The payload of lifecycle events: not shown.'),
];

const BY_ID = new Map(CATALOG.map((req) => [req.id, req]));

/** The requirement with this ID; throws on an unknown ID so a typo fails loudly. */
export function requirement(id: string): Requirement {
  const req = BY_ID.get(id);
  if (!req) throw new Error(`unknown requirement ID: ${id}`);
  return req;
}

export function isRequirementId(id: string): boolean {
  return BY_ID.has(id);
}

/** The areas in report order. */
export const AREAS: readonly Area[] = [A, T, C, R, H, W, D, S, E];
