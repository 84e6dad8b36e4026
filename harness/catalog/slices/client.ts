/**
 * Slices of the application-side rules (the OAuth client, harness/catalog/client.ts):
 * for each CLIENT- requirement, the dimensions the spec gives it, with their values.
 * They are checked by the client judgement (harness/client/judge/) on what the
 * grading mock recorded, and broken one slice at a time by the example
 * application's generated faults (examples/app/client-faults.ts, CLIENT_SLICE_BREAKS),
 * never by the mock: every client slice is listed in `noFault` for the mock's matrix.
 */
import { ENDPOINT } from './dimensions.js';
import type { SliceDeclaration, SliceDeclarations } from './types.js';

const API_CALLS = { endpoint: 'all' } as const;

const slices: Record<string, SliceDeclaration> = {
  // GET {auth_url}/authorization: "client_id | yes …", "redirect_uri | yes …", "state | yes …".
  'CLIENT-AUTHZ-REQUEST': { 'authz-param': 'all' },
  // "redirect_uri | yes | The registered redirect URL": a URL that differs in any component is another URL.
  // …on every authorization request the application makes, however the user's browser reached it (the name it used for the application).
  'CLIENT-AUTHZ-REDIRECT-URI': { 'redirect-uri-part': 'all', 'reached-as': 'all' },
  // "All values must be URL-encoded.": observable on the value the application builds from a URL.
  'CLIENT-AUTHZ-URL-ENCODED': { 'authz-param': ['redirect_uri'] },
  // "The application must check that state matches what it sent." on approval ("the query carries code and state")
  // and after a cancellation ("error=access_denied and state"): every way a state can differ from the one in progress.
  // …in the browser of the flow and in one that never saw the application (no session cookie).
  'CLIENT-STATE-CHECKED': { 'state-tamper': 'all', 'flow-end': 'all', 'arrives-in': 'all' },
  // "On cancellation the query carries error=access_denied and state. The application must check that state matches
  // what it sent.": a cancellation redirect with every state of the domain (missing, empty, forged, altered anywhere, longer, cut short).
  'CLIENT-CANCELLATION-STATE-CHECKED': { 'state-tamper': ['missing', 'empty', 'forged', 'altered-first', 'altered-drawn', 'altered-last', 'suffix', 'truncated'] },
  // "typically a CSRF guard": the state of a flow that ended, approved or cancelled, is not accepted again (SHOULD).
  'CLIENT-STATE-ONE-USE': { 'flow-end': 'all' },
  // RFC 6749 §4.1.2 "MUST NOT use the authorization code more than once": the first visit of the callback, and its reload.
  'CLIENT-CODE-ONCE': { 'callback-visit': 'all' },
  // RFC 6749 §10.12 "binds the request to the user-agent's authenticated state": another browser's state, no session cookie (SHOULD).
  'CLIENT-STATE-SESSION-BOUND': { 'session-binding': 'all' },
  // POST {auth_url}/access_token, every grant an application uses without the operator's permission
  // (client_credentials: "Credentials cannot use this grant unless the service operator grants permission").
  'CLIENT-TOKEN-FORM-POST': { grant: ['authorization_code', 'refresh_token'] },
  'CLIENT-TOKEN-BODY-FIELDS': { grant: ['authorization_code', 'refresh_token'] },
  'CLIENT-TOKEN-NO-BASIC': { grant: ['authorization_code', 'refresh_token'] },
  // RFC 6749 §3.2 "Request and response parameters MUST NOT be included more than once": every grant.
  'CLIENT-TOKEN-FIELD-ONCE': { grant: ['authorization_code', 'refresh_token'] },
  // "client_secret | string | Password-like; sent only in form bodies of token requests": every request the application makes.
  'CLIENT-SECRET-ONLY-IN-FORM': { 'request-kind': 'all' },
  // "valid for exactly one use"; "the returned refresh_token replaces the old one and must be stored": every link.
  'CLIENT-REFRESH-SINGLE-USE': { position: 'all' },
  'CLIENT-REFRESH-STORE-NEW': { position: 'all' },
  // Request headers for API calls: every API call, so every endpoint the spec names.
  'CLIENT-API-KEY-HEADER': API_CALLS,
  'CLIENT-API-ACCESS-TOKEN-HEADER': API_CALLS,
  'CLIENT-API-CONTENT-TYPE': API_CALLS,
  'CLIENT-API-HEADERS-NOT-ENCODED': API_CALLS,
  // "Every successful API response carries an updated x-access-token header": the answer of every endpoint.
  // …and every 2xx an answer may carry it on (the status codes of the webhook endpoints are not shown).
  'CLIENT-ADOPT-NEW-ACCESS-TOKEN': { ...API_CALLS, 'answer-status': 'all', 'answer-body': 'all' },
  // "Invalid access token on an API call | HTTP 401; the user must authorize again.": a 401 on every kind of call.
  // …at every point of a flow: the first call after the sign-in, the first after a refresh, a call drawn from the walk.
  'CLIENT-REAUTHORIZE-ON-401': { ...API_CALLS, 'flow-point': 'all' },
  // Webhook registration "clientID | string | The application's client_id", and the clientID of the lock deletion's path.
  'CLIENT-WEBHOOK-CLIENT-ID': { endpoint: ['POST /webhook/:lockID', 'POST /webhook/user', 'DELETE /webhook/:lockID/:clientID'] },
  'CLIENT-WEBHOOK-GROUPS': { endpoint: ['POST /webhook/:lockID', 'POST /webhook/user'] },
  'CLIENT-DELETE-NO-BODY': { endpoint: ['DELETE /webhook/:lockID/:clientID', 'DELETE /webhook/user'] },
  // "url | string (URL)", "method | string", "header | string", "token | string": every registration endpoint.
  'CLIENT-WEBHOOK-FIELD-TYPES': { endpoint: ['POST /webhook/:lockID', 'POST /webhook/user'] },
  // The four webhook endpoints, by method and path.
  'CLIENT-WEBHOOK-ENDPOINT': { endpoint: ['POST /webhook/:lockID', 'POST /webhook/user', 'DELETE /webhook/:lockID/:clientID', 'DELETE /webhook/user'] },
};

