/**
 * Faults of the example OAuth client, for lockconf's own tests (test/client/):
 * each breaks one rule of the spec the way real applications do, so lockconf's
 * client grading can be shown to catch it. The example is correct with none on.
 *
 * - Named faults (CLIENT_FAULTS): one realistic mistake each.
 * - Slice faults `ID@dim=value` (CLIENT_SLICE_BREAKS): one break point per
 *   requirement, generic over the values of its dimensions (the slices lockconf's
 *   catalog declares: harness/catalog/slices/client.ts). `ID@endpoint=GET /users/me`
 *   breaks that rule on that endpoint only; test/client/ generates one per declared slice.
 */
export const CLIENT_FAULTS = {
  'no-state': { requirement: 'CLIENT-AUTHZ-REQUEST', description: 'sends the user to authorization without a state' },
  'redirect-uri-extra-query': { requirement: 'CLIENT-AUTHZ-REDIRECT-URI', description: 'adds a query parameter to the registered redirect_uri' },
  'raw-redirect-uri': { requirement: 'CLIENT-AUTHZ-URL-ENCODED', description: 'builds the authorization URL by pasting the redirect_uri in, not URL-encoded' },
  'ignores-state': { requirement: 'CLIENT-STATE-CHECKED', description: 'accepts a redirect back whatever its state' },
  'cancellation-unchecked': { requirement: 'CLIENT-CANCELLATION-STATE-CHECKED', description: 'takes every cancellation for its own and gives up the sign-in in progress, whatever its state' },
  'reuses-state': { requirement: 'CLIENT-STATE-ONE-USE', description: 'keeps the state of a completed sign-in and accepts it again' },
  'exchanges-after-denial': { requirement: 'CLIENT-CODE-FROM-REDIRECT', description: 'calls the token endpoint even when the user cancelled' },
  'reuses-code': { requirement: 'CLIENT-CODE-ONCE', description: 'exchanges the code twice (a retried callback)' },
  'token-request-as-json': { requirement: 'CLIENT-TOKEN-FORM-POST', description: 'sends token requests as JSON instead of a form' },
  'secret-in-basic-only': { requirement: 'CLIENT-TOKEN-BODY-FIELDS', description: 'sends client_id and client_secret in a Basic header instead of the body' },
  'repeats-client-id': { requirement: 'CLIENT-TOKEN-FIELD-ONCE', description: 'puts client_id in the form body twice (once from its settings, once more from the request\'s fields)' },
  'secret-in-basic': { requirement: 'CLIENT-TOKEN-NO-BASIC', description: 'adds a Basic header carrying the credentials (the body has them too)' },
  'secret-in-url': { requirement: 'CLIENT-SECRET-ONLY-IN-FORM', description: 'also puts client_secret in the token endpoint\'s query string' },
  'reuses-refresh-token': { requirement: 'CLIENT-REFRESH-SINGLE-USE', description: 'keeps the first refresh token and presents it on every refresh' },
  'stores-refresh-token-once': { requirement: 'CLIENT-REFRESH-STORE-NEW', description: 'stores the new refresh token on the first refresh only; later links present an old one' },
  'refreshes-with-access-token': { requirement: 'CLIENT-REFRESH-STORE-NEW', description: 'stores the access token where the refresh token belongs' },
  'refresh-not-serialized': { requirement: 'CLIENT-REFRESH-IN-FLIGHT', description: 'starts a second refresh while one is in flight (a double click), presenting the same refresh token twice' },
  'retries-refused-refresh': { requirement: 'CLIENT-REFRESH-NO-RETRY', description: 'retries a refresh the service refused with 400' },
  'no-api-key': { requirement: 'CLIENT-API-KEY-HEADER', description: 'calls the API without x-api-key' },
  'no-access-token': { requirement: 'CLIENT-API-ACCESS-TOKEN-HEADER', description: 'calls the API without x-access-token' },
  'refresh-token-as-access-token': { requirement: 'CLIENT-API-ACCESS-TOKEN-HEADER', description: 'sends the refresh token as x-access-token' },
  'refreshes-without-token': { requirement: 'CLIENT-TOKEN-BODY-FIELDS', description: 'leaves refresh_token out of the refresh request (its grant requires it)' },
  'no-content-type': { requirement: 'CLIENT-API-CONTENT-TYPE', description: 'calls the API without content-type: application/json' },
  'url-encodes-headers': { requirement: 'CLIENT-API-HEADERS-NOT-ENCODED', description: 'URL-encodes the x-api-key header value' },
  'keeps-old-access-token': { requirement: 'CLIENT-ADOPT-NEW-ACCESS-TOKEN', description: 'ignores the x-access-token of answers and keeps the first token' },
  'stays-on-401': { requirement: 'CLIENT-REAUTHORIZE-ON-401', description: 'keeps the refused token after a 401 and shows an error instead of authorizing again' },
  'webhook-other-client-id': { requirement: 'CLIENT-WEBHOOK-CLIENT-ID', description: 'registers webhooks with another clientID' },
  'webhook-user-group-on-lock': { requirement: 'CLIENT-WEBHOOK-GROUPS', description: 'asks for a user group (lifecycle) on a lock registration' },
  'delete-with-body': { requirement: 'CLIENT-DELETE-NO-BODY', description: 'sends a JSON body with the DELETE of a registration' },
  'refresh-grant-type-wrong': { requirement: 'CLIENT-TOKEN-BODY-FIELDS', description: 'sends grant_type=refresh on the refresh grant (present, but not the value the spec names)' },
  'code-grant-type-wrong': { requirement: 'CLIENT-TOKEN-BODY-FIELDS', description: 'sends grant_type=code on the code exchange' },
  'form-not-encoded': { requirement: 'CLIENT-TOKEN-FORM-POST', description: 'builds the token request body by pasting the values in, not URL-encoded' },
  'notification-types-as-string': { requirement: 'CLIENT-WEBHOOK-GROUPS', description: 'sends notificationTypes as one comma-separated string instead of an array' },
  'registers-with-put': { requirement: 'CLIENT-WEBHOOK-ENDPOINT', description: 'sends the lock registration as PUT /webhook/:lockID' },
  'deletes-without-client-id': { requirement: 'CLIENT-WEBHOOK-ENDPOINT', description: 'deletes a lock registration with DELETE /webhook/:lockID, without :clientID' },
  'webhook-token-as-number': { requirement: 'CLIENT-WEBHOOK-FIELD-TYPES', description: 'sends the registration\'s token as a number' },
  'state-in-global-set': { requirement: 'CLIENT-STATE-SESSION-BOUND', description: 'accepts any state it sent and has not seen back, whatever browser brings it' },
  'secret-in-page': { requirement: 'CLIENT-SECRET-ONLY-IN-FORM', description: 'writes its configuration, client secret included, into a script of its page' },
  'api-key-in-page': { requirement: 'CLIENT-API-KEY-NOT-TO-BROWSER', description: 'writes the API key into a script of its page' },
} as const satisfies Record<string, { requirement: string; description: string }>;

