/**
 * Preflight: before any test, prove that the profile can be used, so a user's
 * typo is never reported as the target's failure.
 *
 * 1. The target answers: any HTTP answer from authUrl and baseUrl (a refused
 *    connection, unknown host or timeout is ERR_TARGET_UNREACHABLE).
 * 2. The token endpoint accepts the client credentials. Nothing is spent: a
 *    refresh grant with a refresh token nobody issued is sent twice, once with
 *    the profile's client_secret and once with a made-up one. The spec does not
 *    say how a wrong secret is answered, so no particular answer is demanded:
 *    only when the profile's secret is answered exactly like the made-up one
 *    (same status, same error) AND the answer reads as a refused client
 *    (401, invalid_client, or a message about the secret or the client) is the
 *    run stopped (ERR_CREDENTIALS_REFUSED). Any other difference means the
 *    target told the two apart: the credentials are accepted, and whatever it
 *    answers is for the suites to judge.
 * 3. The API key is accepted, by the same comparison: GET /users/me with a
 *    token nobody issued, with the profile's x-api-key and a made-up one; the
 *    run stops (ERR_API_KEY_REFUSED) only when both get the same answer and it
 *    reads as a refused key (names the key).
 *
 * Webhook reachability of the capture server is established by global setup
 * (harness/sandbox/reachability.ts) once the capture server runs; an
 * unreachable capture server makes the webhook tests not tested, with the reason.
 *
 * 4. The control token, when there is a control URL: GET {controlUrl}/fixtures
 *    with the profile's x-control-token and a made-up one; the same refusal
 *    (401, 403, or words about the token) for both stops the run
 *    (ERR_CONTROL_TOKEN_REFUSED), before dozens of tests repeat the 401.
 *
 * LOCKCONF_PREFLIGHT=0 skips steps 2 to 4 (a target whose answers defeat the
 * comparison). Never run against the embedded mock: its credentials are its own.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { installDispatcher } from '../wire/dispatcher.js';
import type { TargetProfile } from '../contracts.js';
import { LockconfError } from '../run/errors.js';
import { Redactor } from '../wire/redact.js';
import { readBounded, tooLargeWords } from '../wire/bounded-body.js';
import { describeNetworkError } from '../wire/network-words.js';
import { fieldOrigin, type TargetChoice } from './target-choice.js';

installDispatcher();

export interface Answer {
  status: number;
  /** The OAuth `error` or API `error` field, when the body is JSON with one. */
  error: string | null;
  /** The body as text (trimmed, at most 300 characters). */
  text: string;
}

export interface PreflightOptions {
  choice: Pick<TargetChoice, 'file' | 'variables'>;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** What preflight learnt, line by line (default: nothing). */
  log?: (line: string) => void;
  /** For tests: how requests are sent. */
  send?: (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Answer>;
}

const made = (what: string) => `lockconf-preflight-${what}-${randomBytes(9).toString('hex')}`;

async function sendWithUndici(url: string, init: { method: string; headers: Record<string, string>; body?: string }, timeoutMs: number): Promise<Answer> {
  const res = await request(url, {
    method: init.method as 'GET',
    headers: init.headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // The whole exchange, a dripping body included: the headers and body timeouts first, then this.
    signal: AbortSignal.timeout(2 * timeoutMs + 5_000),
  });
  const read = await readBounded(res.body, { headers: res.headers });
  // Too large to read: the same words for both answers compared, for the suites to judge.
  const text = read.tooLarge ? `[${tooLargeWords(read.limit)}]` : read.bytes.toString('utf8').trim();
  let error: string | null = null;
  try {
    const json = JSON.parse(text) as { error?: unknown };
    if (typeof json?.error === 'string') error = json.error;
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, error, text: text.slice(0, 300) };
}

/** Same status and same error (or, without a JSON error, the same body). */
export function sameAnswer(a: Answer, b: Answer): boolean {
  if (a.status !== b.status) return false;
  if (a.error !== null || b.error !== null) return a.error === b.error;
  return a.text === b.text;
}

/** Reads as a refused client: 401, invalid_client, or words about the client's secret or credentials. */
export function readsAsRefusedClient(a: Answer): boolean {
  return a.status === 401 || a.error === 'invalid_client' || /secret|client.?(id|credential)|credential|unauthori[sz]ed.client|invalid.client/i.test(a.text);
}

/** Reads as a refused API key: the answer names the key. */
export function readsAsRefusedApiKey(a: Answer): boolean {
  return /api.?key/i.test(`${a.error ?? ''} ${a.text}`);
}

function describeAnswer(a: Answer, redactor: Redactor): string {
  const detail = a.error ?? a.text.replace(/\s+/g, ' ').slice(0, 120);
  return redactor.redact(`HTTP ${a.status}${detail ? ` ${JSON.stringify(detail)}` : ''}`);
}

/**
 * The same refresh request with the credentials in an Authorization: Basic
 * header and none in the body: answered differently from a made-up secret means
 * the target checks the secret there (the spec says it must not).
 */
async function acceptsBasicInstead(
  profile: TargetProfile,
  send: NonNullable<PreflightOptions['send']>,
  tokenUrl: string,
  refreshToken: string,
  madeUp: Answer,
): Promise<boolean> {
  const basic = Buffer.from(`${encodeURIComponent(profile.clientId)}:${encodeURIComponent(profile.clientSecret)}`).toString('base64');
  try {
    const answer = await send(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: profile.clientId, refresh_token: refreshToken }).toString(),
    });
    return !sameAnswer(answer, madeUp) && !readsAsRefusedClient(answer);
  } catch {
    return false;
  }
}

