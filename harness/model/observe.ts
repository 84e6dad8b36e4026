/**
 * What the model sees of an answer: the class of observation its rules speak of,
 * never more (a body's wording, header order or timing is not the model's concern).
 */

/** A token endpoint answer. */
export type TokenObservation =
  /** 2xx with access_token (string), expires_in (integer) and a refresh_token (string) other than the one redeemed. */
  | 'pair'
  /** As pair, but the refresh_token returned is the one redeemed. */
  | 'pair-same-refresh'
  /** 2xx with an access_token, the other fields missing or of other types. */
  | 'token-misshapen'
  /** HTTP 400 with a JSON object carrying a string "error" (RFC 6749 §5.2), no token. */
  | 'refused-400-oauth'
  /** HTTP 400 with any other body, no token. */
  | 'refused-400-other'
  /** Any other status, no token. */
  | 'refused-other-status';

/** An API answer. */
export type ApiObservation = 'accepted-rotated' | 'accepted-unrotated' | 'refused-401' | 'other-status';

/** What the webhook rules speak of: an endpoint's answer, and what reached a registration's url. */
export type WebhookObservation = 'answered-2xx' | 'refused' | 'delivered' | 'nothing-delivered' | 'delivered-wrongly';

export type Observation = TokenObservation | ApiObservation | WebhookObservation;

export const REFUSALS: readonly TokenObservation[] = ['refused-400-oauth', 'refused-400-other', 'refused-other-status'];

/** The shape of an answer the model reads (harness/contracts.ts HttpResponse has it). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  json: any;
}

export function observeToken(res: Answer, redeemed?: string): TokenObservation {
  const j = res.json;
  const token: unknown = j?.access_token;
  if (res.status >= 200 && res.status < 300 && token !== undefined && token !== null && token !== '') {
    const whole = typeof token === 'string' && typeof j.refresh_token === 'string' && j.refresh_token !== '' && Number.isInteger(j.expires_in);
    if (!whole) return 'token-misshapen';
    return redeemed !== undefined && j.refresh_token === redeemed ? 'pair-same-refresh' : 'pair';
  }
  if (res.status === 400) return j && typeof j === 'object' && !Array.isArray(j) && typeof j.error === 'string' ? 'refused-400-oauth' : 'refused-400-other';
  return 'refused-other-status';
}

export function observeApi(res: Answer): ApiObservation {
  if (res.status >= 200 && res.status < 300) return res.headers['x-access-token'] ? 'accepted-rotated' : 'accepted-unrotated';
  return res.status === 401 ? 'refused-401' : 'other-status';
}