export type ClientFault = keyof typeof CLIENT_FAULTS;

/** One break point per requirement: the dimensions it breaks over and how it breaks a slice. */
export const CLIENT_SLICE_BREAKS = {
  'CLIENT-AUTHZ-REQUEST': { dims: ['authz-param'], description: 'leaves that parameter out of the authorization request' },
  'CLIENT-AUTHZ-REDIRECT-URI': { dims: ['redirect-uri-part', 'reached-as'], description: 'sends a redirect_uri that differs from the registered one in that component; other-name: builds it from the request\'s Host when the browser reached the application under another name; configured: adds a query parameter only when it was reached under its configured name' },
  'CLIENT-AUTHZ-URL-ENCODED': { dims: ['authz-param'], description: 'puts that parameter into the authorization URL as it is, not URL-encoded' },
  'CLIENT-STATE-CHECKED': { dims: ['state-tamper', 'flow-end', 'arrives-in'], description: 'compares the state that way wrongly; approval: ignores it when a code comes back; cancellation: resets it to an empty string, which an empty state then matches; no-cookie: accepts any state in a browser it never sent to authorization; flow-browser: any state in the flow\'s browser' },
  'CLIENT-CODE-ONCE': { dims: ['callback-visit'], description: 'first: exchanges the code twice on the first visit of the callback (a retry); reloaded: exchanges it again when the callback is reloaded' },
  'CLIENT-CANCELLATION-STATE-CHECKED': { dims: ['state-tamper'], description: 'on a cancellation, takes a state that differs that way from the one in progress for its own (and gives the sign-in up)' },
  'CLIENT-STATE-SESSION-BOUND': { dims: ['session-binding'], description: 'accepts a state it sent to another browser (other-session: while its own flow is in progress; no-cookie: in a session that has none)' },
  'CLIENT-STATE-ONE-USE': { dims: ['flow-end'], description: 'keeps the state after that end of a flow (approval: a completed sign-in; cancellation: a cancelled one)' },
  'CLIENT-TOKEN-FORM-POST': { dims: ['grant'], description: 'sends the token request of that grant as JSON' },
  'CLIENT-TOKEN-BODY-FIELDS': { dims: ['grant'], description: 'puts client_id in the query string instead of the body on that grant' },
  'CLIENT-TOKEN-FIELD-ONCE': { dims: ['grant'], description: 'gives client_id twice in the form body on that grant' },
  'CLIENT-TOKEN-NO-BASIC': { dims: ['grant'], description: 'adds a Basic header with the credentials on that grant' },
  'CLIENT-SECRET-ONLY-IN-FORM': { dims: ['request-kind'], description: 'also sends the client secret on that kind of request (the URL, or a Basic header on API calls; browser: in a script of its page)' },
  'CLIENT-REFRESH-SINGLE-USE': { dims: ['position'], description: 'presents a refresh token of that link once more after redeeming it' },
  'CLIENT-REFRESH-STORE-NEW': { dims: ['position'], description: 'presents the access token instead of the refresh token on that link' },
  'CLIENT-API-KEY-HEADER': { dims: ['endpoint'], description: 'leaves x-api-key out of calls of that endpoint' },
  'CLIENT-API-ACCESS-TOKEN-HEADER': { dims: ['endpoint'], description: 'leaves x-access-token out of calls of that endpoint' },
  'CLIENT-API-CONTENT-TYPE': { dims: ['endpoint'], description: 'leaves content-type out of calls of that endpoint' },
  'CLIENT-API-HEADERS-NOT-ENCODED': { dims: ['endpoint'], description: 'URL-encodes x-api-key on calls of that endpoint' },
  'CLIENT-ADOPT-NEW-ACCESS-TOKEN': { dims: ['endpoint', 'answer-status', 'answer-body'], description: 'ignores the new x-access-token of that endpoint\'s answers, of answers with that status (e.g. takes it from 200 only), or of answers with (without) a body' },
  'CLIENT-REAUTHORIZE-ON-401': { dims: ['endpoint', 'flow-point'], description: 'keeps the refused token after a 401 of that endpoint, or at that point of the flow (the first call after the sign-in, after a refresh, any later call)' },
  'CLIENT-WEBHOOK-CLIENT-ID': { dims: ['endpoint'], description: 'names another clientID on that endpoint' },
  'CLIENT-WEBHOOK-GROUPS': { dims: ['endpoint'], description: 'asks for a group of the other kind on that registration' },
  'CLIENT-DELETE-NO-BODY': { dims: ['endpoint'], description: 'sends a JSON body with that deletion' },
  'CLIENT-WEBHOOK-FIELD-TYPES': { dims: ['endpoint'], description: 'sends the token of that registration as a number' },
  'CLIENT-WEBHOOK-ENDPOINT': { dims: ['endpoint'], description: 'calls that endpoint by another method or path (registrations as PUT, the lock deletion without :clientID, the user deletion as DELETE /webhook/users)' },
} as const satisfies Record<string, { dims: readonly string[]; description: string }>;

