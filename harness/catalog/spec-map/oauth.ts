/**
 * Coverage of the spec's OAuth, token, refresh, API-header, error and versioning
 * statements: anchor (spec-statements.ts) → the requirements that test it, or why
 * nothing can.
 */
import type { SpecMapPart } from './types.js';

export const OAUTH_SPEC_MAP: SpecMapPart = {
  // # Lock Access Service: OAuth, Token Refresh and Webhooks
  'lock-access-service-oauth-token-refresh-and-webhooks/para-1': { notTestable: 'The document\'s scope and the names {auth_url} and {base_url}: no rule of behaviour. The target profile gives both addresses.' },

  // ## What the service does
  'what-the-service-does/item-1': {
    requirements: ['OAUTH-SIGN-IN-STEP', 'OAUTH-CODE-ON-APPROVAL', 'OAUTH-CODE-EXCHANGE'],
    note: 'An overview: users authorize through OAuth 2.0, tested where Authentication states the flow. That the service never creates user accounts cannot be seen from outside.',
  },
  'what-the-service-does/item-2': {
    requirements: ['TOKEN-BODY-SECRET-CHECKED', 'HEADERS-API-KEY'],
    note: 'How the credentials are obtained is outside the interface; their use is tested through the token endpoint and the API headers.',
  },
  'what-the-service-does/item-3': {
    requirements: ['OAUTH-CODE-EXCHANGE', 'TOKEN-CC-DISABLED-BY-DEFAULT', 'TOKEN-CC-ENABLED-WORKS', 'TOKEN-CC-TOKEN-WORKS', 'TOKEN-CC-PER-CREDENTIAL', 'OAUTH-CODE-OTHER-CLIENT'],
  },
  'what-the-service-does/item-4': { requirements: ['REFRESH-NEW-PAIR', 'REFRESH-NEW-ACCESS-TOKEN', 'REFRESH-SINGLE-USE'] },
  'what-the-service-does/item-5': { requirements: ['HEADERS-MISSING-TOKEN-401', 'HEADERS-API-KEY'] },
  'what-the-service-does/item-6': {
    requirements: ['WEBHOOK-LOCK-REGISTER', 'WEBHOOK-USER-REGISTER', 'WEBHOOK-LOCK-DELETE', 'WEBHOOK-USER-DELETE', 'DELIVERY-ONE-POST'],
    note: 'An overview of the webhook system, tested in detail where Endpoints and Events state it.',
  },

  // ### API credentials
  'api-credentials/row-1': { requirements: ['OAUTH-UNKNOWN-CLIENT-NO-REDIRECT', 'TOKEN-CLIENT-ID-CHECKED', 'OAUTH-CODE-EXCHANGE'] },
  'api-credentials/row-2': { requirements: ['TOKEN-BODY-SECRET-CHECKED', 'TOKEN-BASIC-REJECTED', 'TOKEN-BASIC-IGNORED'] },
  'api-credentials/row-3': {
    requirements: ['HEADERS-API-KEY', 'SIGNATURE-VALID'],
    note: 'The x-api-key header is sent on every API call of the suite; what a missing or wrong key gets is not shown (INFO).',
  },
  'api-credentials/row-4': {
    requirements: ['OAUTH-REDIRECT-URI-REGISTERED', 'OAUTH-AUTHZ-REDIRECT'],
    note: 'That the redirect_uri is TLS-protected and controlled by the application binds the application, not the service.',
  },
  'api-credentials/para-1': { notTestable: 'The credential registration form is not part of the interface: not shown.' },

  // ### Token response
  'token-response/row-1': { requirements: ['TOKEN-RESPONSE-SHAPE', 'TOKEN-ACCESS-TOKEN-JWT', 'TOKEN-JWT-EXP', 'HEADERS-ROTATED-TOKEN-JWT'] },
  'token-response/row-2': { requirements: ['TOKEN-RESPONSE-SHAPE', 'TOKEN-ACCESS-LIFETIME', 'HEADERS-EXPIRED-TOKEN-401'] },
  'token-response/row-3': { requirements: ['TOKEN-RESPONSE-SHAPE', 'REFRESH-SINGLE-USE', 'TOKEN-CC-REFRESH-WORKS'] },

  // ### Refresh token (states)
  'refresh-token/row-1': { requirements: ['REFRESH-NEW-PAIR', 'REFRESH-NEW-ACCESS-TOKEN', 'REFRESH-VALID-WITHIN-YEAR'] },
  'refresh-token/row-2': { requirements: ['REFRESH-EXPIRED-AFTER-YEAR'] },
  'refresh-token/row-3': { requirements: ['REFRESH-REVOKED'] },
  'refresh-token/row-4': { requirements: ['REFRESH-SINGLE-USE', 'REFRESH-ERROR-RESPONSE', 'REFRESH-UNKNOWN-REFUSED'] },
  'refresh-token/para-1': { notTestable: 'The revoking operation is not described: nothing to call. Revocation itself is tested through the control protocol (REFRESH-REVOKED).' },

  // ### Access token
  'access-token/para-1': {
    requirements: ['HEADERS-PREVIOUS-TOKEN-VALID', 'HEADERS-ROTATION-ON-SUCCESS', 'HEADERS-ROTATION-EXTENDS', 'HEADERS-INVALID-TOKEN-401'],
  },

  // ## Endpoints
  'endpoints/para-1': { notTestable: 'Names the two base addresses; the target profile gives them (authUrl, baseUrl).' },

  // ### GET {auth_url}/authorization
  'get-auth-url-authorization/para-1': { requirements: ['OAUTH-SIGN-IN-STEP'] },
  'get-auth-url-authorization/row-1': { requirements: ['OAUTH-UNKNOWN-CLIENT-NO-REDIRECT'] },
  'get-auth-url-authorization/row-2': { requirements: ['OAUTH-REDIRECT-URI-REGISTERED'] },
  'get-auth-url-authorization/row-3': { requirements: ['OAUTH-STATE-ECHO', 'OAUTH-MISSING-STATE'] },
  'get-auth-url-authorization/para-2': {
    requirements: ['OAUTH-AUTHZ-REDIRECT', 'OAUTH-STATE-ECHO'],
    note: '"All values must be URL-encoded" binds the application; the suite sends them encoded, and a state full of reserved characters must come back unchanged.',
  },

  // ### POST {auth_url}/access_token
  'post-auth-url-access-token/para-1': {
    requirements: ['OAUTH-CODE-EXCHANGE', 'TOKEN-MALFORMED-302-ERROR', 'TOKEN-BODY-URL-DECODED'],
    note: 'Binds the application\'s request: every token request of the suite is form-encoded; a request cut short by an unquoted & is malformed. Binds the service too: it decodes the URL-encoded values.',
  },
  'post-auth-url-access-token/row-1': { requirements: ['TOKEN-CLIENT-ID-CHECKED', 'TOKEN-MALFORMED-302-ERROR', 'TOKEN-BASIC-REJECTED'] },
  'post-auth-url-access-token/row-2': { requirements: ['TOKEN-BODY-SECRET-CHECKED'] },
  'post-auth-url-access-token/row-3': { requirements: ['OAUTH-CODE-EXCHANGE', 'TOKEN-CC-ENABLED-WORKS', 'REFRESH-NEW-PAIR'] },
  'post-auth-url-access-token/row-4': {
    requirements: ['OAUTH-CODE-EXCHANGE', 'OAUTH-CODE-INVALID-REFUSED', 'OAUTH-CODE-SINGLE-USE', 'OAUTH-CODE-REPLAY-REVOKES', 'OAUTH-CODE-EXPIRES', 'OAUTH-CODE-LIFETIME', 'OAUTH-CODE-OTHER-CLIENT', 'TOKEN-REQUIRED-PARAMETER'],
    note: 'How often and how long a code may be exchanged, and what a replayed code does to its tokens, is not in the spec: taken from RFC 6749 (SHOULD). "Required when grant_type=authorization_code": a code grant without code yields no token.',
  },
  'post-auth-url-access-token/row-5': {
    requirements: ['REFRESH-NEW-PAIR', 'REFRESH-UNKNOWN-REFUSED', 'REFRESH-UNKNOWN-ERROR-ANSWER', 'REFRESH-OTHER-CLIENT', 'TOKEN-REQUIRED-PARAMETER'],
    note: '"Required when grant_type=refresh_token": a refresh grant without refresh_token yields no token. A "Current refresh token" the service never issued yields none either (MUST); how it is refused is not in the spec: RFC 6749 §5.2\'s 400 with an error body (SHOULD).',
  },
  'post-auth-url-access-token/para-2': {
    requirements: ['TOKEN-RESPONSE-JSON', 'TOKEN-BASIC-IGNORED', 'TOKEN-BASIC-REJECTED', 'TOKEN-TOKEN-TYPE', 'TOKEN-NO-STORE'],
    note: 'token_type, which RFC 6749 lists and the spec\'s token response does not, is observed (INFO). That the token response is not cached is taken from RFC 6749 §5.1 (SHOULD).',
  },
  'post-auth-url-access-token/para-3': { requirements: ['TOKEN-GET-METHOD'] },

  // ### Other endpoints named
  'other-endpoints-named/row-1': { requirements: ['HEADERS-ROTATION-ON-SUCCESS', 'HEADERS-RESPONSE-BODIES'] },
  'other-endpoints-named/row-2': { requirements: ['REFRESH-NEW-ACCESS-TOKEN-WORKS', 'HEADERS-RESPONSE-BODIES'] },
  'other-endpoints-named/row-3': { requirements: ['DELIVERY-STATUS-CHECK-FANOUT', 'DELIVERY-STATUS-CHECK-ENDPOINT', 'HEADERS-ROTATION-ON-SUCCESS'] },
  'other-endpoints-named/para-1': { requirements: ['WEBHOOK-ENDPOINT-RESPONSES', 'HEADERS-RESPONSE-BODIES', 'DELIVERY-STATUS-CHECK-ENDPOINT'] },

  // ### Request headers for API calls
  'request-headers-for-api-calls/row-1': { requirements: ['HEADERS-API-KEY'] },
  'request-headers-for-api-calls/row-2': { requirements: ['HEADERS-MISSING-TOKEN-401', 'HEADERS-INVALID-TOKEN-401'] },
  'request-headers-for-api-calls/row-3': { notTestable: 'Binds the application\'s requests: every API call of the suite sends content-type application/json; what the service does with another content type is not shown.' },
  'request-headers-for-api-calls/para-1': {
    requirements: ['HEADERS-ROTATION-ON-SUCCESS', 'HEADERS-ROTATED-TOKEN-WORKS', 'HEADERS-ROTATED-TOKEN-JWT', 'HEADERS-NEWEST-KEEPS-ACCESS', 'HEADERS-TOKEN-LIFETIME-24H', 'HEADERS-INVALID-TOKEN-401'],
    note: '"Parameters in headers are not URL-encoded" and "A stored token should carry its receipt date" bind the application.',
  },

  // ### Authorization code flow
  'authorization-code-flow/item-1': { requirements: ['OAUTH-SIGN-IN-STEP', 'OAUTH-AUTHZ-REDIRECT'] },
  'authorization-code-flow/item-2': {
    requirements: ['OAUTH-SIGN-IN-STEP', 'OAUTH-SIGN-IN-SCREENS', 'OAUTH-SIGN-IN-WRONG-PASSWORD', 'OAUTH-SIGN-IN-WRONG-SMS', 'OAUTH-SIGN-IN-SMS-NOT-SKIPPED', 'OAUTH-CONSENT-SHOWS-REQUEST'],
    note: 'The sign-in suite drives the screens with Chromium (the test account and SMS codes from the profile\'s login section or the control extension GET /sign-in/account and /sign-in/sms); without Chromium or a way to sign in those rules are not tested, and POST /consent stands in for the screens in every other test. That the application does nothing in this step binds the application.',
  },
  'authorization-code-flow/item-3': {
    requirements: ['OAUTH-AUTHZ-REDIRECT', 'OAUTH-CODE-ON-APPROVAL', 'OAUTH-DENIAL-ACCESS-DENIED', 'OAUTH-STATE-ECHO'],
    note: 'That the application checks state binds the application.',
  },
  'authorization-code-flow/item-4': { requirements: ['OAUTH-CODE-EXCHANGE', 'OAUTH-CODE-OTHER-CLIENT'] },

  // ### Client credentials flow
  'client-credentials-flow/para-1': {
    requirements: ['TOKEN-CC-ENABLED-WORKS', 'TOKEN-CC-TOKEN-WORKS', 'TOKEN-CC-REFRESH-WORKS', 'TOKEN-CC-DISABLED-BY-DEFAULT', 'TOKEN-CC-PER-CREDENTIAL'],
  },

  // ### Refresh flow
  'refresh-flow/para-1': { requirements: ['REFRESH-NEW-PAIR', 'REFRESH-NEW-ACCESS-TOKEN-WORKS', 'REFRESH-OTHER-CLIENT'] },
  'refresh-flow/para-2': { requirements: ['TOKEN-ACCESS-LIFETIME', 'TOKEN-ACCESS-LIFETIME-HONOURED', 'HEADERS-EXPIRED-TOKEN-401'] },
  'refresh-flow/para-3': { notTestable: 'Scopes and permission names are not shown: nothing to send or observe.' },

  // ## Errors
  'errors/row-1': { requirements: ['TOKEN-BASIC-REJECTED'] },
  'errors/row-2': { requirements: ['REFRESH-ERROR-RESPONSE', 'REFRESH-ERROR-INVALID-GRANT', 'REFRESH-SINGLE-USE', 'REFRESH-EXPIRED-AFTER-YEAR', 'REFRESH-REVOKED'] },
  'errors/row-3': { requirements: ['HEADERS-INVALID-TOKEN-401', 'HEADERS-EXPIRED-TOKEN-401'] },
  'errors/row-4': { requirements: ['OAUTH-DENIAL-ACCESS-DENIED'] },
  'errors/row-5': {
    requirements: ['TOKEN-MALFORMED-302-ERROR', 'TOKEN-MISSING-PARAMETER-ANSWER'],
    note: 'What the row names (a request split by an unquoted &, the wrong method) is MUST; a request lacking only its grant\'s code or refresh_token is not named: a 302 to /error or RFC 6749\'s 400 invalid_request (SHOULD, freedom MISSING-PARAMETER-REFUSAL).',
  },
  'errors/row-6': { requirements: ['TOKEN-CC-DISABLED-BY-DEFAULT', 'TOKEN-CC-REJECTION-STATUS'] },
  'errors/row-7': { requirements: ['DELIVERY-NO-RETRY'] },
  'errors/para-1': { requirements: ['WEBHOOK-ENDPOINT-RESPONSES', 'HEADERS-API-KEY', 'TOKEN-CC-REJECTION-STATUS'] },

  // ## Versioning
  'versioning/para-1': { notTestable: 'Version scheme, version headers and deprecation policy are not shown: nothing to send or observe.' },
};
