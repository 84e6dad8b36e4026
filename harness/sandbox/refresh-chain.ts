/**
 * Redeeming the cached refresh token: one refresh at a time, its successor stored
 * (journal, then file) before anything uses it, and the refreshes in flight
 * tracked so a catchable stop lets them finish.
 */
import type { HttpClientLike, HttpResponse, TargetProfile, TokenSet } from '../contracts.js';
import { LockconfError } from '../run/errors.js';
import { emptyCache, tokenSetFromResponse, type TokenCache } from './token-cache.js';
import { lockconfCommand } from '../commands/command-style.js';

// ── Redeeming the cached refresh token ────────────────────────────────────

/** The two calls refreshAndStore makes; flows can pass its own (logged) versions. */
export interface RefreshDeps {
  /** POST {auth_url}/access_token, grant_type=refresh_token. */
  redeem(refreshToken: string): Promise<HttpResponse>;
  /** GET {base_url}/users/me with the new access token. */
  verify(accessToken: string): Promise<HttpResponse>;
}

/** RefreshDeps over an HttpClientLike: the spec's refresh request and its cheap verification call. */
export function refreshDeps(http: HttpClientLike, profile: Pick<TargetProfile, 'authUrl' | 'clientId' | 'clientSecret'>): RefreshDeps {
  return {
    redeem: (refreshToken) => http.request({
      method: 'POST',
      url: profile.authUrl.replace(/\/+$/, '') + '/access_token',
      form: [['client_id', profile.clientId], ['client_secret', profile.clientSecret], ['grant_type', 'refresh_token'], ['refresh_token', refreshToken]],
    }),
    verify: (accessToken) => http.api('GET', '/users/me', { accessToken }),
  };
}

// Refreshes in flight in this process. A catchable stop (Ctrl-C, SIGTERM from a CI
// runner) halts new ones and waits for these (harness/sandbox/cleanup.ts onInterrupt), so
// only SIGKILL or a power cut can fall between the service redeeming a token and
// its successor reaching the disk.
const inFlight = new Set<Promise<unknown>>();
let halted = false;

/**
 * Runs `work` (a refresh grant and the storing of its answer) as a unit a
 * catchable stop waits for. After haltRefreshes(), refuses to start new work.
 */
export function trackRefresh<T>(work: () => Promise<T>): Promise<T> {
  if (halted) return Promise.reject(new LockconfError('ERR_TOKEN_CACHE', 'the run is stopping: no new token refresh is started'));
  const running = work();
  inFlight.add(running);
  const done = () => { inFlight.delete(running); };
  running.then(done, done);
  return running;
}

/** Stops new refreshes and resolves when those in flight have stored their answers (or failed). */
export async function haltRefreshes(): Promise<void> {
  halted = true;
  await Promise.allSettled([...inFlight]);
}

/** True once haltRefreshes() was called in this process. */
export function refreshesHalted(): boolean {
  return halted;
}

/**
 * Redeems the cached refresh token, stores the new pair before anything else
 * uses it, then verifies the new access token with GET /users/me (recording the
 * rotated x-access-token). Returns the verified session.
 *
 * Throws ERR_TOKEN_CACHE when the cache is empty, when the service refuses the
 * cached token (the chain is broken: sign in again), or when the new token does
 * not verify (the new pair is kept: the old one is spent either way).
 */
export function refreshAndStore(cache: TokenCache, deps: RefreshDeps, opts: { now?: () => number } = {}): Promise<TokenSet> {
  return trackRefresh(() => redeemStoreVerify(cache, deps, opts));
}

async function redeemStoreVerify(cache: TokenCache, deps: RefreshDeps, opts: { now?: () => number }): Promise<TokenSet> {
  const now = opts.now ?? Date.now;
  const before = await cache.reload();
  if (!before) throw emptyCache(cache.path);
  const interrupted = before.refreshStartedAt ?? null;
  await cache.markRefreshStarted();

  let res: HttpResponse;
  try {
    res = await deps.redeem(before.refreshToken);
  } catch (err) {
    throw new LockconfError('ERR_TARGET_UNREACHABLE',
      `refreshing the cached token failed before an answer arrived (${(err as Error).message}); if the service redeemed it anyway, sign in again (${lockconfCommand('login', '--target FILE')})`, { cause: err });
  }
  const next = tokenSetFromResponse(res, now());
  if (!next) {
    const error = typeof res.json?.error === 'string' ? ` (${res.json.error})` : '';
    const why = interrupted
      ? ` A previous refresh started at ${interrupted} never stored its result: the process was stopped while the service was answering.`
      : '';
    throw new LockconfError('ERR_TOKEN_CACHE',
      `the service refused the cached refresh token with HTTP ${res.status}${error}; the refresh chain is broken.${why} Sign in again: ${lockconfCommand('login', '--target FILE')}`);
  }
  await cache.storeSuccessor(before.refreshToken, next); // durable before the new tokens are used for anything

  const check = await deps.verify(next.accessToken);
  if (check.status < 200 || check.status > 299) {
    throw new LockconfError('ERR_TOKEN_CACHE',
      `the access token from the refresh was refused by GET /users/me (HTTP ${check.status}); the new pair is stored, but the target may be misbehaving`);
  }
  await cache.observeApiResponse(check, { intervalMs: 0 });
  return cache.session() ?? next;
}

/** Path separator helper for messages that show a relative path. */
