/**
 * Every API method and endpoint the spec names, called in turn as an application
 * would (spec: Other endpoints named; the four webhook endpoints): GET /users/me,
 * GET /users/locks/mine, POST /webhook/:lockID, POST /webhook/user, the status
 * check, DELETE /webhook/:lockID/:clientID, DELETE /webhook/user. The API-header
 * rules ("Every successful API response returns an updated x-access-token header")
 * hold on each of them.
 */
import type { HttpResponse, Inbox } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { newInbox } from './context.js';
import { firstLock } from './fixtures.js';
import { statusCheckRoute } from './status-check.js';
import { rememberTokens } from './tokens.js';
import { PrerequisiteFailed } from './prerequisite.js';
import { LOCK_GROUPS, USER_GROUPS, newHeaderAndToken } from './webhooks.js';

export interface EndpointCall {
  /** "METHOD path" as the spec names it. */
  name: string;
  /** The slice (dimension `endpoint`, harness/catalog/slices) this call is. */
  endpoint: string;
  method: string;
  path: string;
  json?: unknown;
  /** The requirement whose own test judges that this call, well formed, is accepted. */
  requirement?: string;
}

/** A URL nothing listens on, on loopback: for registrations that must never be delivered (invalid-token calls). */
const NOWHERE = 'http://127.0.0.1:9/lockconf-never-delivered';

/** A registration body; its token is the application's secret, fresh and known to the redactor. */
function registration(t: SuiteContext, url: string, groups: readonly string[]) {
  const { header, token } = newHeaderAndToken(t);
  return { url, method: 'POST', clientID: t.target.profile.clientId, header, token, notificationTypes: [...groups] };
}

/** The two read-only endpoints: no capture server needed. */
export function userEndpoints(): EndpointCall[] {
  return [
    { name: 'GET /users/me', endpoint: 'GET /users/me', method: 'GET', path: '/users/me' },
    { name: 'GET /users/locks/mine', endpoint: 'GET /users/locks/mine', method: 'GET', path: '/users/locks/mine' },
  ];
}

/**
 * The webhook endpoints and the status check, in an order that leaves nothing
 * registered: register lock and user webhooks to `url`, check the lock's status,
 * delete both registrations.
 */
export function webhookEndpoints(t: SuiteContext, url: string): EndpointCall[] {
  const lockId = firstLock(t).lockId;
  const lock = encodeURIComponent(lockId);
  const status = statusCheckRoute(t, lockId);
  return [
    { name: 'POST /webhook/:lockID', endpoint: 'POST /webhook/:lockID', method: 'POST', path: `/webhook/${lock}`, json: registration(t, url, LOCK_GROUPS), requirement: 'WEBHOOK-LOCK-REGISTER' },
    { name: 'POST /webhook/user', endpoint: 'POST /webhook/user', method: 'POST', path: '/webhook/user', json: registration(t, url, USER_GROUPS), requirement: 'WEBHOOK-USER-REGISTER' },
    { name: `status check (${status.method} ${status.path})`, endpoint: '/remoteoperate/status', method: status.method, path: status.path, requirement: 'DELIVERY-STATUS-CHECK-FANOUT' },
    { name: 'DELETE /webhook/:lockID/:clientID', endpoint: 'DELETE /webhook/:lockID/:clientID', method: 'DELETE', path: `/webhook/${lock}/${encodeURIComponent(t.target.profile.clientId)}`, requirement: 'WEBHOOK-LOCK-DELETE' },
    { name: 'DELETE /webhook/user', endpoint: 'DELETE /webhook/user', method: 'DELETE', path: '/webhook/user', requirement: 'WEBHOOK-USER-DELETE' },
  ];
}

/** Every named endpoint, for calls that must be refused (the registrations point nowhere). */
export function everyEndpointRefused(t: SuiteContext): EndpointCall[] {
  return [...userEndpoints(), ...webhookEndpoints(t, NOWHERE)];
}

/** An inbox for the registrations of webhookEndpoints(): deliveries (the status event) land there. */
export async function endpointsInbox(t: SuiteContext): Promise<Inbox> {
  return newInbox(t, { label: 'api-headers' });
}