const APPLICATION_SIDE = 'an application-side rule: the mock cannot break it; the example application\'s generated fault does (examples/app/client-faults.ts, test/client/)';

export const CLIENT_SLICES: SliceDeclarations = {
  dimensions: [
    {
      id: 'authz-param',
      title: 'Query parameter of the authorization request',
      source: 'GET {auth_url}/authorization: "client_id | yes", "redirect_uri | yes", "state | yes"; "All values must be URL-encoded."',
      values: ['client_id', 'redirect_uri', 'state'],
    },
    {
      id: 'state-tamper',
      title: 'Way the state of a redirect back differs from the one the application sent for this flow',
      source: 'Authorization code flow: "The application must check that state matches what it sent." (changed at the end or the start, cut short, empty, missing, letter case changed, forged: a value of the same length and alphabet drawn from the run\'s seed, one character changed: the first, the last, or one inside drawn from the run\'s seed; a state the application sent to another browser is CLIENT-STATE-SESSION-BOUND, the state of a flow that already ended CLIENT-STATE-ONE-USE)',
      values: ['suffix', 'prefix', 'truncated', 'empty', 'missing', 'case', 'forged', 'altered-first', 'altered-drawn', 'altered-last'],
    },
    {
      id: 'flow-point',
      title: 'Point of the flow an API call answered 401 stands at',
      source: 'Errors: "Invalid access token on an API call | HTTP 401; the user must authorize again." (any call: the first after the code exchange, the first after a refresh, or one of the page\'s and actions\' calls drawn from the run\'s seed)',
      values: ['after-sign-in', 'after-refresh', 'drawn-call'],
    },
    {
      id: 'reached-as',
      title: 'Name under which the user\'s browser reached the application when it started the authorization',
      source: 'GET {auth_url}/authorization: "redirect_uri | yes | The registered redirect URL, URL-encoded." on every authorization request, whatever name the browser used for the application (configured: the profile\'s connectUrl; other-name: another loopback name for the same address, localhost for 127.0.0.1 or 127.0.0.1 for localhost, in the Host header; an application that refuses a Host it does not know leaves that slice not tested)',
      values: ['configured', 'other-name'],
    },
    {
      id: 'callback-visit',
      title: 'Visit of the redirect back that brought the code',
      source: 'RFC 6749 §4.1.2: "The client MUST NOT use the authorization code more than once." (the first visit, and the same page reloaded by the user: the same code and state again, in the same browser)',
      values: ['first', 'reloaded'],
    },
    {
      id: 'arrives-in',
      title: 'Browser a redirect back arrives in',
      source: 'Authorization code flow: "The application must check that state matches what it sent." (the browser whose flow it is, or a browser without the application\'s session cookie: a state that matches nothing the application sent is refused in both)',
      values: ['flow-browser', 'no-cookie'],
    },
    {
      id: 'session-binding',
      title: 'How a redirect back carrying a state the application sent reaches another browser session',
      source: 'RFC 6749 §10.12: "binds the request to the user-agent\'s authenticated state" (the state another browser is waiting for; the right state and code in a browser without the session cookie)',
      values: ['other-session', 'no-cookie'],
    },
    {
      id: 'flow-end',
      title: 'How the user ended the flow whose state is checked',
      source: 'Authorization code flow: "On approval the query carries code and state. On cancellation the query carries error=access_denied and state."',
      values: ['approval', 'cancellation'],
    },
    {
      id: 'answer-status',
      title: 'Status of the successful answer that carried a new x-access-token',
      source: 'Access token: "Every successful API response carries an updated x-access-token header"; "Response bodies and status codes of the four webhook endpoints: not shown" (so any 2xx a plain request may get, RFC 9110 §15.3: 206 answers a range request only, and the application sends none)',
      values: ['200', '201', '202', '203', '204', '205'],
    },
    {
      id: 'answer-body',
      title: 'Whether the successful answer that carried a new x-access-token had a body',
      source: 'Access token: "Every successful API response carries an updated x-access-token header"; "Response bodies and status codes of the four webhook endpoints: not shown" (a body or none; 204 and 205 have none, RFC 9110 §15.3.5, §15.3.6)',
      values: ['with-body', 'no-body'],
    },
    {
      id: 'request-kind',
      title: 'Kind of request the application makes',
      source: 'API credentials: "client_id … sent in the authorization request and in every token request", "client_secret … sent only in form bodies of token requests", "API key … Sent as the x-api-key header on API calls"; browser: what the application sends to the user\'s browser',
      values: ['authorization', 'token', 'api', 'browser'],
    },
  ],
  slices,
  noFault: Object.fromEntries(Object.entries(slices).flatMap(([id, decl]) => Object.keys(decl).map((dim) => [`${id}@${dim}`, APPLICATION_SIDE]))),
};

/** The spec's name of an API call (the `endpoint` dimension), or null for a path it does not name. */
export function clientEndpoint(method: string, route: string): string | null {
  const m = method.toUpperCase();
  const name = route.startsWith('/remoteoperate/') ? '/remoteoperate/status' : `${m} ${route}`;
  return ENDPOINT.values.includes(name) ? name : null;
}