/** Step 1: any HTTP answer counts. */
async function proveReachable(profile: TargetProfile, opts: PreflightOptions, timeoutMs: number): Promise<void> {
  const fields: Array<'authUrl' | 'baseUrl'> = profile.authUrl === profile.baseUrl ? ['authUrl'] : ['authUrl', 'baseUrl'];
  for (const field of fields) {
    const url = profile[field];
    try {
      if (opts.send) await opts.send(url, { method: 'GET', headers: {} });
      else await sendWithUndici(url, { method: 'GET', headers: {} }, timeoutMs);
    } catch (err) {
      throw new LockconfError(
        'ERR_TARGET_UNREACHABLE',
        `the target does not answer: GET ${url} failed: ${describeNetworkError(err, { timeoutMs })}. Check ${fieldOrigin(field, opts.choice)} and that the service is running and reachable from this machine.`,
        { cause: err },
      );
    }
  }
}

export async function preflight(profile: TargetProfile, opts: PreflightOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const log = opts.log ?? (() => {});
  const redactor = Redactor.fromProfile(profile);
  const send = opts.send ?? ((url, init) => sendWithUndici(url, init, timeoutMs));
  await proveReachable(profile, opts, timeoutMs);
  if ((opts.env ?? process.env).LOCKCONF_PREFLIGHT === '0') {
    log('preflight: credential checks skipped (LOCKCONF_PREFLIGHT=0)');
    return;
  }

  // Step 2: the client credentials, at the token endpoint.
  const tokenUrl = `${profile.authUrl}/access_token`;
  const refreshToken = made('refresh-token');
  const form = (secret: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: profile.clientId, client_secret: secret, refresh_token: refreshToken }).toString(),
  });
  const unreachable = (url: string) => (err: unknown): never => {
    throw new LockconfError('ERR_TARGET_UNREACHABLE', `the target stopped answering during preflight: ${url} failed: ${describeNetworkError(err, { timeoutMs })}`, { cause: err });
  };
  const ours = await send(tokenUrl, form(profile.clientSecret)).catch(unreachable(tokenUrl));
  const madeUp = await send(tokenUrl, form(made('secret'))).catch(unreachable(tokenUrl));
  const refusedLikeMadeUp = sameAnswer(ours, madeUp) && ours.status >= 400 && readsAsRefusedClient(ours);
  if (refusedLikeMadeUp && (await acceptsBasicInstead(profile, send, tokenUrl, refreshToken, madeUp))) {
    // The secret is right; the target wants it in the wrong place. The suites judge that (TOKEN-*).
    log(`preflight: the token endpoint refuses client_secret in the form body (${describeAnswer(ours, redactor)}) but takes it in an Authorization: Basic header; `
      + 'the spec requires the form body, so the token tests will fail on it: the run goes on');
  } else if (refusedLikeMadeUp) {
    throw new LockconfError(
      'ERR_CREDENTIALS_REFUSED',
      `the token endpoint refused the client credentials: POST ${tokenUrl} answered ${describeAnswer(ours, redactor)}, exactly as it answers a made-up client_secret. `
        + `Check ${fieldOrigin('clientSecret', opts.choice)} and ${fieldOrigin('clientId', opts.choice)}. Nothing was tested `
        + '(LOCKCONF_PREFLIGHT=0 runs the suites anyway).',
    );
  }
  log(sameAnswer(ours, madeUp)
    ? `preflight: the token endpoint answers the profile's client_secret like a made-up one (${describeAnswer(ours, redactor)}), not as a refused client: the suites judge it`
    : 'preflight: the token endpoint tells the client_secret from a made-up one: credentials accepted');

  // Step 3: the API key.
  const meUrl = `${profile.baseUrl}/users/me`;
  const bogusToken = made('access-token');
  const get = (key: string) => ({ method: 'GET', headers: { 'x-api-key': key, 'x-access-token': bogusToken, 'content-type': 'application/json' } });
  const oursApi = await send(meUrl, get(profile.apiKey)).catch(unreachable(meUrl));
  const madeUpApi = await send(meUrl, get(made('api-key'))).catch(unreachable(meUrl));
  if (sameAnswer(oursApi, madeUpApi) && oursApi.status >= 400 && readsAsRefusedApiKey(oursApi)) {
    throw new LockconfError(
      'ERR_API_KEY_REFUSED',
      `the API refused the API key: GET ${meUrl} answered ${describeAnswer(oursApi, redactor)}, exactly as it answers a made-up x-api-key. `
        + `Check ${fieldOrigin('apiKey', opts.choice)}. Nothing was tested (LOCKCONF_PREFLIGHT=0 runs the suites anyway).`,
    );
  }
  log(sameAnswer(oursApi, madeUpApi)
    ? 'preflight: the API answers the profile\'s API key and a made-up one alike without naming the key: the suites judge it'
    : 'preflight: the API tells the API key from a made-up one: API key accepted');

  await proveControlToken(profile, opts, send, redactor, log);
}

