/**
 * What exploration drives: the operations a client of the service can make and the
 * control steps, over the harness's own HTTP client (so every exchange is logged,
 * redacted, as evidence). Built from a test's context (suites/explore) or from a
 * mock started in a unit test; the commands never see more than this.
 */
import type { ControlClientLike, ControlEvent, Exchange, Fixtures, Flows, HttpClientLike, HttpResponse, Inbox, RedactorLike, TargetProfile } from '../../harness/contracts.js';

export interface Credential {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  redirectUri: string;
}

/** A fixture lock as the webhook commands use it. */
export interface HookLock {
  lockId: string;
  /** Fixture user indexes who are members (owner and guests). */
  members: number[];
  keypad: boolean;
  doorSensor: boolean;
  builtInKeypad: boolean;
}

/** What the webhook commands drive: the capture server's inboxes, the four webhook endpoints, the status check, the event triggers. */
export interface WebhookPort {
  /** The profile's credential registers (clientID) and signs (API key). */
  clientId: string;
  apiKey: string;
  /** Fixture users (by index, as `users` counts them). */
  userIds: string[];
  locks: HookLock[];
  newInbox(label: string): Promise<Inbox>;
  /** An API call with the profile's API key. */
  call(method: string, path: string, accessToken: string, json?: unknown): Promise<HttpResponse>;
  /** The status check's route for a lock (profile.statusCheck, default PUT /remoteoperate/{lockId}/status). */
  statusRoute(lockId: string): { method: string; path: string };
  /** Control POST /events; absent without the control protocol. */
  emit?: (event: ControlEvent) => Promise<void>;
  /** The harness's delivery wait and quiet window (suites/support/deliveries.ts). */
  waitMs: number;
  quietMs: number;
}

export interface ExplorePort {
  /** [the profile's credential, the second credential of the fixtures when there is one]. */
  credentials: Credential[];
  /** Fixture users who can approve (0: the owner of the locks; 1: a guest on the first lock). */
  users: number;
  /** Approve an authorization request of credential `cred` as fixtures.users[user]: the code, or null. Absent without consent. */
  authorize?: (cred: number, user: number) => Promise<string | null>;
  token(form: Record<string, string>): Promise<HttpResponse>;
  api(path: string, accessToken: string, apiKey: string): Promise<HttpResponse>;
  /** Absent without the control protocol; `clock`, `permission`, `revoke` absent when the target lacks them. */
  control?: {
    reset(): Promise<void>;
    now(): Promise<number>;
    clock?: { advance(ms: number): Promise<void>; reset(): Promise<void> };
    permission?: (clientId: string, enabled: boolean) => Promise<void>;
    revoke?: (refreshToken: string) => Promise<number>;
  };
  /** Absent without a capture server or fixtures (the reason is in `missing`). */
  webhooks?: WebhookPort;
  /** The logged (redacted) exchanges so far. */
  exchanges(): Exchange[];
  /** Remember a value as a secret before it can reach a log. */
  secret(value: string, kind: 'access_token' | 'refresh_token' | 'code' | 'client_secret' | 'api_key' | 'webhook_token'): void;
  /** Why each left-out operation cannot run on this target. */
  missing: Array<{ operation: string; reason: string }>;
}

export interface PortDeps {
  profile: TargetProfile;
  second: Credential | null;
  users: number;
  http: HttpClientLike;
  flows: Pick<Flows, 'authorize'> | null;
  control: ControlClientLike | null;
  redactor: RedactorLike;
  has: (capability: 'consent' | 'clock' | 'client-credentials' | 'revoke' | 'control') => boolean;
  /** Counts a reset as this run's own before it is made (harness/service/conformance.ts countResetOfThisRun). */
  countReset?: () => Promise<void>;
  /** The webhook side: fixtures, a way to open inboxes, the status route and the waits; null when the target has no capture or fixtures. */
  hooks?: {
    fixtures: Fixtures | null;
    newInbox: ((label: string) => Promise<Inbox>) | null;
    statusRoute: (lockId: string) => { method: string; path: string };
    waitMs: number;
    quietMs: number;
  };
}

/** Members of each fixture lock: its owner and its guests (GET /fixtures; without guestUserIds, the second user is a guest on the first lock). */
function lockMembers(f: Fixtures): HookLock[] {
  const index = (id: string | undefined) => f.users.findIndex((u) => u.userId === id);
  return f.locks.slice(0, 2).map((l, i) => {
    const owner = l.ownerUserId ? index(l.ownerUserId) : 0;
    const guests = l.guestUserIds ? l.guestUserIds.map(index) : i === 0 && f.users.length > 1 ? [1] : [];
    const members = [...new Set([owner, ...guests])].filter((u) => u >= 0 && u < 2);
    return { lockId: l.lockId, members, keypad: Boolean(l.keypad), doorSensor: Boolean(l.doorSensor), builtInKeypad: Boolean(l.builtInKeypad) };
  });
}