export type SlicedRequirement = keyof typeof CLIENT_SLICE_BREAKS;

/**
 * How a state differs from the one in progress, in the words of the state-tamper dimension (the cancellation
 * faults compare that way wrongly): missing, empty, suffix, truncated, one character changed (altered-first,
 * altered-last, altered-drawn), forged (same length, more changed), or other.
 */
export function stateDifference(expected: string, got: string | null): string {
  if (got === null) return 'missing';
  if (got === '') return 'empty';
  if (got.length === expected.length + 1 && got.startsWith(expected)) return 'suffix';
  if (got.length === expected.length - 1 && expected.startsWith(got)) return 'truncated';
  if (got.length !== expected.length) return 'other';
  const changed = [...got].flatMap((c, i) => (c === expected[i] ? [] : [i]));
  if (changed.length === 0) return 'same';
  if (changed.length > 1) return 'forged';
  return changed[0] === 0 ? 'altered-first' : changed[0] === expected.length - 1 ? 'altered-last' : 'altered-drawn';
}

/** A named fault, or `ID@dim=value` for a requirement with a break point over that dimension. */
export function isClientFault(name: string): boolean {
  if (Object.hasOwn(CLIENT_FAULTS, name)) return true;
  const m = /^([A-Z0-9-]+)@([a-z-]+)=(.+)$/.exec(name);
  return !!m && Object.hasOwn(CLIENT_SLICE_BREAKS, m[1]!) && (CLIENT_SLICE_BREAKS[m[1] as SlicedRequirement].dims as readonly string[]).includes(m[2]!);
}

/** The faults switched on: named ones, and slice breaks. */
export class ClientFaults {
  readonly #names: ReadonlySet<string>;
  constructor(names: Iterable<string> = []) {
    this.#names = new Set(names);
    for (const n of this.#names) if (!isClientFault(n)) throw new Error(`unknown example client fault: ${n}`);
  }

  has(name: ClientFault): boolean {
    return this.#names.has(name);
  }

  /** True when `ID@dim=value` is on for one of the slice's (dim, value) pairs. */
  breaks(id: SlicedRequirement, slice: Readonly<Record<string, string | null>>): boolean {
    if (this.#names.size === 0) return false;
    return Object.entries(slice).some(([dim, value]) => value !== null && this.#names.has(`${id}@${dim}=${value}`));
  }
}