/** Reads as a refused control token: 401 or 403, or words about the token. */
export function readsAsRefusedControlToken(a: Answer): boolean {
  return a.status === 401 || a.status === 403 || /control.?token|unauthori[sz]ed|forbidden/i.test(`${a.error ?? ''} ${a.text}`);
}

/**
 * Step 4: the control token, when the profile has a control URL. GET /fixtures
 * changes nothing; asked with the profile's token and a made-up one, the same
 * refusal for both stops the run (ERR_CONTROL_TOKEN_REFUSED). A control interface
 * that does not answer is global setup's to report (the tests that need it are
 * then not tested, with the reason).
 */
async function proveControlToken(
  profile: TargetProfile,
  opts: PreflightOptions,
  send: NonNullable<PreflightOptions['send']>,
  redactor: Redactor,
  log: (line: string) => void,
): Promise<void> {
  if (!profile.controlUrl || !profile.controlToken) return;
  const url = `${profile.controlUrl}/fixtures`;
  const get = (token: string) => ({ method: 'GET', headers: { 'x-control-token': token, accept: 'application/json' } });
  let ours: Answer;
  let madeUp: Answer;
  try {
    ours = await send(url, get(profile.controlToken));
    if (ours.status >= 200 && ours.status < 300) {
      log('preflight: the control interface accepts the control token');
      return;
    }
    madeUp = await send(url, get(made('control-token')));
  } catch (err) {
    log(`preflight: the control interface did not answer (${describeNetworkError(err, { timeoutMs: opts.timeoutMs ?? 5_000 })}): the tests that need it will say so`);
    return;
  }
  if (sameAnswer(ours, madeUp) && readsAsRefusedControlToken(ours)) {
    throw new LockconfError(
      'ERR_CONTROL_TOKEN_REFUSED',
      `the control interface refused the control token: GET ${url} answered ${describeAnswer(ours, redactor)}, exactly as it answers a made-up x-control-token. `
        + `Check ${fieldOrigin('controlToken', opts.choice)}. Nothing was tested (LOCKCONF_PREFLIGHT=0 runs the suites anyway).`,
    );
  }
  log(`preflight: the control interface answered GET /fixtures ${describeAnswer(ours, redactor)}: the tests that need it will say so`);
}
