/**
 * The harness's HTTP client. undici's request() never follows redirects, which
 * the suites need (they read the 302s themselves). Every exchange is logged,
 * redacted, so a test's evidence can be attached to the report as is: tokens
 * and codes the target hands out are registered with the redactor before the
 * exchange is logged.
 */
import { request as undiciRequest } from 'undici';
import type { Exchange, HttpClientLike, HttpRequest, HttpResponse, RedactorLike, SecretKind, TargetProfile } from '../contracts.js';
import { LockconfError } from '../run/errors.js';
import type { InFlightRequest } from '../run/pending-work.js';
import { readBounded, tooLargeWords, type BoundedBody } from './bounded-body.js';
import { describeNetworkError } from './network-words.js';
import { installDispatcher } from './dispatcher.js';

installDispatcher();

export const DEFAULT_TIMEOUT_MS = 15_000;
/** Bodies in the exchange log are cut here (after redaction, so no secret is cut in half and left visible). */
export const LOG_BODY_LIMIT = 8 * 1024;

/** Request fields, headers and JSON keys that carry secrets, and their kind. */
const SECRET_FIELDS: Record<string, SecretKind> = {
  access_token: 'access_token',
  refresh_token: 'refresh_token',
  code: 'code',
  client_secret: 'client_secret',
  password: 'password',
};
const SECRET_HEADERS: Record<string, SecretKind> = {
  'x-access-token': 'access_token',
  'x-api-key': 'api_key',
  'x-control-token': 'control_token',
  'x-capture-token': 'capture_token',
};

function lowerCaseHeaders(headers: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(', ') : String(value);
    out[key] = key in out ? `${out[key]}, ${joined}` : joined;
  }
  return out;
}

