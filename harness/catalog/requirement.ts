/**
 * What a requirement is: its level, area, the capabilities a test may need, and
 * `r()`, the one way the catalog files declare an entry.
 */

export type Level = 'MUST' | 'SHOULD' | 'INFO';

/** What a test needs from the target beyond the six required profile fields. */
export type Capability =
  | 'control' // the control protocol (any of it)
  | 'consent' // POST /consent: act as the user at the sign-in and consent screens
  | 'clock' // POST /clock: move the target's clock
  | 'events' // POST /events: make a lock or user emit an event
  | 'revoke' // POST /refresh-tokens/revoke
  | 'client-credentials' // POST /client-credentials: grant the client_credentials permission
  | 'user-token' // a user access + refresh token (from consent, or from the token cache)
  | 'second-user' // a second user's token (fixtures users[1])
  | 'second-client' // a further client credential (fixtures clients[0], an optional field of GET /fixtures)
  | 'capture'; // a capture server the target can reach

export type Area =
  | 'OAuth authorization'
  | 'Token endpoint'
  | 'Client credentials'
  | 'Refresh tokens'
  | 'API headers'
  | 'Webhook registration'
  | 'Webhook delivery'
  | 'Webhook signature'
  | 'Event payloads'
  | 'Webhook receiver'
  | 'OAuth client';

export interface Requirement {
  /** Stable ID, e.g. OAUTH-STATE-ECHO. */
  id: string;
  level: Level;
  /** Spec area (Allure epic, report group, suite file). */
  area: Area;
  /** The spec section (heading) the rule comes from, or the RFC section. */
  section: string;
  /** Where the rule comes from: the spec, or an RFC clause OAuth 2.0 itself imposes. */
  source: string;
  /** The rule, quoted verbatim from the spec or RFC (cuts marked …, nothing added). */
  rule: string;
  /** lockconf's reading of the rule, kept apart from the quote: what the test checks and why. */
  reading?: string;
  /** Set when no test can check this requirement; the reason is reported. */
  untestable?: string;
  /** Set on a MUST or SHOULD requirement that no mock fault can break: why none can exist. */
  noFault?: string;
}

export const SPEC = 'Lock Access Service spec';
/**
 * The source of a requirement that rests on lockconf's control contract (a promise of the
 * target's test hooks) rather than on the spec: its failure says so, and it is never MUST.
 */
export const CONTROL_PROTOCOL = 'lockconf control protocol (docs/control-protocol.md)';

/** Declares a requirement; `extra.source` defaults to the service spec. */
export function r(
  id: string,
  level: Level,
  area: Area,
  section: string,
  rule: string,
  extra: Partial<Pick<Requirement, 'source' | 'untestable' | 'noFault' | 'reading'>> = {},
): Requirement {
  return { id, level, area, section, source: extra.source ?? SPEC, rule, ...(extra.untestable ? { untestable: extra.untestable } : {}), ...(extra.noFault ? { noFault: extra.noFault } : {}), ...(extra.reading ? { reading: extra.reading } : {}) };
}
