/**
 * For each operation a client of the service can make, the SET of observations the
 * spec allows in the model's state, and the rule an observation outside that set
 * breaks. Freedoms are sets of more than one: a refused client_credentials grant
 * may have any status ("status not described"); near the year mark a refresh may go
 * either way; a rotated token has no known end. The model predicts what may
 * happen, never what one implementation happens to do.
 */
import { RULES, type ModelRule } from './rules.js';
import { REFUSALS, type ApiObservation, type Observation, type TokenObservation } from './observe.js';
import {
  DAY, MARGIN_MS, MIN_ACCESS_LIFETIME_MS, SURELY_PAST_YEAR_MS, SURELY_WITHIN_YEAR_MS,
  type AccessToken, type Code, type ModelState, type RefreshToken,
} from './state.js';

export interface Prediction<O extends Observation = Observation> {
  /** The situation, in the model's words (no secret). */
  what: string;
  allowed: readonly O[];
  /** The rule an observation outside `allowed` breaks… */
  rule: ModelRule;
  /** …unless it is one of these, which break another rule. */
  otherwise?: Partial<Record<O, ModelRule>>;
}

export interface Violation {
  rule: ModelRule;
  what: string;
  expected: readonly Observation[];
  observed: Observation;
}

/** null when the observation is one the spec allows; else the rule it breaks. */
export function judge<O extends Observation>(p: Prediction<O>, observed: O): Violation | null {
  if (p.allowed.includes(observed)) return null;
  return { rule: p.otherwise?.[observed] ?? p.rule, what: p.what, expected: p.allowed, observed };
}

/** The approval of an authorization request must redirect with a code (OAUTH-CODE-ON-APPROVAL). */
export function judgeApproval(gotCode: boolean, what: string): Violation | null {
  return gotCode ? null : { rule: RULES.codeOnApproval, what, expected: ['pair'], observed: 'refused-other-status' };
}

const SHAPE = { 'token-misshapen': RULES.tokenShape } as const;
const ERROR_BODY = { 'refused-400-other': RULES.refreshErrorBody, 'refused-other-status': RULES.refreshErrorBody } as const;

/** POST /access_token grant_type=authorization_code with `code`, as credential `cred`. */
export function predictExchange(m: ModelState, code: Code, cred: number): Prediction<TokenObservation> {
  if (code.cred !== cred) {
    return { what: 'a code issued to another credential', allowed: REFUSALS, rule: RULES.codeOtherClient };
  }
  if (code.status === 'fresh' && m.now === code.issuedAt) {
    return { what: 'a fresh code, exchanged at once by its own credential', allowed: ['pair'], rule: RULES.codeExchange, otherwise: SHAPE };
  }
  // A code's lifetime is not given (RFC 6749: "shortly"); whether another credential's try spent it is not described.
  return { what: code.status === 'contested' ? 'a code another credential tried' : 'a code after the clock moved', allowed: ['pair', ...REFUSALS], rule: RULES.codeExchange, otherwise: SHAPE };
}

/** POST /access_token grant_type=client_credentials as credential `cred`. */
export function predictClientCredentials(m: ModelState, cred: number): Prediction<TokenObservation> {
  if (m.ccPermitted[cred]) return { what: 'client_credentials, permitted for this credential', allowed: ['pair'], rule: RULES.ccPermitted, otherwise: SHAPE };
  const otherPermitted = m.ccPermitted.some((on, i) => on && i !== cred);
  return {
    what: otherPermitted ? 'client_credentials, permitted for another credential only' : 'client_credentials without permission',
    allowed: REFUSALS, // "Rejected (status not described)"
    rule: otherPermitted ? RULES.ccPerCredential : RULES.ccWithoutPermission,
  };
}

