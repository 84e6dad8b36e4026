/**
 * The seams between harness modules, as types. Implementations live in their own
 * modules (http.ts, capture-server.ts, control.ts, target.ts, flows.ts,
 * conformance.ts); suites program against these shapes.
 */
import type { expect as vitestExpect } from 'vitest';
import type { Capability, Requirement } from './catalog/index.js';

// ── Target profile (interfaces.md §1) ─────────────────────────────────────
export interface FixtureUser {
  userId: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNo?: string;
}
export interface FixtureLock {
  lockId: string;
  name?: string;
  ownerUserId?: string;
  keypad?: boolean;
  doorSensor?: boolean;
  builtInKeypad?: boolean;
  bridgeId?: string;
  /** Users with guest access to the lock (an additive extension: docs/control-protocol-extensions.md). */
  guestUserIds?: string[];
}
/** A further credential registered for the run (control protocol, GET /fixtures `clients`). */
export interface FixtureClient {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  redirectUri: string;
}
export interface Fixtures {
  users: FixtureUser[];
  locks: FixtureLock[];
  /** Optional: further credentials registered for the run (the profile's credential is not among them). */
  clients?: FixtureClient[];
  /** Optional (docs/control-protocol-extensions.md): how long the target waits for a webhook receiver's answer, in ms. */
  deliveryTimeoutMs?: number;
  /** Optional (docs/control-protocol-extensions.md): POST /reset calls the target has had since it started. */
  resets?: number;
  /** Optional (docs/control-protocol-extensions.md): someone uses this target by hand; a run's resets wipe what they made. */
  developmentServer?: boolean;
}

export interface TargetProfile {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  redirectUri: string;
  controlUrl?: string | null;
  controlToken?: string | null;
  fixtures?: Fixtures | null;
  capture?: { listen?: string; publicUrl?: string | null } | null;
  statusCheck?: { method: string; path: string } | null;
  /** Token cache file for targets without control (default .lockconf/tokens.json). */
  tokenCache?: string | null;
}

/** What global setup provides to test workers (vitest provide/inject, key 'lockconf'). */
export interface LockconfSetup {
  profile: TargetProfile;
  mock: boolean;
  fixtures: Fixtures | null;
  capabilities: Capability[];
  /** capability → why the target lacks it */
  missing: Partial<Record<Capability, string>>;
  capture: { controlUrl: string; publicBaseUrl: string; token: string; doors?: CaptureDoors } | null;
  seed: number;
  runDir: string | null;
}

// ── HTTP ──────────────────────────────────────────────────────────────────
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Raw body; or use form / json. */
  body?: string | Uint8Array;
  /** application/x-www-form-urlencoded body, fields in this order. */
  form?: Record<string, string> | Array<[string, string]>;
  json?: unknown;
  timeoutMs?: number;
}
export interface HttpResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body when the body parses as JSON, else undefined. */
  json: any;
  /** The Location header, or null. */
  location: string | null;
  durationMs: number;
}
/** One logged request/response, already redacted. */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string } | null;
  error?: string;
  durationMs: number;
  startedAt: string;
}
export interface HttpClientLike {
  request(req: HttpRequest): Promise<HttpResponse>;
  /** An API call to baseUrl + path with x-api-key, x-access-token and content-type: application/json. */
  api(method: string, path: string, opts: { accessToken?: string | null; apiKey?: string | null; json?: unknown; headers?: Record<string, string> }): Promise<HttpResponse>;
  exchanges(): Exchange[];
  /** The requests sent and not yet answered, oldest first (harness/run/pending-work.ts). */
  inFlight?(): Array<{ method: string; url: string; since: number }>;
}

// ── Redaction ─────────────────────────────────────────────────────────────
export type SecretKind = 'client_secret' | 'api_key' | 'control_token' | 'access_token' | 'refresh_token' | 'code' | 'capture_token' | 'webhook_token' | 'password' | 'sms_code';
export interface RedactorLike {
  /** Remember a secret; from now on redact() replaces it (and its URL-encoded forms). */
  add(value: string | null | undefined, kind: SecretKind): void;
  redact(text: string): string;
  /** A short, stable stand-in for a token, e.g. "‹access_token#3f2a9c›". */
  label(value: string): string;
}

// ── Capture server ────────────────────────────────────────────────────────
export interface Delivery {
  seq: number;
  inbox: string;
  method: string;
  /** Path and query as received. */
  url: string;
  /** host:port of this machine the delivery reached (an IPv6 address in brackets): which door of the capture server. */
  receivedOn?: string;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The exact bytes received. */
  rawBody: Buffer;
  /** rawBody as UTF-8 text. */
  bodyText: string;
  /** JSON.parse(bodyText), or undefined when it is not JSON. */
  json: any;
  /** Harness clock, epoch ms. */
  receivedAt: number;
  /** The status the inbox answered (or was told to: see closedBeforeAnswerAt). */
  answeredStatus: number;
  /**
   * Harness clock, epoch ms: the sender closed the connection while the inbox held
   * its answer (InboxResponse.delayMs), so no answer reached it. Absent otherwise.
   */
  closedBeforeAnswerAt?: number;
  /**
   * The body was larger than the capture server reads (limitBytes): rawBody holds
   * only its first bytes, the rest was never read, and the sender was answered 413.
   * Absent otherwise.
   */
  bodyTooLarge?: { limitBytes: number };
}
export interface InboxResponse {
  status?: number; // default 200
  /** Answer with a redirect to this URL (status defaults to 302). */
  location?: string;
  delayMs?: number;
  body?: string;
}
/** The capture server's other doors (harness/wire/capture/doors.ts): each a base url, or why it is missing. */
export type CaptureDoors = Partial<Record<'other-loopback' | 'ipv6-literal' | 'port-4-digits', { base: string } | { missing: string }>>;

