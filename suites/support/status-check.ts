/**
 * The status check (/remoteoperate/status): "calling it triggers a status webhook to
 * all listeners of that lock". Its method, request and response are not shown, so
 * the profile says how to call it (profile.statusCheck, default PUT
 * /remoteoperate/{lockId}/status).
 */
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { PrerequisiteFailed, restsOn } from './prerequisite.js';

const DEFAULT = { method: 'PUT', path: '/remoteoperate/{lockId}/status' };

export function statusCheckRoute(t: SuiteContext, lockId: string): { method: string; path: string } {
  const route = t.target.profile.statusCheck ?? DEFAULT;
  const id = encodeURIComponent(lockId);
  const path = route.path.replace(/\{lockId\}|\{lockID\}|:lockId|:lockID/g, id);
  return { method: route.method.toUpperCase(), path };
}

/** Calls the status check for lockId as the user whose access token is given. */
export async function statusCheck(t: SuiteContext, lockId: string, accessToken: string): Promise<HttpResponse> {
  const { method, path } = statusCheckRoute(t, lockId);
  return t.http.api(method, path, { accessToken });
}

/**
 * Calls the status check and insists it was accepted (2xx): every delivery test starts here.
 * Its method and path are not shown: a 404 or 405 says the route is not the target's, and
 * the test cannot be carried out rather than failed. Any other refusal blocks the test:
 * by DELIVERY-STATUS-CHECK-FANOUT (whose own test judges the status check), or by
 * HEADERS-PREVIOUS-TOKEN-VALID when the token was refused after an answer rotated it.
 */
export async function triggerStatusCheck(t: SuiteContext, lockId: string, accessToken: string): Promise<HttpResponse> {
  const res = await statusCheck(t, lockId, accessToken);
  const { method, path } = statusCheckRoute(t, lockId);
  if (res.status === 404 || res.status === 405) {
    t.notTested(`the status check route ${method} ${path} was refused with ${res.status}: set statusCheck in the target profile`);
  }
  if (res.status < 200 || res.status >= 300) {
    const why = restsOn(t, res, accessToken, 'DELIVERY-STATUS-CHECK-FANOUT') === 'HEADERS-PREVIOUS-TOKEN-VALID' ? ' (an earlier answer had rotated the access token presented)' : '';
    throw new PrerequisiteFailed(restsOn(t, res, accessToken, 'DELIVERY-STATUS-CHECK-FANOUT'), `status check ${method} ${path} must be accepted to trigger a status webhook; got HTTP ${res.status}${why}`);
  }
  return res;
}
