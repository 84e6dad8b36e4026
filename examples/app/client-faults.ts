/**
 * Named faults of the example OAuth client: each breaks one rule of the spec the
 * way real applications do, so lockconf's client grading can be shown to catch it
 * (test/client/). The example is correct with none switched on.
 */
export const CLIENT_FAULTS = {
  'no-state': { requirement: 'CLIENT-AUTHZ-REQUEST', description: 'sends the user to authorization without a state' },
  'ignores-state': { requirement: 'CLIENT-STATE-CHECKED', description: 'accepts a redirect back whatever its state' },
  'exchanges-after-denial': { requirement: 'CLIENT-CODE-FROM-REDIRECT', description: 'calls the token endpoint even when the user cancelled' },
  'reuses-code': { requirement: 'CLIENT-CODE-ONCE', description: 'exchanges the code twice (a retried callback)' },
  'token-request-as-json': { requirement: 'CLIENT-TOKEN-FORM-POST', description: 'sends token requests as JSON instead of a form' },
  'secret-in-basic-only': { requirement: 'CLIENT-TOKEN-BODY-FIELDS', description: 'sends client_id and client_secret in a Basic header instead of the body' },
  'secret-in-basic': { requirement: 'CLIENT-TOKEN-NO-BASIC', description: 'adds a Basic header carrying the credentials (the body has them too)' },
  'secret-in-url': { requirement: 'CLIENT-SECRET-ONLY-IN-FORM', description: 'also puts client_secret in the token endpoint\'s query string' },
  'reuses-refresh-token': { requirement: 'CLIENT-REFRESH-SINGLE-USE', description: 'keeps the first refresh token and presents it on every refresh' },
  'refreshes-with-access-token': { requirement: 'CLIENT-REFRESH-STORE-NEW', description: 'stores the access token where the refresh token belongs' },
  'retries-refused-refresh': { requirement: 'CLIENT-REFRESH-NO-RETRY', description: 'retries a refresh the service refused with 400' },
  'no-api-key': { requirement: 'CLIENT-API-KEY-HEADER', description: 'calls the API without x-api-key' },
  'no-access-token': { requirement: 'CLIENT-API-ACCESS-TOKEN-HEADER', description: 'calls the API without x-access-token' },
  'no-content-type': { requirement: 'CLIENT-API-CONTENT-TYPE', description: 'calls the API without content-type: application/json' },
  'url-encodes-headers': { requirement: 'CLIENT-API-HEADERS-NOT-ENCODED', description: 'URL-encodes the x-api-key header value' },
  'keeps-old-access-token': { requirement: 'CLIENT-ADOPT-NEW-ACCESS-TOKEN', description: 'ignores the x-access-token of answers and keeps the first token' },
  'stays-on-401': { requirement: 'CLIENT-REAUTHORIZE-ON-401', description: 'keeps the refused token after a 401 and shows an error instead of authorizing again' },
  'webhook-other-client-id': { requirement: 'CLIENT-WEBHOOK-CLIENT-ID', description: 'registers webhooks with another clientID' },
  'webhook-user-group-on-lock': { requirement: 'CLIENT-WEBHOOK-GROUPS', description: 'asks for a user group (lifecycle) on a lock registration' },
  'delete-with-body': { requirement: 'CLIENT-DELETE-NO-BODY', description: 'sends a JSON body with the DELETE of a registration' },
} as const satisfies Record<string, { requirement: string; description: string }>;

export type ClientFault = keyof typeof CLIENT_FAULTS;

export function isClientFault(name: string): name is ClientFault {
  return Object.hasOwn(CLIENT_FAULTS, name);
}