export async function callEndpoint(t: SuiteContext, call: EndpointCall, accessToken: string | null): Promise<HttpResponse> {
  const res = await t.http.api(call.method, call.path, { accessToken, ...(call.json !== undefined ? { json: call.json } : {}) });
  rememberTokens(t, res);
  return res;
}

export interface EndpointVisit {
  call: EndpointCall;
  res: HttpResponse;
  /** The token the call was made with. */
  presented: string;
  /** x-access-token of the answer, when there is one. */
  rotated: string | null;
  /** The token presented came from an earlier answer's x-access-token (not the session's own). */
  fromRotation: boolean;
}

/**
 * Calls each endpoint in turn, keeping the newest token as an application does
 * (the rotated one when the answer carries it). The status check's route is not
 * shown: a 404 or 405 there ends the test as not tested (set statusCheck in the profile).
 */
export async function walkEndpoints(t: SuiteContext, calls: readonly EndpointCall[], accessToken: string, visit: (v: EndpointVisit) => Promise<void> | void): Promise<string> {
  let token = accessToken;
  for (const call of calls) {
    const res = await callEndpoint(t, call, token);
    statusCheckRefused(t, call, res);
    const rotated = res.headers['x-access-token'] ?? null;
    await visit({ call, res, presented: token, rotated, fromRotation: token !== accessToken });
    if (rotated) token = rotated;
  }
  return token;
}

/**
 * For a test whose check is not the call's own acceptance: a refused call blocks the test
 * by what judges it, when something does: HEADERS-ROTATED-TOKEN-WORKS for a 401 to a token
 * an earlier answer returned, else the requirement of the endpoint (the registration, the
 * deletion, the status check). Nothing when the call was accepted or nothing judges it.
 */
export function expectCallAccepted(v: EndpointVisit, what: string): void {
  if (is2xx(v.res)) return;
  const id = v.res.status === 401 && v.fromRotation ? 'HEADERS-ROTATED-TOKEN-WORKS' : v.call.requirement;
  if (id) throw new PrerequisiteFailed(id, `${what}; got HTTP ${v.res.status}`);
}

export function is2xx(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/** The status check's route was refused (404/405): its route is not shown, so that slice is not tested. */
export function statusCheckRefused(t: SuiteContext, call: EndpointCall, res: HttpResponse): void {
  if (call.endpoint === '/remoteoperate/status' && (res.status === 404 || res.status === 405)) {
    t.notTested(`the status check route ${call.method} ${call.path} was refused with ${res.status}: set statusCheck in the target profile`);
  }
}

/**
 * Every named endpoint in turn, each call a slice (`endpoint`) of the running
 * requirement, made with the newest token held: fn gets the call, its answer and
 * the token it was made with, and returns nothing; the newest token afterwards is
 * the answer's x-access-token when there is one.
 */
export async function eachEndpointSlice(
  t: SuiteContext & { slice: (s: Record<string, string>, fn: () => Promise<void>) => Promise<void> },
  calls: readonly EndpointCall[],
  accessToken: string,
  fn: (v: EndpointVisit) => Promise<void>,
): Promise<string> {
  let token = accessToken;
  for (const call of calls) {
    await t.slice({ endpoint: call.endpoint }, async () => {
      const res = await callEndpoint(t, call, token);
      statusCheckRefused(t, call, res);
      const rotated = res.headers['x-access-token'] ?? null;
      const presented = token;
      const fromRotation = presented !== accessToken;
      if (rotated) token = rotated;
      // A 401 to a token an earlier answer returned: the rotated token did not work, which HEADERS-ROTATED-TOKEN-WORKS judges.
      if (res.status === 401 && fromRotation) throw new PrerequisiteFailed('HEADERS-ROTATED-TOKEN-WORKS', `${call.name}: the x-access-token an earlier answer returned was refused with HTTP 401`);
      await fn({ call, res, presented, rotated, fromRotation });
    });
  }
  return token;
}
