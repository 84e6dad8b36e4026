/**
 * What exploration drives: the operations a client of the service can make and the
 * control steps, over the harness's own HTTP client (so every exchange is logged,
 * redacted, as evidence). Built from a test's context (suites/explore) or from a
 * mock started in a unit test; the commands never see more than this.
 */
import type { ControlClientLike, Exchange, Flows, HttpClientLike, HttpResponse, RedactorLike, TargetProfile } from '../../harness/contracts.js';

export interface Credential {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  redirectUri: string;
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
  /** The logged (redacted) exchanges so far. */
  exchanges(): Exchange[];
  /** Remember a value as a secret before it can reach a log. */
  secret(value: string, kind: 'access_token' | 'refresh_token' | 'code' | 'client_secret' | 'api_key'): void;
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
  return {
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
