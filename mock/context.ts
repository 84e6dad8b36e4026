/**
 * What every module of the mock is handed: one clock, one fault set, the
 * credentials, the world, and the services other modules provide. Modules own
 * their own state and register a reset for POST /_control/reset.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { FaultSet } from './faults.js';
import type { FreedomSet } from './freedoms.js';
import type { GradingStore } from './grading/store.js';
import type { World } from './world.js';
import type { CommandStyle } from './commands.js';
import type { DeliveryLog } from './webhooks/delivery-log.js';

export interface Credentials {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  /** The one registered redirect URI. */
  redirectUri: string;
  controlToken: string;
  /** A second registered redirect URI: a loopback address `npm run login` listens on (docs/mock.md). */
  loginRedirectUri?: string;
}

/** Options of createMock() and `npm run mock`. Variants are legal choices the spec leaves open. */
export interface MockOptions {
  host?: string; // default 127.0.0.1
  port?: number; // default 0 (ephemeral); `npm run mock` defaults to 4010
  faults?: Iterable<string>;
  /**
   * Legal alternatives the spec leaves open, each written FREEDOM-ID=alternative
   * (mock/freedoms.ts; declared in harness/catalog/freedoms.ts). Default: none, the mock's own choices.
   */
  freedoms?: Iterable<string>;
  /** Serve the control protocol at /_control (default true). */
  control?: boolean;
  /** Fixed credentials (otherwise random per instance). */
  credentials?: Partial<Credentials>;
  /** Access token lifetime in seconds (default four months: 10_368_000). */
  accessTokenLifetimeSec?: number;
  /** Variant: encoding of the X-Signature v value (default hex). */
  signatureEncoding?: 'hex' | 'base64';
  /** Variant: lock IDs in lower-case hex (default upper case). */
  lowerCaseLockIds?: boolean;
  /** Variant: add unknown extra fields to token responses and webhook payloads. */
  extraFields?: boolean;
  /** Give up on a webhook receiver after this long (default 5000 ms). */
  deliveryTimeoutMs?: number;
  /** Variant: the webhook endpoints answer with no body, 201 to a registration and 204 to a deletion (default 200 with JSON). */
  emptyWebhookAnswers?: boolean;
  /** Variant: the X-Signature t element in epoch seconds (default milliseconds). */
  signatureTimestampSeconds?: boolean;
  /** Variant: each delivery's X-Signature in the next legal layout (webhooks/signature.ts SIGNATURE_LAYOUTS; default t=…,v=…). */
  signatureLayouts?: boolean;
  /** Variant: bridge events list every lock on the bridge (default: the lock concerned alone). */
  bridgeListsAllLocks?: boolean;
  /**
   * Variant: values the system rows leave open, chosen otherwise: lock_battery_alert's userID
   * keeps the name's capitals ("lower-case name" is the field's spelling), and
   * lock_log_timestamp_drifted's warningLevel is clock_warning whatever level was asked for.
   */
  freeSystemValues?: boolean;
  /** Log lines (SMS codes, sign-in hints); default: none. */
  log?: (line: string) => void;
  /** How the pages name lockconf's commands (mock/commands.ts): `npm run …` (default) or `npx lockconf …`. */
  commandStyle?: CommandStyle;
  /**
   * The redirectUri of the published profile, when it is not the registered one
   * (`npm run mock`: the login redirect URI its profile file names), so the page and
   * the file show one value.
   */
  profileRedirectUri?: string;
  /** Record every request of the application's client for grading (mock/grading/; `npm run mock -- --grade`). */
  grade?: boolean;
  /**
   * A development server someone uses by hand (`lockconf mock`): GET /_control/fixtures says so
   * (`developmentServer`, docs/control-protocol-extensions.md), so a conformance run warns
   * before its resets wipe the registrations and tokens made on it; the mock logs a run's arrival.
   */
  developmentServer?: boolean;
  /** Stable identities: credentials, user and lock IDs derived from this seed (mock/identities.ts). */
  seed?: number;
  /**
   * RFC 9700 §4.14.2: a replayed spent refresh token revokes its whole grant (default
   * false: the spec's refresh-token table gives a used token's reuse no effect but the
   * 400; docs/mock-security.md).
   */
  revokeOnRefreshReplay?: boolean;
  /** Structured logs (fastify's logger: errors, deliveries, lockouts) at this level; default silent. */
  logLevel?: 'silent' | 'fatal' | 'error' | 'warn' | 'info' | 'debug';
  /** Client timeouts of the server (default mock/server-timeouts.ts; tests shorten them). */
  serverTimeouts?: Partial<import('./server-timeouts.js').ServerTimeouts>;
  /** Serve the run lease, POST and DELETE /_control/lease (default true; false: a target without the extension). */
  lease?: boolean;
  /**
   * Variant: deliveries fan out in a random order with random latency, and OAuth and API
   * requests are answered after a random delay, from a seeded generator (mock/jitter.ts).
   */
  jitter?: import('./jitter.js').JitterOptions;
  /**
   * Not a variant: false makes a target whose webhooks never arrive (every delivery is
   * dropped before it is sent), to test how the harness's waits end against it (default true).
   */
  deliveries?: boolean;
}

