/**
 * Registers every token and code a response reveals with the redactor, the
 * moment the response arrives: token-endpoint JSON (access_token,
 * refresh_token), the rotated x-access-token header of API responses, and a
 * `code` in a redirect's Location, and the sign-in extension's password and
 * SMS code (control GET /sign-in/account, /sign-in/sms). The harness's HttpClient does the same; the
 * flows call this too so they stay safe over any HttpClientLike.
 */
import type { HttpResponse, RedactorLike, SecretKind } from '../contracts.js';

const JSON_TOKEN_FIELDS: Array<[string, SecretKind]> = [
  ['access_token', 'access_token'],
  ['refresh_token', 'refresh_token'],
  ['id_token', 'access_token'],
  ['code', 'code'],
  // The sign-in screens' control extension (GET /sign-in/account): the test account's password.
  ['password', 'password'],
];

export function harvestSecrets(res: Pick<HttpResponse, 'json' | 'headers' | 'location'>, redactor: RedactorLike): void {
  const json: unknown = res.json;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    for (const [field, kind] of JSON_TOKEN_FIELDS) {
      const value = (json as Record<string, unknown>)[field];
      if (typeof value === 'string' && value !== '') redactor.add(value, kind);
    }
  }
  const rotated = res.headers['x-access-token'];
  if (rotated) redactor.add(rotated, 'access_token');
  redactor.add(codeFromLocation(res.location), 'code');
}

/** The `code` query parameter of a Location (absolute or relative), or null. */
export function codeFromLocation(location: string | null | undefined): string | null {
  const params = locationParams(location);
  return params.get('code');
}

/** The query parameters of a Location (absolute or relative); empty when there is none. */
export function locationParams(location: string | null | undefined): URLSearchParams {
  if (!location) return new URLSearchParams();
  try {
    return new URL(location, 'http://relative.invalid/').searchParams;
  } catch {
    const q = location.indexOf('?');
    return new URLSearchParams(q >= 0 ? location.slice(q + 1).split('#')[0] : '');
  }
}
