/**
 * The webhook reachability probe step by step, with a scripted target and
 * capture server: it registers, checks the status, waits, and always deletes its
 * registration; a refused step is inconclusive, a silent inbox is unreachable.
 */
import { describe, expect, test } from 'vitest';
import { probeWebhookReachability, statusCheckRoute } from '../../../harness/sandbox/reachability.js';
import { LockconfError } from '../../../harness/run/errors.js';
import { Redactor } from '../../../harness/wire/redact.js';
import type { CaptureClientLike, Delivery, HttpClientLike, HttpResponse, Inbox, TargetProfile } from '../../../harness/contracts.js';

const profile = {
  authUrl: 'https://auth.example.test', baseUrl: 'https://api.example.test', clientId: 'client-1', clientSecret: 's', apiKey: 'k',
  redirectUri: 'https://app.example.test/cb', statusCheck: { method: 'put', path: '/remoteoperate/{lockId}/status' }, capture: null,
} as TargetProfile;

function scriptedHttp(statusOf: (method: string, path: string) => number) {
  const calls: Array<{ method: string; path: string; json: unknown }> = [];
  const answer = (status: number): HttpResponse => ({ status, headers: {}, text: '', json: undefined, location: null, durationMs: 1 });
  const http: HttpClientLike = {
    request: async () => answer(500),
    api: async (method, path, opts) => {
      calls.push({ method, path, json: opts.json });
      return answer(statusOf(method, path));
    },
    exchanges: () => [],
  };
  return { http, calls };
}

function scriptedCapture(arrives: boolean): CaptureClientLike {
  const inbox: Inbox = {
    id: 'in1',
    url: 'https://hooks.example.test/inbox/in1',
    setResponse: async () => {},
    deliveries: async () => [],
    waitFor: async (n, opts) => {
      if (arrives) return [{ seq: 1 } as Delivery];
      throw new LockconfError('ERR_DELIVERY_TIMEOUT', `inbox in1: waited ${opts?.timeoutMs} ms for ${n} delivery; 0 arrived`);
    },
    collectFor: async () => [],
  };
  return { newInbox: async () => inbox };
}

const base = { profile, publicBaseUrl: 'https://hooks.example.test', lockId: 'LOCK 1', accessToken: 'at-1', timeoutMs: 10_000 };

describe('probeWebhookReachability', () => {
  test('a delivery arrives: reachable; the registration pointed at the inbox and was deleted; its token is redacted', async () => {
    const { http, calls } = scriptedHttp(() => 200);
    const redactor = new Redactor();
    const result = await probeWebhookReachability({ ...base, http, capture: scriptedCapture(true), redactor });
    expect(result.outcome).toBe('reachable');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /webhook/LOCK%201', 'PUT /remoteoperate/LOCK%201/status', 'DELETE /webhook/LOCK%201/client-1',
    ]);
    const body = calls[0]!.json as { url: string; clientID: string; token: string; notificationTypes: string[] };
    expect(body).toMatchObject({ url: 'https://hooks.example.test/inbox/in1', method: 'POST', clientID: 'client-1' });
    expect(body.notificationTypes).toContain('operation');
    expect(redactor.redact(body.token)).not.toContain(body.token);
  });

  test('nothing arrives: unreachable, with the public URL and what to check; the registration is still deleted', async () => {
    const { http, calls } = scriptedHttp(() => 204);
    const result = await probeWebhookReachability({ ...base, http, capture: scriptedCapture(false) });
    expect(result.outcome).toBe('unreachable');
    const reason = (result as { reason: string }).reason;
    expect(reason).toContain('no delivery arrived within 10 s');
    expect(reason).toContain("The target was given https://hooks.example.test (the capture server's listen address; capture.publicUrl is not set)");
    expect(reason).toMatch(/tunnel.*firewall.*capture\.publicUrl/);
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/webhook/LOCK%201/client-1' });
  });

  test('a refused registration or status check is inconclusive, not a verdict on reachability', async () => {
    const refusedRegistration = scriptedHttp((m) => (m === 'POST' ? 401 : 200));
    const r1 = await probeWebhookReachability({ ...base, http: refusedRegistration.http, capture: scriptedCapture(false) });
    expect(r1).toEqual({ outcome: 'inconclusive', reason: "the target refused the probe's webhook registration on lock LOCK 1 (HTTP 401)" });
    expect(refusedRegistration.calls).toHaveLength(1);

    const refusedCheck = scriptedHttp((m) => (m === 'PUT' ? 404 : 200));
    const r2 = await probeWebhookReachability({ ...base, http: refusedCheck.http, capture: scriptedCapture(false) });
    expect(r2.outcome).toBe('inconclusive');
    expect((r2 as { reason: string }).reason).toContain('refused the status check PUT /remoteoperate/LOCK%201/status (HTTP 404)');
    expect(refusedCheck.calls.at(-1)?.method).toBe('DELETE');
  });

  test('the status check route takes the profile\'s method and path, any lock-ID placeholder', () => {
    expect(statusCheckRoute({ statusCheck: { method: 'post', path: '/remoteoperate/:lockID/status' } }, 'a/b')).toEqual({ method: 'POST', path: '/remoteoperate/a%2Fb/status' });
    expect(statusCheckRoute({ statusCheck: null }, 'x')).toEqual({ method: 'PUT', path: '/remoteoperate/x/status' });
  });
});
