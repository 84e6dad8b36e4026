/**
 * The token cache of a target without a control interface: the one place the
 * user's refresh-token chain lives between runs.
 *
 * Refresh tokens are single use: once the service has redeemed one, the token
 * it returned is the only way back in. So every refresh token the harness
 * receives is written to disk (temporary file, fsync, rename, fsync of the
 * directory) before anything else uses it, and every write re-reads the file
 * first so a process holding an older copy never puts a used token back.
 *
 * The atomic write takes a few milliseconds (two fsyncs); a process killed in
 * them would lose the new token. So the answer is first appended to a journal
 * (`<file>.journal`, one write(2), no fsync: it survives the death of the
 * process, which is the common crash), and open() promotes a journal entry
 * whose redeemed token is the one in the file.
 *
 * The file holds tokens: it lives under `.lockconf/` by default (mode 0700, file
 * 0600), never under `reports/`, and no message of this module prints a token.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, realpath, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { LockconfError } from '../run/errors.js';
import { RefreshJournal } from './token-journal.js';
import type { HttpClientLike, HttpRequest, HttpResponse, TargetProfile, TokenSet } from '../contracts.js';
import { lockconfCommand } from '../commands/command-style.js';

export const DEFAULT_TOKEN_CACHE = '.lockconf/tokens.json';
export const TOKEN_CACHE_VERSION = 1;
/** How often a rotated access token (x-access-token) is written back; the spec asks for at least once per 24 h. */
export const DEFAULT_ROTATION_INTERVAL_MS = 60 * 60 * 1000;

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 date');

const recordSchema = z.object({
  version: z.literal(TOKEN_CACHE_VERSION),
  target: z.object({ authUrl: z.string(), clientId: z.string() }),
  refreshToken: z.string().min(1),
  refreshTokenReceivedAt: isoDate,
  accessToken: z.string().min(1),
  accessTokenReceivedAt: isoDate,
  expiresIn: z.number().int().nonnegative(),
  /** Set just before the cached refresh token is sent for redemption, cleared when its successor is stored. */
  refreshStartedAt: isoDate.nullable().optional(),
});

export type TokenCacheRecord = z.infer<typeof recordSchema>;
export interface TokenCacheTarget {
  authUrl: string;
  clientId: string;
}

/**
 * The cache file a profile names, made absolute. Refuses any place under
 * `reports/` (published, served over HTTP) and any extra forbidden directory.
 */
export async function resolveTokenCachePath(
  file: string | null | undefined,
  opts: { cwd?: string; forbidden?: string[] } = {},
): Promise<string> {
  const cwd = opts.cwd ?? process.cwd();
  const path = resolve(cwd, file && file.trim() !== '' ? file : DEFAULT_TOKEN_CACHE);
  const forbidden = [resolve(cwd, 'reports'), ...(opts.forbidden ?? []).map((d) => resolve(cwd, d))];
  const real = await realpathOfNearest(path);
  for (const dir of forbidden) {
    const realDir = await realpathOfNearest(dir);
    if (isInside(path, dir) || isInside(real, realDir)) {
      throw new LockconfError('ERR_TOKEN_CACHE',
        `token cache ${path} is under ${dir}: the cache holds tokens and must never be written where reports are published; choose another tokenCache path (default ${DEFAULT_TOKEN_CACHE})`);
    }
  }
  return path;
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** realpath of the longest existing prefix, with the rest appended (the file may not exist yet). */
async function realpathOfNearest(path: string): Promise<string> {
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return resolve(await realpath(head), ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return path;
      tail.push(basename(head));
      head = parent;
    }
  }
}

/** The target identity stored with the tokens (never a secret). */
export function cacheTarget(profile: Pick<TargetProfile, 'authUrl' | 'clientId'>): TokenCacheTarget {
  return { authUrl: profile.authUrl, clientId: profile.clientId };
}

/** A token response's fields, validated (the harness stores nothing it cannot use). */
export function tokenSetFromResponse(res: HttpResponse, receivedAt: number): TokenSet | null {
  const body = res.json as Record<string, unknown> | undefined;
  if (res.status !== 200 || !body || typeof body !== 'object') return null;
  const { access_token: accessToken, refresh_token: refreshToken } = body;
  const expiresIn = typeof body.expires_in === 'string' ? Number(body.expires_in) : body.expires_in;
  if (typeof accessToken !== 'string' || accessToken === '' || typeof refreshToken !== 'string' || refreshToken === '') return null;
  return { accessToken, refreshToken, expiresIn: Number.isFinite(expiresIn) ? Math.max(0, Math.trunc(expiresIn as number)) : 0, receivedAt };
}

export class TokenCache {
  readonly path: string;
  readonly target: TokenCacheTarget;
  readonly #now: () => number;
  #record: TokenCacheRecord | null;

  private constructor(path: string, target: TokenCacheTarget, record: TokenCacheRecord | null, now: () => number) {
    this.path = path;
    this.target = target;
    this.#record = record;
    this.#now = now;
  }

