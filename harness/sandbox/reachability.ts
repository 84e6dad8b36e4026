/**
 * The webhook reachability probe: before the webhook suites run against a target
 * that is not on this machine's loopback (or has no control interface), check
 * that its deliveries can reach the capture server at all.
 *
 * It does what the suites do, once: register a lock webhook to a fresh inbox,
 * make the status check (which "triggers a status webhook to all listeners of
 * that lock"), wait a few seconds for a delivery, delete the registration. When
 * nothing arrives, every webhook test would fail for a reason that is not the
 * target's conformance (a tunnel that is down, a firewall, a wrong
 * capture.publicUrl); global setup then reports them not tested with this
 * probe's reason instead.
 *
 * A refused registration or status check proves nothing about reachability: the
 * probe is then inconclusive and the suites judge those answers themselves.
 */
import { randomBytes } from 'node:crypto';
import { isLockconfError } from '../run/errors.js';
import type { CaptureClientLike, HttpClientLike, HttpResponse, RedactorLike, TargetProfile } from '../contracts.js';

export const REACHABILITY_TIMEOUT_MS = 10_000;

const DEFAULT_STATUS_CHECK = { method: 'PUT', path: '/remoteoperate/{lockId}/status' };
/** Every lock group: any delivery at all proves the way in works. */
const LOCK_GROUPS = ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'];

export interface ReachabilityProbeOptions {
  profile: TargetProfile;
  /** The client the probe's API calls go through (wrapped with the registration journal on a sandbox). */
  http: HttpClientLike;
  capture: CaptureClientLike;
  /** The address the target is given for webhooks: capture.publicUrl, or the capture server's listen address. */
  publicBaseUrl: string;
  /** A fixture lock the user may register on. */
  lockId: string;
  /** The user's access token. */
  accessToken: string;
  timeoutMs?: number;
  /** Learns the probe's webhook token (a secret of the registration). */
  redactor?: RedactorLike;
}

export type ReachabilityResult =
  | { outcome: 'reachable'; afterMs: number }
  /** No delivery arrived: `reason` is what the report shows for every webhook test. */
  | { outcome: 'unreachable'; reason: string }
  /** The target refused a step before a delivery could be expected: nothing is concluded. */
  | { outcome: 'inconclusive'; reason: string };

/** The status check route of the profile (default PUT /remoteoperate/{lockId}/status) for one lock. */
export function statusCheckRoute(profile: Pick<TargetProfile, 'statusCheck'>, lockId: string): { method: string; path: string } {
  const route = profile.statusCheck ?? DEFAULT_STATUS_CHECK;
  const path = route.path.replace(/\{lockId\}|\{lockID\}|:lockId|:lockID/g, encodeURIComponent(lockId));
  return { method: route.method.toUpperCase(), path };
}

export async function probeWebhookReachability(opts: ReachabilityProbeOptions): Promise<ReachabilityResult> {
  const { profile, http, lockId, accessToken } = opts;
  const timeoutMs = opts.timeoutMs ?? REACHABILITY_TIMEOUT_MS;
  const inbox = await opts.capture.newInbox({ label: 'webhook reachability probe' });
  const header = `x-lockconf-probe-${randomBytes(3).toString('hex')}`;
  const token = `probe-${randomBytes(12).toString('hex')}`;
  opts.redactor?.add(token, 'webhook_token');

  const lockPath = `/webhook/${encodeURIComponent(lockId)}`;
  const registered = await http.api('POST', lockPath, {
    accessToken,
    json: { url: inbox.url, method: 'POST', clientID: profile.clientId, header, token, notificationTypes: LOCK_GROUPS },
  });
  if (!is2xx(registered)) {
    return { outcome: 'inconclusive', reason: `the target refused the probe's webhook registration on lock ${lockId} (HTTP ${registered.status})` };
  }
  try {
    const { method, path } = statusCheckRoute(profile, lockId);
    const started = Date.now();
    const checked = await http.api(method, path, { accessToken });
    if (!is2xx(checked)) {
      return { outcome: 'inconclusive', reason: `the target refused the status check ${method} ${path} (HTTP ${checked.status}), so no delivery was expected` };
    }
    try {
      await inbox.waitFor(1, { timeoutMs });
      return { outcome: 'reachable', afterMs: Date.now() - started };
    } catch (err) {
      if (!isLockconfError(err, 'ERR_DELIVERY_TIMEOUT')) throw err;
      return { outcome: 'unreachable', reason: unreachableReason(opts, { method, path }, timeoutMs) };
    }
  } finally {
    // The probe's registration must not outlive it (the run's clean-up retries from the journal if this fails).
    await http.api('DELETE', `${lockPath}/${encodeURIComponent(profile.clientId)}`, { accessToken }).catch(() => undefined);
  }
}

function unreachableReason(opts: ReachabilityProbeOptions, route: { method: string; path: string }, timeoutMs: number): string {
  const given = opts.profile.capture?.publicUrl ? 'capture.publicUrl' : "the capture server's listen address; capture.publicUrl is not set";
  return `no webhook from the target reached the capture server: the reachability probe registered a lock webhook on ${opts.lockId} `
    + `and made the status check (${route.method} ${route.path}), but no delivery arrived within ${Number((timeoutMs / 1000).toFixed(1))} s. `
    + `The target was given ${opts.publicBaseUrl} (${given}). Check that the tunnel in front of the capture server is up and forwards to it, `
    + 'that no firewall blocks the target\'s requests to it, and that capture.publicUrl is an address the target can reach';
}

function is2xx(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}
