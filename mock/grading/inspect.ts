/**
 * Pure helpers of the grading recorder: where a secret appears, how a header
 * value stands against the value issued, what a form or query holds.
 */
import { differingUrlParts } from '../url-diff.js';
import type { FormValueState, HeaderValueState } from './recording.js';

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** The places (labels) among `parts` where the secret appears, raw or percent-decoded. */
export function placesOf(secret: string, parts: ReadonlyArray<[label: string, text: string | undefined]>): string[] {
  if (!secret) return [];
  const out: string[] = [];
  for (const [label, text] of parts) {
    if (text && (text.includes(secret) || safeDecode(text).includes(secret))) out.push(label);
  }
  return out;
}

/** A header value against the value issued: as issued, missing, percent-encoded or another value. */
export function headerState(value: string | string[] | undefined, issued: string | null): HeaderValueState {
  if (value === undefined || value === '') return 'missing';
  const v = Array.isArray(value) ? value.join(',') : value;
  if (issued === null) return /%[0-9A-Fa-f]{2}/.test(v) ? 'url-encoded' : 'ok';
  if (v === issued) return 'ok';
  return safeDecode(v) === issued ? 'url-encoded' : 'wrong';
}

/** The value a header carries once percent-decoding is undone (the token the client meant). */
export function decodedHeader(value: string | string[] | undefined): string | null {
  if (value === undefined || value === '') return null;
  const v = Array.isArray(value) ? value.join(',') : value;
  return /%[0-9A-Fa-f]{2}/.test(v) ? safeDecode(v) : v;
}

/** Client ID and secret of an Authorization: Basic header, or null. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: safeDecode(decoded.slice(0, colon)), secret: safeDecode(decoded.slice(colon + 1)) };
}

/** A plain object's string fields (a parsed form or JSON body), or an empty map. */
export function stringFields(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (typeof v === 'string') out.set(k, v);
  return out;
}

const REGISTRATION_STRINGS = ['url', 'method', 'clientID', 'header', 'token'] as const;

/**
 * What a webhook registration body holds against the types of "Webhook registration
 * (request body)": url, method, clientID, header and token strings (url a URL),
 * notificationTypes an array of string. A field left out is no error (the spec does not
 * say which are required); one of another type is.
 */
export function registrationTypeErrors(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return ['the body is not a JSON object'];
  const b = body as Record<string, unknown>;
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : `a ${typeof v}`);
  const out: string[] = [];
  for (const f of REGISTRATION_STRINGS) if (f in b && typeof b[f] !== 'string') out.push(`${f} is ${kind(b[f])}, not a string`);
  if (typeof b.url === 'string' && !URL.canParse(b.url)) out.push('url is not a URL');
  const groups = b.notificationTypes;
  if ('notificationTypes' in b) {
    if (!Array.isArray(groups)) out.push(`notificationTypes is ${kind(groups)}, not an array of string`);
    else if (groups.some((g) => typeof g !== 'string')) out.push('notificationTypes holds an element that is not a string');
  }
  return out;
}

/** The field names of a URL's query. */
export function queryNames(url: string): string[] {
  return [...new URL(url, 'http://mock.invalid').searchParams.keys()];
}

/** An API key for a graded mock: holds '/' and '+' so that URL-encoding it changes it. */
export function gradingApiKey(random: Buffer): string {
  return `${random.toString('base64').replace(/=+$/, '')}+/k`;
}

/**
 * A client secret for a graded mock: holds "+", "&", "=" and "/" so that a form body
 * built without URL-encoding alters it ("+" decodes to a space, "&" ends the field).
 */
export function gradingClientSecret(random: Buffer): string {
  return `${random.toString('base64url')}+&=/s`;
}

/** The characters a graded mock adds to its codes and refresh tokens: a form or query built without URL-encoding alters them. */
export const GRADING_ESCAPES = '+/=';


/** The value a form parser reads when `real` is pasted into a body as it is: cut at "&", "+" read as a space, escapes decoded. */
export function rawPasteOf(real: string): string | null {
  const first = real.split('&')[0] ?? '';
  try {
    return decodeURIComponent(first.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The form fields whose value a body built without URL-encoding (or encoded twice) altered:
 * client_secret against the real one; code and refresh_token by the end every graded code
 * and refresh token has (GRADING_ESCAPES), read as a space and "/=", or still percent-encoded.
 */
export function formEncodingErrors(form: ReadonlyMap<string, string>, secret: string): string[] {
  const out: string[] = [];
  const secretState = formValueState(form.get('client_secret'), secret);
  if (secretState === 'not-encoded') out.push('client_secret (not URL-encoded)');
  else if (form.get('client_secret') === encodeURIComponent(secret) && secret !== encodeURIComponent(secret)) out.push('client_secret (URL-encoded twice)');
  for (const field of ['code', 'refresh_token']) {
    const v = form.get(field);
    if (v?.endsWith(rawPasteOf(GRADING_ESCAPES)!)) out.push(`${field} (not URL-encoded)`);
    else if (v?.endsWith(encodeURIComponent(GRADING_ESCAPES))) out.push(`${field} (URL-encoded twice)`);
  }
  return out;
}

export function formValueState(received: string | undefined, real: string): FormValueState {
  if (received === undefined || received === '') return 'missing';
  if (received === real) return 'ok';
  return rawPasteOf(real) === received ? 'not-encoded' : 'wrong';
}

/** The endpoint as the spec names it (`GET /users/me`, `/remoteoperate/status`), from the method and the route's pattern; null for another path. */
export function specEndpointName(method: string, route: string): string | null {
  const r = route.replace(/^\/api/, '');
  if (r.startsWith('/remoteoperate/')) return '/remoteoperate/status';
  const name = `${method.toUpperCase()} ${r}`;
  const known = ['GET /users/me', 'GET /users/locks/mine', 'POST /webhook/:lockID', 'POST /webhook/user', 'DELETE /webhook/:lockID/:clientID', 'DELETE /webhook/user'];
  return known.includes(name) ? name : null;
}

/** The components of a redirect_uri that differ from the registered one: scheme, host, port, path, query, or only the letter case. */
export function redirectUriDiff(sent: string, registered: string): string[] {
  if (sent === registered) return [];
  if (sent.toLowerCase() === registered.toLowerCase()) return ['case'];
  const differ = differingUrlParts(sent, registered, { foldPathCase: true });
  if (differ === null) return ['path'];
  return differ.length ? differ : ['case'];
}

/** The parameters of a raw query string whose value holds a character URL-encoding escapes (":", "/", "?", "@", "$", ",", ";", "[", "]", a space, non-ASCII, a "%" not starting an escape). */
export function unencodedParams(rawUrl: string, names: readonly string[]): string[] {
  const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1).split('#')[0]! : '';
  const out: string[] = [];
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (names.includes(name) && /[:/?@$,;[\] "<>\\^`{|}]|[^\x00-\x7f]|%(?![0-9A-Fa-f]{2})/.test(value) && !out.includes(name)) out.push(name);
  }
  return out;
}