export interface ResolvedMockOptions {
  /** Default 'npm'. */
  commandStyle?: CommandStyle;
  developmentServer?: boolean;
  host: string;
  port: number;
  control: boolean;
  accessTokenLifetimeSec: number;
  signatureEncoding: 'hex' | 'base64';
  lowerCaseLockIds: boolean;
  extraFields: boolean;
  deliveryTimeoutMs: number;
  emptyWebhookAnswers?: boolean;
  signatureTimestampSeconds?: boolean;
  signatureLayouts?: boolean;
  bridgeListsAllLocks?: boolean;
  revokeOnRefreshReplay?: boolean;
  lease?: boolean;
  freeSystemValues?: boolean;
  /** MockOptions.deliveries: false drops every delivery unsent. */
  deliveries?: boolean;
}

export interface AccessTokenClaims {
  userId: string | null; // null for a client_credentials token of the application's own account
  clientId: string;
  /** Expiry, epoch ms. */
  expiresAtMs: number;
  issuedAtMs: number;
  /** The grant the token belongs to (mock/oauth/grants.ts); tokens rotated from it keep it. */
  grantId?: string;
}

/** Issues and checks access tokens (JWTs). Provided by the OAuth side. */
export interface AccessTokenService {
  /** `opaque`: a random string the API accepts, not a JWT (a slice fault of TOKEN-ACCESS-TOKEN-JWT). */
  issue(claims: { userId: string | null; clientId: string; expiresAtMs?: number; grantId?: string; opaque?: boolean }): Promise<{ token: string; expiresAtMs: number }>;
  /** The token's claims, or null when it is malformed, badly signed, expired or revoked. */
  verify(token: string, opts?: { ignoreExpiry?: boolean }): Promise<AccessTokenClaims | null>;
}

/** A control-protocol event request (POST /_control/events). */
export interface EventRequest {
  kind: string;
  lockId?: string;
  userId?: string;
  value?: string;
  params?: Record<string, unknown>;
}

/** Emits events to matching webhook registrations. Provided by the webhook side. */
export interface EventService {
  /** Throws ControlError (404 unknown lock/user, 422 bad kind/value) on bad requests. */
  emit(request: EventRequest): Promise<{ emitted: number; eventId: string | null }>;
}

/** A 4xx the control protocol answers: {"error": code, "message": message}. */
export class ControlError extends Error {
  constructor(readonly statusCode: 400 | 401 | 404 | 409 | 422, readonly code: string, message: string) {
    super(message);
    this.name = 'ControlError';
  }
}

export interface MockContext {
  options: ResolvedMockOptions;
  clock: Clock;
  faults: FaultSet;
  /** The legal alternatives chosen (MockOptions `freedoms`; mock/freedoms.ts). */
  freedoms: FreedomSet;
  credentials: Credentials;
  world: World;
  log: (line: string) => void;
  /** The server's structured logger (set by createMock; never given secrets). */
  logger?: FastifyBaseLogger;
  /** Set by the OAuth side during start-up. */
  tokens: AccessTokenService;
  /** Set by the webhook side during start-up. */
  events: EventService;
  /** Further client credentials besides `credentials` (GET /_control/fixtures `clients`; mock/oauth/other-clients.ts). */
  otherClients?: import('./oauth/other-clients.js').OtherClient[];
  /** Client IDs permitted to use the client_credentials grant (control protocol). */
  clientCredentialsEnabled: Set<string>;
  /** Each module pushes the function that restores its initial state. */
  onReset: Array<() => void>;
  /** Set by the OAuth side during start-up (optional so a context can be built without it). */
  oauth?: OAuthControl;
  /** The SMS codes the sign-in pages sent (control GET /sign-in/sms); set by the OAuth side. */
  smsOutbox?: import('./oauth/sms-outbox.js').SmsOutbox;
  /** The grading recording, when the mock grades its clients (options.grade). */
  grading?: GradingStore;
  /** What the mock sent where (mock/webhooks/delivery-log.ts); set at start-up. */
  deliveryLog?: DeliveryLog;
  /** Random delays of the jitter variant (options.jitter), when on. */
  jitter?: import('./jitter.js').Jitter;
}

/** What the control protocol's POST /consent answers (control-protocol.md). */
export type ConsentOutcome =
  | { status: 200; location: string; /** The HTTP status of the redirect the browser receives (302). */ redirectStatus: number }
  | { status: 404 | 422; location: null; error: string; message: string };

/** The OAuth side's test hooks, used by the control protocol. Set by registerOAuth. */
export interface OAuthControl {
  /** Act as the user's browser at sign-in, SMS and consent for an authorization request URL. */
  consent(authorizationUrl: string, userId: string, decision: 'approve' | 'deny'): ConsentOutcome;
  /** Revoke a refresh token; false when the token is unknown. */
  revokeRefreshToken(refreshToken: string): boolean;
}