export interface Inbox {
  id: string;
  /** The URL the target must post to (capture.publicUrl-based when set). */
  url: string;
  /** This inbox's url at another door of the capture server (another loopback host or port), or why there is none. */
  doorUrl?(door: keyof CaptureDoors): { url: string } | { missing: string };
  setResponse(response: InboxResponse): Promise<void>;
  deliveries(): Promise<Delivery[]>;
  /**
   * Resolves with the first n deliveries matching the predicate; rejects (ERR_DELIVERY_TIMEOUT) after timeoutMs.
   * `signal` ends the wait early (it rejects, and hands nothing out); `what` names the delivery in messages.
   */
  waitFor(n: number, opts?: { predicate?: (d: Delivery) => boolean; timeoutMs?: number; signal?: AbortSignal; what?: string }): Promise<Delivery[]>;
  /** Resolves with the deliveries that arrived during the window (callers assert it has the expected length). */
  collectFor(windowMs: number): Promise<Delivery[]>;
}
export interface CaptureClientLike {
  newInbox(opts?: { label?: string; response?: InboxResponse }): Promise<Inbox>;
}

// ── Control protocol ──────────────────────────────────────────────────────
export interface ControlEvent {
  kind: string;
  lockId?: string;
  userId?: string;
  value?: string;
  params?: Record<string, unknown>;
}
export interface ControlClientLike {
  fixtures(): Promise<Fixtures>;
  /** `redirectStatus`: the HTTP status of the redirect, when the target reports it (an optional extension of POST /consent). */
  consent(authorizationUrl: string, userId: string, decision: 'approve' | 'deny'): Promise<{ status: number; location: string | null; error?: string; redirectStatus?: number }>;
  now(): Promise<number>;
  advanceClock(ms: number): Promise<number>;
  resetClock(): Promise<number>;
  emit(event: ControlEvent): Promise<{ emitted: number; eventId: string | null }>;
  revokeRefreshToken(refreshToken: string): Promise<number>;
  /** `clientId`: the credential addressed (default: the profile's own). */
  setClientCredentials(enabled: boolean, clientId?: string): Promise<void>;
  reset(): Promise<void>;
}

// ── Target (in a test worker) ─────────────────────────────────────────────
export interface Target {
  setup: LockconfSetup;
  profile: TargetProfile;
  fixtures: Fixtures | null;
  has(capability: Capability): boolean;
  /** Why the capability is missing (undefined when present). */
  whyMissing(capability: Capability): string | undefined;
  redactor: RedactorLike;
}

// ── OAuth flows (harness/wire/oauth-flows.ts) ────────────────────────────────────────
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** Receipt time, harness clock, epoch ms. */
  receivedAt: number;
}
export interface AuthorizationResult {
  /** The Location the browser would be sent to, or null when the target refused to redirect. */
  location: string | null;
  /** Query of the Location, when there is one. */
  params: URLSearchParams;
  status: number;
  error?: string;
}
export interface Flows {
  authorizationUrl(opts?: { state?: string; redirectUri?: string; clientId?: string }): string;
  authorize(opts?: { user?: number; decision?: 'approve' | 'deny'; state?: string; redirectUri?: string; clientId?: string }): Promise<AuthorizationResult>;
  tokenRequest(form: Record<string, string> | Array<[string, string]>, opts?: { headers?: Record<string, string>; method?: string }): Promise<HttpResponse>;
  exchangeCode(code: string): Promise<HttpResponse>;
  refreshRaw(refreshToken: string): Promise<HttpResponse>;
  /** Refresh and insist on a 200 token response. */
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Fresh tokens for fixtures.users[user] (consent), or from the token cache. */
  userSession(user?: number): Promise<TokenSet>;
}

// ── The conformance test context ──────────────────────────────────────────
export interface ConformanceContext {
  requirement: Requirement;
  target: Target;
  http: HttpClientLike;
  capture: CaptureClientLike;
  control: ControlClientLike | null;
  flows: Flows;
  expect: typeof vitestExpect;
  /** Run fn as a check of another requirement; a failure counts against that ID at its level. */
  check(id: string, fn: () => void | Promise<void>): Promise<void>;
  /** Record an observation (shown in reports; never a failure). */
  observe(label: string, value: unknown): void;
  /** End the test as not tested, with the reason. */
  notTested(reason: string): never;
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /**
   * Run fn as the check of one declared slice ({ grant: 'refresh_token' }) of this
   * test's requirement, or of the t.check requirement it runs in (harness/run/slices.ts).
   * Soft: a failing slice is recorded, headed by the slice, and the test goes on.
   */
  slice(slice: Readonly<Record<string, string>>, fn: () => void | Promise<void>): Promise<void>;
  /** The declared values of a dimension (harness/catalog/slices) for this requirement, or `requirement`. */
  slices(dim: string, requirement?: string): string[];
  /** t.slice({ [dim]: value }, …) for every declared value of `dim`, in order. */
  eachSlice(dim: string, fn: (value: string) => void | Promise<void>): Promise<void>;
}