function webhookPort(d: PortDeps, control: ControlClientLike | null, consent: boolean, missing: ExplorePort['missing']): WebhookPort | undefined {
  const h = d.hooks;
  const why = !h?.newInbox ? 'the run has no capture server to receive deliveries'
    : !h.fixtures || h.fixtures.locks.length === 0 || h.fixtures.users.length === 0 ? 'the target lists no fixture locks and users (GET /fixtures)'
      : !consent ? 'the target offers no consent hook to act as the fixture users' : null;
  if (why || !h || !h.fixtures || !h.newInbox) {
    missing.push({ operation: 'webhook registration, deletion, events and status checks', reason: why ?? 'not available' });
    return undefined;
  }
  if (!control) missing.push({ operation: 'event triggers (control POST /events)', reason: 'the target offers no control protocol' });
  return {
    clientId: d.profile.clientId,
    apiKey: d.profile.apiKey,
    userIds: h.fixtures.users.slice(0, 2).map((u) => u.userId),
    locks: lockMembers(h.fixtures),
    newInbox: h.newInbox,
    call: (method, path, accessToken, json) => d.http.api(method, path, { accessToken, ...(json !== undefined ? { json } : {}) }),
    statusRoute: h.statusRoute,
    ...(control ? { emit: async (event: ControlEvent) => { await control.emit(event); } } : {}),
    waitMs: h.waitMs,
    quietMs: h.quietMs,
  };
}

/** A port over the harness's HTTP client, flows and control client. */
export function harnessPort(d: PortDeps): ExplorePort {
  const tokenUrl = `${d.profile.authUrl.replace(/\/+$/, '')}/access_token`;
  const credentials: Credential[] = [
    { clientId: d.profile.clientId, clientSecret: d.profile.clientSecret, apiKey: d.profile.apiKey, redirectUri: d.profile.redirectUri },
    ...(d.second ? [d.second] : []),
  ];
  for (const c of credentials) {
    d.redactor.add(c.clientSecret, 'client_secret');
    d.redactor.add(c.apiKey, 'api_key');
  }
  const missing: ExplorePort['missing'] = [];
  if (!d.second) missing.push({ operation: 'acting as the second credential', reason: 'the fixtures list no further client credential (GET /fixtures `clients`)' });
  const consent = d.flows && d.has('consent');
  if (!consent) missing.push({ operation: 'authorize and approve, exchange', reason: 'the target offers no consent hook (control protocol POST /consent)' });
  const control = d.control && d.has('control') ? d.control : null;
  if (!control) missing.push({ operation: 'reset, clock moves, client_credentials permission, revocation', reason: 'the target offers no control protocol' });
  else {
    if (!d.has('clock')) missing.push({ operation: 'clock moves', reason: 'the target offers no clock control (POST /clock)' });
    if (!d.has('client-credentials')) missing.push({ operation: 'client_credentials permission', reason: 'the target offers no POST /client-credentials' });
    if (!d.has('revoke')) missing.push({ operation: 'revocation', reason: 'the target offers no POST /refresh-tokens/revoke' });
  }
  const webhooks = webhookPort(d, control, Boolean(consent), missing);
  return {
    ...(webhooks ? { webhooks } : {}),
    credentials,
    users: Math.max(1, Math.min(2, d.users)),
    ...(consent ? {
      authorize: async (cred: number, user: number) => {
        const c = credentials[cred]!;
        const result = await d.flows!.authorize({ user, decision: 'approve', clientId: c.clientId, redirectUri: c.redirectUri });
        const code = result.params.get('code');
        if (code) d.redactor.add(code, 'code');
        return code;
      },
    } : {}),
    async token(form) {
      const res = await d.http.request({ method: 'POST', url: tokenUrl, form });
      const j = res.json;
      if (j && typeof j === 'object') {
        if (typeof j.access_token === 'string') d.redactor.add(j.access_token, 'access_token');
        if (typeof j.refresh_token === 'string') d.redactor.add(j.refresh_token, 'refresh_token');
      }
      return res;
    },
    async api(path, accessToken, apiKey) {
      const res = await d.http.api('GET', path, { accessToken, apiKey });
      const rotated = res.headers['x-access-token'];
      if (rotated) d.redactor.add(rotated, 'access_token');
      return res;
    },
    ...(control ? {
      control: {
        reset: async () => { await d.countReset?.(); await control.reset(); },
        now: () => control.now(),
        ...(d.has('clock') ? { clock: { advance: async (ms: number) => { await control.advanceClock(ms); }, reset: async () => { await control.resetClock(); } } } : {}),
        ...(d.has('client-credentials') ? { permission: (clientId: string, enabled: boolean) => control.setClientCredentials(enabled, clientId) } : {}),
        ...(d.has('revoke') ? { revoke: (token: string) => control.revokeRefreshToken(token) } : {}),
      },
    } : {}),
    exchanges: () => d.http.exchanges(),
    secret: (value, kind) => d.redactor.add(value, kind),
    missing,
  };
}
