/**
 * `npm run login -- --target FILE`: the authorization code flow for a target
 * without a control interface, done once by a person (or by the profile's
 * browser script), leaving a verified token pair in the token cache.
 *
 *  1. a fresh random state; the authorization URL is printed (and opened where
 *     a display is available);
 *  2. the person signs in, verifies by SMS and approves;
 *  3. the redirect comes back: received by a listener of our own when
 *     redirectUri is a loopback http address, else pasted by the person;
 *  4. state checked, denial recognised (nothing stored in either case), the code
 *     exchanged, the new access token verified with GET /users/me, the pair stored.
 *
 * Nothing printed carries the code or a token.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline/promises';
import escapeHtml from 'escape-html';
import { LockconfError } from '../run/errors.js';
import { describeNetworkError } from '../wire/network-words.js';
import { HttpClient } from '../wire/http.js';
import { Redactor } from '../wire/redact.js';
import { runBrowserLogin, type BrowserLoginScript } from './browser-login.js';
import { TokenCache, cacheTarget, displayPath, resolveTokenCachePath, tokenSetFromResponse } from './token-cache.js';
import type { HttpClientLike, TargetProfile } from '../contracts.js';
import { lockconfCommand } from '../commands/command-style.js';

export interface LoginOptions {
  profile: TargetProfile;
  /** Open the authorization URL in the desktop's browser when a display is available (default true). */
  open?: boolean;
  /** Where a pasted redirect URL is read from (default process.stdin). */
  input?: NodeJS.ReadableStream;
  /** Where messages go (default process.stdout). */
  output?: NodeJS.WritableStream;
  /** Sign in unattended with this browser script (the profile's `login` section, see loadBrowserScript). */
  browserScript?: BrowserLoginScript | null;
  /** How long to wait for the redirect (default 10 minutes). */
  timeoutMs?: number;
  /** Working directory the token cache path is resolved against (default process.cwd()). */
  cwd?: string;
  /** HTTP client for the token endpoint and GET /users/me (default: the harness's, redacting). */
  http?: HttpClientLike;
  env?: NodeJS.ProcessEnv;
}

export interface LoginResult {
  /** The token cache file that now holds the pair. */
  cachePath: string;
  /** The status GET /users/me answered with the new access token. */
  verifiedStatus: number;
}

/** A redirect URI this process can receive itself: http on a loopback address. */
export function loopbackRedirect(redirectUri: string): { host: string; port: number; path: string } | null {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '::1'].includes(host)) return null;
  return { host: host === 'localhost' ? '127.0.0.1' : host, port: Number(url.port || 80), path: url.pathname };
}

/** The authorization request of the spec: client_id, redirect_uri and state, URL-encoded. */
export function authorizationUrl(profile: Pick<TargetProfile, 'authUrl' | 'clientId' | 'redirectUri'>, state: string): string {
  const query = new URLSearchParams({ client_id: profile.clientId, redirect_uri: profile.redirectUri, state });
  return `${profile.authUrl.replace(/\/+$/, '')}/authorization?${query.toString()}`;
}

export async function runLogin(opts: LoginOptions): Promise<LoginResult> {
  const { profile } = opts;
  const env = opts.env ?? process.env;
  const out = opts.output ?? process.stdout;
  const say = (line: string) => { out.write(line + '\n'); };
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;

  // Refuse a bad cache path before the person spends time signing in.
  const cachePath = await resolveTokenCachePath(profile.tokenCache, opts.cwd ? { cwd: opts.cwd } : {});
  const redactor = Redactor.fromProfile(profile);
  const http = opts.http ?? new HttpClient({ profile, redactor });

  const state = randomBytes(32).toString('base64url');
  const url = authorizationUrl(profile, state);
  const loopback = loopbackRedirect(profile.redirectUri);
  const listener = loopback ? await listenForRedirect(loopback, timeoutMs) : null;

  let redirected: string;
  try {
    say('Sign in as the test user and approve access:');
    say('');
    say(`  ${url}`);
    say('');
    if (opts.browserScript) {
      say('Signing in with the browser script of the profile…');
      const browser = runBrowserLogin({
        authorizationUrl: url,
        redirectUri: profile.redirectUri,
        script: opts.browserScript,
        interceptRedirect: !listener,
        env,
        log: say,
      });
      // With a listener, the redirect reaches it (as it would a person's browser); else the script reports it.
      redirected = listener ? (await Promise.all([listener.url, browser]))[0] : await browser;
    } else {
      if (opts.open !== false) openInBrowser(url, env);
      if (listener) {
        say(`Waiting for the redirect to ${profile.redirectUri} …`);
        redirected = await listener.url;
      } else {
        redirected = await askForRedirect(opts.input ?? process.stdin, out, profile.redirectUri);
      }
    }
  } finally {
    await listener?.close();
  }

  const params = new URL(redirected).searchParams;
  if (params.get('state') !== state) {
    throw new LockconfError('ERR_LOGIN',
      `the state in the redirect does not match the one this sign-in sent: the redirect belongs to another sign-in (or was tampered with). Nothing was stored; run ${lockconfCommand('login')} again.`);
  }
  const error = params.get('error');
  if (error !== null) {
    const why = error === 'access_denied' ? 'access was denied at the consent step (error=access_denied)' : `the target answered error=${error}`;
    throw new LockconfError('ERR_LOGIN', `sign-in not completed: ${why}. Nothing was stored.`);
  }
  const code = params.get('code');
  if (!code) throw new LockconfError('ERR_LOGIN', 'the redirect carries neither a code nor an error. Nothing was stored.');
  redactor.add(code, 'code');

  const res = await http.request({
    method: 'POST',
    url: `${profile.authUrl.replace(/\/+$/, '')}/access_token`,
    form: [['client_id', profile.clientId], ['client_secret', profile.clientSecret], ['grant_type', 'authorization_code'], ['code', code]],
  });
  const tokens = tokenSetFromResponse(res, Date.now());
  if (!tokens) {
    const error = typeof res.json?.error === 'string' ? ` (${redactor.redact(res.json.error)})` : '';
    throw new LockconfError('ERR_LOGIN', `the token endpoint refused the code: HTTP ${res.status}${error}. Nothing was stored.`);
  }
  redactor.add(tokens.accessToken, 'access_token');
  redactor.add(tokens.refreshToken, 'refresh_token');

  const check = await http.api('GET', '/users/me', { accessToken: tokens.accessToken });
  if (check.status < 200 || check.status > 299) {
    throw new LockconfError('ERR_LOGIN', `GET /users/me refused the new access token (HTTP ${check.status}). Nothing was stored.`);
  }

  const cache = await TokenCache.open(cachePath, cacheTarget(profile));
  const replaced = cache.current() !== null;
  await cache.storePair(tokens);
  await cache.observeApiResponse(check, { intervalMs: 0 });
  say(`Signed in. Tokens verified with GET /users/me and stored in ${displayPath(cachePath, opts.cwd)} (mode 0600)${replaced ? ', replacing the previous pair' : ''}.`);
  say('Keep this file between runs (a CI cache or secret store): each run spends its refresh token and stores the next one.');
  return { cachePath, verifiedStatus: check.status };
}

