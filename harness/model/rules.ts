/**
 * The rules the executable model of the spec (harness/model/) judges by: each one
 * names its requirement (harness/catalog) and quotes the sentence of the spec it
 * rests on, so a wrong answer found by exploration is reported as that requirement.
 * A reviewer holds each entry against docs/spec/lock-access-service.md.
 */

export interface ModelRule {
  /** A requirement ID of harness/catalog. */
  id: string;
  /** The spec's own words (or the RFC's, where the catalog entry cites it). */
  sentence: string;
}

export const RULES = {
  codeOnApproval: { id: 'OAUTH-CODE-ON-APPROVAL', sentence: 'The server answers HTTP 302 to redirect_uri. On approval the query carries code and state.' },
  codeExchange: { id: 'OAUTH-CODE-EXCHANGE', sentence: "The application's server (holding client_secret) POSTs to {auth_url}/access_token with grant_type=authorization_code, client_id, client_secret and code, and receives the token response." },
  codeOtherClient: { id: 'OAUTH-CODE-OTHER-CLIENT', sentence: 'The authorization server MUST: … ensure that the authorization code was issued to the authenticated confidential client (RFC 6749 §4.1.3)' },
  tokenShape: { id: 'TOKEN-RESPONSE-SHAPE', sentence: 'access_token | string (a JWT) … expires_in | integer | Seconds until the access token expires. … refresh_token | string | Single-use token for the refresh grant.' },
  ccWithoutPermission: { id: 'TOKEN-CC-DISABLED-BY-DEFAULT', sentence: 'Credentials cannot use this grant unless the service operator grants permission. … client_credentials grant without permission | Rejected (status not described).' },
  ccPermitted: { id: 'TOKEN-CC-ENABLED-WORKS', sentence: 'POST {auth_url}/access_token with client_id, client_secret and grant_type=client_credentials. The response is the same shape as for authorization code.' },
  ccPerCredential: { id: 'TOKEN-CC-PER-CREDENTIAL', sentence: 'client_credentials (token for an account owned by the application; disabled by default and enabled per credential on request)' },
  ccTokenWorks: { id: 'TOKEN-CC-TOKEN-WORKS', sentence: 'access_token | string (a JWT) | Token used in the x-access-token header.' },
  ccRefreshWorks: { id: 'TOKEN-CC-REFRESH-WORKS', sentence: 'refresh_token | string | Single-use token for the refresh grant. … The response is the same shape as for authorization code.' },
  refreshNewPair: { id: 'REFRESH-NEW-PAIR', sentence: 'issued | refresh_token grant using it | used within one year of issue | used | A new access token and a new refresh token are returned; the new refresh token replaces it.' },
  refreshWithinYear: { id: 'REFRESH-VALID-WITHIN-YEAR', sentence: 'issued | refresh_token grant using it | used within one year of issue | used' },
  refreshSingleUse: { id: 'REFRESH-SINGLE-USE', sentence: 'used, expired or revoked | any use | none | unchanged | HTTP 400 with an OAuth2 error body. … valid for exactly one use.' },
  refreshExpired: { id: 'REFRESH-EXPIRED-AFTER-YEAR', sentence: 'issued | a year passes | none | expired | A later use yields HTTP 400. … 1 year from issue' },
  refreshRevoked: { id: 'REFRESH-REVOKED', sentence: 'issued | revocation | token revoked | revoked | Token can no longer be redeemed.' },
  refreshErrorBody: { id: 'REFRESH-ERROR-RESPONSE', sentence: 'refresh_token expired, already used, or revoked | HTTP 400 with an error message in the body following OAuth 2.0.' },
  refreshUnknown: { id: 'REFRESH-UNKNOWN-REFUSED', sentence: 'invalid_grant The provided authorization grant … or refresh token is invalid (RFC 6749 §5.2)' },
  refreshOtherClient: { id: 'REFRESH-OTHER-CLIENT', sentence: 'ensure that the refresh token was issued to the authenticated client (RFC 6749 §6)' },
  refreshAccessWorks: { id: 'REFRESH-NEW-ACCESS-TOKEN-WORKS', sentence: 'The response is the token response; the returned refresh_token replaces the old one and must be stored. To verify a new token before replacing the old one, make a call such as GET /users/me with it.' },
  rotationOnSuccess: { id: 'HEADERS-ROTATION-ON-SUCCESS', sentence: 'Every successful API response returns an updated x-access-token header.' },
  rotatedWorks: { id: 'HEADERS-ROTATED-TOKEN-WORKS', sentence: 'Using the newest one keeps a valid token' },
  rotationExtends: { id: 'HEADERS-ROTATION-EXTENDS', sentence: 'Every successful API response carries an updated x-access-token header; each new token extends validity slightly.' },
  previousValid: { id: 'HEADERS-PREVIOUS-TOKEN-VALID', sentence: 'New access tokens do not invalidate previous access tokens.' },
  lifetime24h: { id: 'HEADERS-TOKEN-LIFETIME-24H', sentence: 'updating a stored token at least once every 24 hours is sufficient (access tokens are not issued valid for less than 24 hours).' },
  invalid401: { id: 'HEADERS-INVALID-TOKEN-401', sentence: 'An invalid token yields HTTP 401 and the user must authorize again.' },
  expired401: { id: 'HEADERS-EXPIRED-TOKEN-401', sentence: 'Invalid access token on an API call | HTTP 401; the user must authorize again.' },

  // ── Webhooks (harness/model/webhooks.ts) ──
  lockRegister: { id: 'WEBHOOK-LOCK-REGISTER', sentence: 'The service sends one HTTP POST per event to the registered URL. … Registers a lock webhook' },
  lockOverwrite: { id: 'WEBHOOK-LOCK-OVERWRITE', sentence: 'One registration per lock per user; calling again for the same user overwrites it.' },
  lockPerUser: { id: 'WEBHOOK-LOCK-PER-USER', sentence: 'Webhook registrations | One per lock per user' },
  lockPerLock: { id: 'WEBHOOK-LOCK-PER-LOCK', sentence: 'Webhook registrations | One per lock per user' },
  lockDelete: { id: 'WEBHOOK-LOCK-DELETE', sentence: 'Deletes a lock webhook registration. No body.' },
  keypadViaLock: { id: 'WEBHOOK-KEYPAD-VIA-LOCK', sentence: 'Registers a lock webhook (also delivers keypad events for a lock with a keypad).' },
  userRegister: { id: 'WEBHOOK-USER-REGISTER', sentence: 'Registers a user webhook. Same body shape; notificationTypes for users: lockmembership, lifecycle.' },
  userOverwrite: { id: 'WEBHOOK-USER-OVERWRITE', sentence: 'One registration per user; calling again overwrites it.' },
  userDelete: { id: 'WEBHOOK-USER-DELETE', sentence: 'Deletes the user webhook registration. No body.' },
  groupOperation: { id: 'WEBHOOK-GROUP-OPERATION', sentence: 'operation | Lock locked, unlocked, unlatched, or status checked by anyone; door opened or closed on locks with a door sensor.' },
  groupOperationType: { id: 'WEBHOOK-GROUP-OPERATION-TYPE', sentence: 'operation.type | Lock locked or unlocked by Bluetooth (including a linked lock) and by PIN, fingerprint, RFID and the like.' },
  groupConfiguration: { id: 'WEBHOOK-GROUP-CONFIGURATION', sentence: 'configuration | Lock name changed; keypad PIN managed (created, updated or deleted).' },
  groupBattery: { id: 'WEBHOOK-GROUP-BATTERY', sentence: 'battery | Batteries low in the lock or its keypad.' },
  groupAccessmgmt: { id: 'WEBHOOK-GROUP-ACCESSMGMT', sentence: 'accessmgmt | User added to or removed from a lock; user access level changed; user access schedule changed.' },
  groupLockmembership: { id: 'WEBHOOK-GROUP-LOCKMEMBERSHIP', sentence: 'lockmembership (user) | User added to or removed from a lock.' },
  groupLifecycle: { id: 'WEBHOOK-GROUP-LIFECYCLE', sentence: 'lifecycle (user) | The user deleted their account.' },
  statusFanout: { id: 'DELIVERY-STATUS-CHECK-FANOUT', sentence: '/remoteoperate/status | A status check; calling it triggers a status webhook to all listeners of that lock.' },
  onePost: { id: 'DELIVERY-ONE-POST', sentence: 'The service sends one HTTP POST (JSON body, Content-Type application/json) to the registered url per event. … Each event is delivered at most once.' },
  customHeader: { id: 'DELIVERY-CUSTOM-HEADER', sentence: 'Headers on each delivery: Content-Type, X-Signature, and the application-chosen header set to the application-chosen token.' },
  signaturePresent: { id: 'DELIVERY-SIGNATURE-PRESENT', sentence: 'Headers on each delivery: Content-Type, X-Signature … (The examples for the lock battery warning and the lock clock events omit X-Signature, though every webhook is stated to carry one.)' },
  signatureValid: { id: 'SIGNATURE-VALID', sentence: 'The expected signature is HMAC with SHA-256 over payload_string, keyed with the API key.' },
} as const satisfies Record<string, ModelRule>;

export type RuleName = keyof typeof RULES;