/** POST /access_token grant_type=refresh_token with a token the sequence holds, as credential `cred`. */
export function predictRefresh(m: ModelState, token: RefreshToken, cred: number): Prediction<TokenObservation> {
  const age = m.now - token.issuedAt;
  const days = Math.floor(age / DAY);
  if (token.cred !== cred) {
    return { what: 'a refresh token issued to another credential', allowed: REFUSALS, rule: RULES.refreshOtherClient };
  }
  if (token.status !== 'issued') {
    const rule = token.status === 'used' ? RULES.refreshSingleUse : token.status === 'revoked' ? RULES.refreshRevoked : RULES.refreshExpired;
    return { what: `a ${token.status} refresh token`, allowed: ['refused-400-oauth'], rule, otherwise: ERROR_BODY };
  }
  const renewal = { 'pair-same-refresh': RULES.refreshNewPair, ...SHAPE, ...ERROR_BODY } as const;
  if (token.contested) {
    // Whether another credential's try spent it is not described, nor how a refusal then is answered.
    return { what: 'a refresh token another credential tried', allowed: ['pair', ...REFUSALS], rule: RULES.refreshNewPair, otherwise: renewal };
  }
  if (age < SURELY_WITHIN_YEAR_MS) {
    const rule = token.account === 'application' && token.link === 1 ? RULES.ccRefreshWorks : age > DAY ? RULES.refreshWithinYear : RULES.refreshNewPair;
    return { what: `an issued refresh token, ${days} day(s) old`, allowed: ['pair'], rule, otherwise: { 'pair-same-refresh': RULES.refreshNewPair, ...SHAPE } };
  }
  if (age > SURELY_PAST_YEAR_MS) {
    return { what: `an issued refresh token, ${days} days old (past a year)`, allowed: ['refused-400-oauth'], rule: RULES.refreshExpired, otherwise: ERROR_BODY };
  }
  // A year is 365 or 366 days: either answer near the mark.
  return { what: `an issued refresh token, ${days} days old (at the year mark)`, allowed: ['pair', 'refused-400-oauth'], rule: RULES.refreshExpired, otherwise: renewal };
}

/**
 * POST /access_token grant_type=refresh_token with a token of the right shape the service never issued: refused
 * (REFRESH-UNKNOWN-REFUSED). How is not in the spec (its Errors row names expired, used and revoked tokens): any
 * refusal here; RFC 6749 §5.2's 400 is REFRESH-UNKNOWN-ERROR-ANSWER's (SHOULD), judged by its own test.
 */
export function predictUnknownRefresh(): Prediction<TokenObservation> {
  return { what: 'a refresh token the service never issued', allowed: REFUSALS, rule: RULES.refreshUnknown };
}

/** An API call with an access token the sequence holds (`tampered`: its signature altered). */
export function predictApi(m: ModelState, token: AccessToken, tampered = false): Prediction<ApiObservation> {
  const unrotated = { 'accepted-unrotated': RULES.rotationOnSuccess } as const;
  if (tampered) return { what: 'an access token with its signature altered', allowed: ['refused-401'], rule: RULES.invalid401 };
  const hours = Math.floor((m.now - token.receivedAt) / 3_600_000);
  const which = `${token.superseded ? 'an older' : 'the newest'} access token (${token.source === 'rotation' ? 'rotated' : `from ${token.source}`}, ${hours} h old)`;
  if (m.revokedSessions.includes(token.session)) {
    // What revoking a refresh token does to the access tokens of its session is not described.
    return { what: `${which}, of a session whose refresh token was revoked`, allowed: ['accepted-rotated', 'refused-401'], rule: RULES.invalid401, otherwise: unrotated };
  }
  if (m.now + MARGIN_MS < token.validUntil) {
    return { what: `${which}, still valid`, allowed: ['accepted-rotated'], rule: acceptRule(m, token), otherwise: unrotated };
  }
  if (token.expiresBy !== null && m.now > token.expiresBy + MARGIN_MS) {
    return { what: `${which}, past its expires_in`, allowed: ['refused-401'], rule: RULES.expired401 };
  }
  return { what: `${which}, near or past the end of its known validity`, allowed: ['accepted-rotated', 'refused-401'], rule: RULES.expired401, otherwise: unrotated };
}

/** Why a token the model knows valid must be accepted: the most particular rule that says so. */
function acceptRule(m: ModelState, token: AccessToken): ModelRule {
  const young = m.now - token.receivedAt < MIN_ACCESS_LIFETIME_MS;
  if (token.shortLived && young) return RULES.lifetime24h;
  if (token.superseded) return RULES.previousValid;
  switch (token.source) {
    case 'rotation': return !token.used ? RULES.rotatedWorks : young ? RULES.lifetime24h : RULES.rotationExtends;
    case 'refresh_token': return RULES.refreshAccessWorks;
    case 'client_credentials': return RULES.ccTokenWorks;
    case 'authorization_code': return RULES.codeExchange;
  }
}
