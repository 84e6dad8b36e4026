/**
 * Token-endpoint requests made exactly as written (no helper adds or moves
 * credentials), and small token utilities. Every code and token obtained here is
 * handed to the redactor before it can reach a log.
 */
import { randomInt } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';
import { PrerequisiteFailed } from './prerequisite.js';

export function tokenUrl(t: SuiteContext): string {
  return `${t.target.profile.authUrl.replace(/\/+$/, '')}/access_token`;
}

/** POST {auth_url}/access_token with exactly this form body and these headers. */
export async function postToken(
  t: SuiteContext,
  form: Record<string, string> | Array<[string, string]>,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  const res = await t.http.request({ method: 'POST', url: tokenUrl(t), form, headers });
  rememberTokens(t, res);
  return res;
}

/** POST with a raw body (to send what a broken shell command would send). */
export async function postTokenRaw(t: SuiteContext, body: string): Promise<HttpResponse> {
  const res = await t.http.request({
    method: 'POST', url: tokenUrl(t), body, headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  rememberTokens(t, res);
  return res;
}

/** Any tokens in a response are secrets from now on. */
export function rememberTokens(t: SuiteContext, res: HttpResponse): void {
  const j = res.json;
  if (j && typeof j === 'object') {
    if (typeof j.access_token === 'string') t.target.redactor.add(j.access_token, 'access_token');
    if (typeof j.refresh_token === 'string') t.target.redactor.add(j.refresh_token, 'refresh_token');
  }
  const rotated = res.headers['x-access-token'];
  if (rotated) t.target.redactor.add(rotated, 'access_token');
}

/** True when the response issued a token: the only thing a refusal must not do. */
export function tokenIssued(res: HttpResponse): boolean {
  // Issued whatever the field's type (a wrong type is TOKEN-RESPONSE-SHAPE's to judge: grants.ts tokenResponseOf).
  const token: unknown = res.json?.access_token;
  return res.status >= 200 && res.status < 300 && token !== undefined && token !== null && token !== '';
}

/**
 * A fresh authorization code for fixtures.users[user], through consent. None blocks the
 * test by OAUTH-CODE-ON-APPROVAL (whose own test judges it).
 */
export async function freshCode(t: SuiteContext, user = 0): Promise<string> {
  const result = await t.flows.authorize({ user, decision: 'approve' });
  const code = result.params.get('code');
  if (!code) {
    throw new PrerequisiteFailed('OAUTH-CODE-ON-APPROVAL', `approval must redirect to redirect_uri with a code; got location ${result.location === null ? 'none' : 'without code'} (status ${result.status}${result.error ? `, ${result.error}` : ''})`);
  }
  t.target.redactor.add(code, 'code');
  return code;
}

export function codeGrant(t: SuiteContext, code: string): Record<string, string> {
  const p = t.target.profile;
  return { grant_type: 'authorization_code', client_id: p.clientId, client_secret: p.clientSecret, code };
}

export function refreshGrant(t: SuiteContext, refreshToken: string): Record<string, string> {
  const p = t.target.profile;
  return { grant_type: 'refresh_token', client_id: p.clientId, client_secret: p.clientSecret, refresh_token: refreshToken };
}

export function basicHeader(user: string, password: string): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}

/**
 * Basic headers that are not a credential's (TOKEN-BASIC-IGNORED's `basic-content`, "any values, real or
 * bogus"): well-formed bogus credentials, and what an RFC 7617 parser chokes on. Each is a legal header value.
 */
export const BOGUS_BASIC_HEADERS = {
  bogus: basicHeader('lockconf-bogus-client', 'lockconf-bogus-secret'),
  'no-colon': 'Basic ' + Buffer.from('lockconf-bogus-without-colon', 'utf8').toString('base64'),
  'not-base64': 'Basic !lockconf*not~base64?',
  empty: 'Basic',
  'non-ascii': basicHeader('lockconf-bogus-clïent', 'sécret-ünicode'),
} as const;

/** The JWT's claims, or null when the string is not a JWT (jose decodes without verifying). */
export function jwtClaims(token: string): JWTPayload | null {
  try {
    decodeProtectedHeader(token);
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/**
 * True when the string is a JWT (RFC 7519 §7.2): a JWS whose payload decodes to a claims
 * object, or a JWE in compact form (five segments, a protected header naming alg and enc)
 * whose claims are encrypted and so cannot be read here.
 */
export function isJwt(token: string): boolean {
  if (jwtClaims(token) !== null) return true;
  if (token.split('.').length !== 5) return false;
  try {
    const header = decodeProtectedHeader(token);
    return typeof header.alg === 'string' && typeof header.enc === 'string';
  } catch {
    return false;
  }
}

/** The JWT's exp in epoch seconds, when it carries one. */
export function jwtExp(token: string): number | null {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();

/**
 * A token of the same shape the target never issued: every letter and digit
 * replaced by a random one of the same class (hex stays hex), punctuation kept.
 */
export function sameShapeToken(real: string): string {
  const hex = /^[0-9a-fA-F]+$/.test(real);
  const pools = hex
    ? { digit: DIGITS, lower: 'abcdef', upper: 'ABCDEF' }
    : { digit: DIGITS, lower: LOWER, upper: UPPER };
  let out = '';
  for (const ch of real) {
    const pool = DIGITS.includes(ch) ? pools.digit : LOWER.includes(ch) ? pools.lower : UPPER.includes(ch) ? pools.upper : null;
    out += pool ? pool[randomInt(pool.length)] : ch;
  }
  return out === real ? sameShapeToken(real) : out;
}

/** The JWT with its signature altered (one character of the last segment changed). */
export function tamperedJwt(token: string): string {
  const dot = token.lastIndexOf('.');
  if (dot < 0 || dot === token.length - 1) return token + 'x';
  const sig = token.slice(dot + 1);
  const i = Math.floor(sig.length / 2);
  const swapped = sig[i] === 'A' ? 'B' : 'A';
  return token.slice(0, dot + 1) + sig.slice(0, i) + swapped + sig.slice(i + 1);
}