  /**
   * Opens (does not create) the cache at `path` for `target`: checks the
   * directory's mode, removes temporary files a killed writer left behind, and
   * refuses a file that belongs to another target or does not parse.
   */
  static async open(path: string, target: TokenCacheTarget, opts: { now?: () => number } = {}): Promise<TokenCache> {
    const cache = new TokenCache(path, target, null, opts.now ?? Date.now);
    await cache.#prepareDir();
    await cache.#removeStaleTemporaries();
    cache.#record = await cache.#readFile();
    await cache.#recoverJournal();
    return cache;
  }

  /** The record as last read or written by this process (null when the cache is empty). */
  current(): TokenCacheRecord | null {
    return this.#record;
  }

  /** Re-reads the file (another process may have written since). */
  async reload(): Promise<TokenCacheRecord | null> {
    this.#record = await this.#readFile();
    return this.#record;
  }

  /** The cached pair as a TokenSet, or null when there is none. */
  session(): TokenSet | null {
    const r = this.#record;
    if (!r) return null;
    return { accessToken: r.accessToken, refreshToken: r.refreshToken, expiresIn: r.expiresIn, receivedAt: Date.parse(r.accessTokenReceivedAt) };
  }

  /** Stores a new pair (from a code exchange or a refresh): the refresh token is durable when this resolves. */
  async storePair(tokens: TokenSet): Promise<TokenCacheRecord> {
    const at = new Date(tokens.receivedAt).toISOString();
    return this.#write({
      version: TOKEN_CACHE_VERSION,
      target: this.target,
      refreshToken: tokens.refreshToken,
      refreshTokenReceivedAt: at,
      accessToken: tokens.accessToken,
      accessTokenReceivedAt: at,
      expiresIn: tokens.expiresIn,
      refreshStartedAt: null,
    });
  }

  /**
   * Stores the successor of a redeemed refresh token: journal first (one write,
   * survives a killed process), then the atomic, fsynced file, then the journal
   * is dropped. Call it the moment the token response arrives.
   */
  async storeSuccessor(redeemed: string, next: TokenSet): Promise<TokenCacheRecord> {
    const journal = new RefreshJournal(this.path);
    journal.append(redeemed, next);
    const record = await this.storePair(next);
    await journal.drop();
    return record;
  }

  /** A journal entry that redeemed the token in the file holds its successor: promote it (following the chain). */
  async #recoverJournal(): Promise<void> {
    const journal = new RefreshJournal(this.path);
    const successor = await journal.successorOf(this.#record?.refreshToken, this.#now());
    if (successor && this.#record) await this.storePair(successor);
    await journal.drop();
  }

  /**
   * Marks the cached refresh token as being redeemed. If the process dies before
   * the successor is stored, the next run can say why the chain broke.
   */
  async markRefreshStarted(): Promise<void> {
    const onDisk = await this.#readFile();
    if (!onDisk) throw emptyCache(this.path);
    await this.#write({ ...onDisk, refreshStartedAt: new Date(this.#now()).toISOString() });
  }

  /**
   * Records the x-access-token header of an API response (the spec's rotation):
   * written back when the stored access token is older than `intervalMs` (default
   * one hour, well inside the 24 h the spec asks for). Call it with every API
   * response; returns true when the cache was written.
   */
  async observeApiResponse(res: Pick<HttpResponse, 'status' | 'headers'>, opts: { intervalMs?: number } = {}): Promise<boolean> {
    if (res.status < 200 || res.status > 299) return false;
    const token = res.headers['x-access-token'];
    if (!token || token.includes(',')) return false; // absent, or repeated headers joined: no single newest token
    const intervalMs = opts.intervalMs ?? DEFAULT_ROTATION_INTERVAL_MS;
    const known = this.#record;
    if (known && known.accessToken === token) return false;
    if (known && this.#now() - Date.parse(known.accessTokenReceivedAt) < intervalMs) return false;
    return this.recordAccessToken(token);
  }

  /** Stores a newer access token, keeping the refresh token that is on disk now. */
  async recordAccessToken(accessToken: string, receivedAt: number = this.#now()): Promise<boolean> {
    const onDisk = await this.#readFile();
    if (!onDisk) return false;
    await this.#write({ ...onDisk, accessToken, accessTokenReceivedAt: new Date(receivedAt).toISOString() });
    return true;
  }

  /**
   * Stores the result of a refresh grant the caller made itself (e.g. a suite
   * redeeming the session's refresh token) when it consumed the cached token.
   * Call it as soon as the response arrives, before using the new tokens.
   */
  async recordRefreshResponse(redeemed: string, res: HttpResponse): Promise<boolean> {
    const onDisk = await this.#readFile();
    if (!onDisk || onDisk.refreshToken !== redeemed) return false;
    const next = tokenSetFromResponse(res, this.#now());
    if (!next) return false;
    await this.storeSuccessor(redeemed, next);
    return true;
  }

  /**
   * Looks at any exchange with the target and keeps the chain: a refresh grant
   * that redeemed the cached token has its successor stored; a successful API
   * response's x-access-token is recorded (observeApiResponse). Suites that call
   * the token endpoint on their own stay safe when their HTTP client is wrapped
   * with withTokenCache().
   */
  async observeExchange(req: HttpRequest, res: HttpResponse, profile: Pick<TargetProfile, 'authUrl' | 'baseUrl'>): Promise<void> {
    const url = req.url;
    if (url.startsWith(profile.authUrl.replace(/\/+$/, '') + '/access_token')) {
      const fields = requestFields(req);
      const redeemed = fields.get('refresh_token');
      if (fields.get('grant_type') === 'refresh_token' && redeemed) await this.recordRefreshResponse(redeemed, res);
    } else if (url.startsWith(profile.baseUrl.replace(/\/+$/, '') + '/')) {
      await this.observeApiResponse(res);
    }
  }

  async #prepareDir(): Promise<void> {
    const dir = dirname(this.path);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const st = await stat(dir);
      if ((st.mode & 0o077) !== 0) await chmod(dir, 0o700); // tokens: owner only
    } catch (err) {
      throw new LockconfError('ERR_TOKEN_CACHE', `cannot prepare the token cache directory ${dir}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** write-file-atomic names its temporaries `<file>.<hash>`; a SIGKILLed writer leaves one behind. */
  async #removeStaleTemporaries(): Promise<void> {
    const dir = dirname(this.path);
    const prefix = basename(this.path) + '.';
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (name.startsWith(prefix) && /^[0-9a-f]+$/.test(name.slice(prefix.length))) {
        await unlink(resolve(dir, name)).catch(() => {});
      }
    }
  }

  async #readFile(): Promise<TokenCacheRecord | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new LockconfError('ERR_TOKEN_CACHE', `cannot read the token cache ${this.path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { cause: err });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new LockconfError('ERR_TOKEN_CACHE', `the token cache ${this.path} is not valid JSON; sign in again (${lockconfCommand('login', '--target FILE')})`);
    }
    const result = recordSchema.safeParse(parsed);
    if (!result.success) {
      const fields = [...new Set(result.error.issues.map((i) => i.path.join('.') || '(root)'))].join(', ');
      throw new LockconfError('ERR_TOKEN_CACHE', `the token cache ${this.path} is malformed (fields: ${fields}); sign in again (${lockconfCommand('login', '--target FILE')})`);
    }
    const { target } = result.data;
    if (target.authUrl !== this.target.authUrl || target.clientId !== this.target.clientId) {
      throw new LockconfError('ERR_TOKEN_CACHE',
        `the token cache ${this.path} holds tokens of another target (${target.authUrl}, client ${target.clientId}); use another tokenCache path or sign in again`);
    }
    return result.data;
  }

  async #write(record: TokenCacheRecord): Promise<TokenCacheRecord> {
    try {
      // temporary file in the same directory, fsync, rename (write-file-atomic); then the directory entry.
      await writeFileAtomic(this.path, JSON.stringify(record, null, 2) + '\n', { mode: 0o600, fsync: true });
      fsyncDir(dirname(this.path));
    } catch (err) {
      throw new LockconfError('ERR_TOKEN_CACHE', `cannot write the token cache ${this.path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { cause: err });
    }
    this.#record = record;
    return record;
  }
}

/** The form fields of a token request, wherever they travel (form, raw body, query). */
export function requestFields(req: HttpRequest): URLSearchParams {
  const fields = new URLSearchParams(new URL(req.url).search);
  const body = req.form !== undefined
    ? new URLSearchParams(Array.isArray(req.form) ? req.form : Object.entries(req.form))
    : typeof req.body === 'string' ? new URLSearchParams(req.body)
      : req.body instanceof Uint8Array ? new URLSearchParams(Buffer.from(req.body).toString('utf8')) : null;
  for (const [k, v] of body ?? []) fields.append(k, v);
  return fields;
}

/**
 * An HttpClientLike whose every exchange passes through cache.observeExchange
 * before the caller sees the answer: a refresh of the cached token, however a
 * suite makes it, has its successor on disk before the suite can use it.
 */

/** Makes a rename durable: the directory entry itself must reach the disk. */
function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } catch (err) {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
    if (!['EINVAL', 'EISDIR', 'EBADF'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    closeSync(fd);
  }
}

export function emptyCache(path: string): LockconfError {
  return new LockconfError('ERR_TOKEN_CACHE', `the token cache ${path} is empty: sign in first (${lockconfCommand('login', '--target FILE')})`);
}

/** Opens the cache a profile names (default .lockconf/tokens.json) for that profile's target. */
export async function openTokenCache(
  profile: Pick<TargetProfile, 'authUrl' | 'clientId' | 'tokenCache'>,
  opts: { cwd?: string; forbidden?: string[]; now?: () => number } = {},
): Promise<TokenCache> {
  const path = await resolveTokenCachePath(profile.tokenCache, opts);
  return TokenCache.open(path, cacheTarget(profile), opts.now ? { now: opts.now } : {});
}

export function displayPath(path: string, cwd = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? `.${sep}${rel}` : path;
}