function truncate(text: string): string {
  return text.length > LOG_BODY_LIMIT ? `${text.slice(0, LOG_BODY_LIMIT)}… [truncated, ${text.length} characters in all]` : text;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body to send and the content type it implies. */
function encodeBody(req: HttpRequest): { body: string | Uint8Array | undefined; contentType: string | null } {
  if (req.form !== undefined) {
    const entries = Array.isArray(req.form) ? req.form : Object.entries(req.form);
    return { body: new URLSearchParams(entries).toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  if (req.json !== undefined) return { body: JSON.stringify(req.json), contentType: 'application/json' };
  return { body: req.body, contentType: null };
}

function bodyText(body: string | Uint8Array | undefined): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}

export class HttpClient implements HttpClientLike {
  readonly profile: TargetProfile;
  readonly redactor: RedactorLike;
  private readonly onExchange: ((e: Exchange) => void) | undefined;
  private readonly log: Exchange[] = [];
  /** The requests sent and not yet answered (harness/run/pending-work.ts: what a test that ran out of time waited for). */
  private readonly pending = new Set<InFlightRequest>();

  constructor(opts: { profile: TargetProfile; redactor: RedactorLike; onExchange?: (e: Exchange) => void }) {
    this.profile = opts.profile;
    this.redactor = opts.redactor;
    this.onExchange = opts.onExchange;
    this.redactor.add(opts.profile.clientSecret, 'client_secret');
    this.redactor.add(opts.profile.apiKey, 'api_key');
    this.redactor.add(opts.profile.controlToken, 'control_token');
  }

  exchanges(): Exchange[] {
    return [...this.log];
  }

  inFlight(): InFlightRequest[] {
    return [...this.pending];
  }

  async api(
    method: string,
    path: string,
    opts: { accessToken?: string | null; apiKey?: string | null; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const apiKey = opts.apiKey === undefined ? this.profile.apiKey : opts.apiKey;
    if (apiKey !== null) headers['x-api-key'] = apiKey;
    if (opts.accessToken !== null && opts.accessToken !== undefined) headers['x-access-token'] = opts.accessToken;
    Object.assign(headers, lowerCaseHeaders(opts.headers));
    const url = this.profile.baseUrl + (path.startsWith('/') ? path : `/${path}`);
    return this.request({ method, url, headers, ...(opts.json !== undefined ? { json: opts.json } : {}) });
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const entry: InFlightRequest = { method: req.method, url: req.url, since: performance.now() };
    this.pending.add(entry);
    try {
      return await this.send(req);
    } finally {
      this.pending.delete(entry);
    }
  }

  private async send(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method.toUpperCase();
    const { body, contentType } = encodeBody(req);
    const headers = lowerCaseHeaders(req.headers);
    if (contentType && !('content-type' in headers)) headers['content-type'] = contentType;
    this.learnFromRequest(headers, req);

    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const logged: Exchange['request'] = { method, url: req.url, headers, body: bodyText(body) };

    let status: number | null = null;
    let resHeaders: Record<string, string> = {};
    let read: BoundedBody;
    try {
      const res = await undiciRequest(req.url, {
        method: method as 'GET',
        headers,
        body: body ?? null,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      resHeaders = lowerCaseHeaders(res.headers as Record<string, string | string[] | undefined>);
      read = await readBounded(res.body, { headers: res.headers });
    } catch (err) {
      const durationMs = performance.now() - t0;
      const why = describeNetworkError(err, { timeoutMs, answered: status !== null });
      const message = this.redactor.redact(`${method} ${req.url} failed: ${why}`);
      const response = status === null ? null : { status, headers: this.redactHeaders(resHeaders), body: '' };
      this.record({ request: this.redactRequest(logged), response, error: message, durationMs, startedAt });
      throw new LockconfError('ERR_TARGET_UNREACHABLE', message);
    }
    const durationMs = performance.now() - t0;
    if (read.tooLarge) {
      // Evidence of its own: the status, the headers and the first bytes; the rest was never read.
      const words = tooLargeWords(read.limit, read.declaredLength);
      const headText = read.head.toString('utf8');
      this.learnFromResponse(resHeaders, undefined, resHeaders['location'] ?? null);
      this.learnFromCutJson(headText);
      const head = this.redactor.redact(headText);
      const message = this.redactor.redact(`${method} ${req.url} answered ${status} with a ${words}`);
      this.record({
        request: this.redactRequest(logged),
        response: { status, headers: this.redactHeaders(resHeaders), body: `${truncate(head)}… [${words}]` },
        error: message,
        durationMs,
        startedAt,
      });
      throw new LockconfError('ERR_ANSWER_TOO_LARGE', message);
    }
    const text = read.bytes.toString('utf8');
    const json = parseJson(text);
    const location = resHeaders['location'] ?? null;
    this.learnFromResponse(resHeaders, json, location);
    this.record({
      request: this.redactRequest(logged),
      response: { status, headers: this.redactHeaders(resHeaders), body: truncate(this.redactor.redact(text)) },
      durationMs,
      startedAt,
    });
    return { status, headers: resHeaders, text, json, location, durationMs };
  }

  // ── Redaction ───────────────────────────────────────────────────────────

  /** Secrets the harness itself sends (a code being exchanged, a refresh token being redeemed). */
  private learnFromRequest(headers: Record<string, string>, req: HttpRequest): void {
    for (const [name, kind] of Object.entries(SECRET_HEADERS)) this.redactor.add(headers[name], kind);
    if (req.form !== undefined) {
      const entries = Array.isArray(req.form) ? req.form : Object.entries(req.form);
      for (const [k, v] of entries) if (k in SECRET_FIELDS) this.redactor.add(v, SECRET_FIELDS[k]!);
    }
    this.learnFromUrl(req.url);
  }

  /** Tokens and codes the target hands out, registered before anything is logged. */
  private learnFromResponse(headers: Record<string, string>, json: unknown, location: string | null): void {
    this.redactor.add(headers['x-access-token'], 'access_token');
    if (location) this.learnFromUrl(location);
    this.learnFromJson(json, 0);
  }

  /** The first bytes of a body too large to parse: token fields found as text, a value cut at the end included. */
  private learnFromCutJson(text: string): void {
    for (const m of text.matchAll(/"(access_token|refresh_token|id_token|code)"\s*:\s*"([^"]*)/g)) {
      const kind = m[1] === 'id_token' ? 'access_token' : SECRET_FIELDS[m[1]!];
      if (kind && m[2]) this.redactor.add(m[2], kind);
    }
  }

  private learnFromJson(value: unknown, depth: number): void {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    // In an error body "code" names the error (FST_ERR_…, invalid_grant): hiding it would hide the evidence.
    const errorBody = 'error' in obj || 'message' in obj || 'statusCode' in obj;
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'string') {
        if (k in SECRET_FIELDS && !(k === 'code' && errorBody)) this.redactor.add(v, SECRET_FIELDS[k]!);
        // e.g. the control protocol's consent answer: {"location": "https://app/cb?code=…"}
        else if (v.includes('code=')) this.learnFromUrl(v);
      } else {
        this.learnFromJson(v, depth + 1);
      }
    }
  }

  private learnFromUrl(url: string): void {
    if (!url.includes('code=')) return;
    try {
      const u = new URL(url, 'http://relative.invalid');
      for (const code of u.searchParams.getAll('code')) this.redactor.add(code, 'code');
      const fragment = new URLSearchParams(u.hash.slice(1));
      for (const code of fragment.getAll('code')) this.redactor.add(code, 'code');
    } catch {
      // not a URL: nothing to learn
    }
  }

  private redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[k] = this.redactor.redact(v);
    return out;
  }

  private redactRequest(r: Exchange['request']): Exchange['request'] {
    return {
      method: r.method,
      url: this.redactor.redact(r.url),
      headers: this.redactHeaders(r.headers),
      body: truncate(this.redactor.redact(r.body)),
    };
  }

  private record(e: Exchange): void {
    this.log.push(e);
    try {
      this.onExchange?.(e);
    } catch {
      // a failing listener must not turn into a failed request
    }
  }
}