/** Opens the URL with the desktop's opener, only where a display is available; failures are harmless. */
function openInBrowser(url: string, env: NodeJS.ProcessEnv): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'linux' && (env.DISPLAY || env.WAYLAND_DISPLAY) ? 'xdg-open' : null;
  if (!opener) return;
  try {
    const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener: the printed URL is enough
  }
}

const PAGE = (title: string, text: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`
  + `<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;

/** Listens at the loopback redirect URI until a redirect with code or error arrives. */
async function listenForRedirect(where: { host: string; port: number; path: string }, timeoutMs: number): Promise<{ url: Promise<string>; close(): Promise<void> }> {
  let deliver!: (url: string) => void;
  let fail!: (err: Error) => void;
  const url = new Promise<string>((ok, ko) => { deliver = ok; fail = ko; });
  url.catch(() => {}); // observed by the caller; no unhandled rejection if it never asks
  const server: Server = createServer((req, res) => {
    const received = new URL(req.url ?? '/', `http://${req.headers.host ?? `${where.host}:${where.port}`}`);
    const send = (status: number, title: string, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE(title, text));
    };
    if (req.method !== 'GET' || received.pathname !== where.path) return send(404, 'Not found', 'This address only receives the end of a lockconf sign-in.');
    const q = received.searchParams;
    if (!q.has('code') && !q.has('error')) return send(400, 'Not a sign-in redirect', 'This address expects the redirect of the sign-in, with a code or an error.');
    send(200, 'lockconf received the sign-in', 'You can close this page and return to the terminal.');
    deliver(received.toString());
  });
  await new Promise<void>((ok, ko) => {
    server.once('error', (err: NodeJS.ErrnoException) => ko(new LockconfError('ERR_LOGIN',
      `cannot listen at the redirect URI ${where.host}:${where.port}: ${describeNetworkError(err)}; free the port or change redirectUri`)));
    server.listen(where.port, where.host, () => ok());
  });
  const timer = setTimeout(() => fail(new LockconfError('ERR_LOGIN', `no redirect arrived within ${timeoutMs / 1000} s. Nothing was stored.`)), timeoutMs);
  timer.unref();
  return {
    url,
    close: () => new Promise<void>((ok) => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}

/** Asks the person to paste the URL the browser landed on (redirectUri is not ours to listen on). */
async function askForRedirect(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, redirectUri: string): Promise<string> {
  const rl = createInterface({ input, output, terminal: false });
  try {
    output.write(`After approving, your browser is sent to ${redirectUri}?… \nPaste that whole address here and press Enter:\n`);
    const closed = new Promise<never>((_, ko) => rl.once('close', () => ko(new LockconfError('ERR_LOGIN', 'the input ended before a URL was pasted. Nothing was stored.'))));
    closed.catch(() => {}); // closing after an answer is not an error
    const line = (await Promise.race([rl.question(''), closed])).trim();
    try {
      return new URL(line).toString();
    } catch {
      throw new LockconfError('ERR_LOGIN', 'what was pasted is not a URL (paste the whole address from the browser\'s address bar). Nothing was stored.');
    }
  } finally {
    rl.close();
  }
}
