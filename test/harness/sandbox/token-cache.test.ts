/**
 * The token cache: where it may live, how it is written, and how the refresh
 * chain is carried forward (store before use, verify after, rotation recorded).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_TOKEN_CACHE, TokenCache, openTokenCache, resolveTokenCachePath } from '../../../harness/sandbox/token-cache.js';
import { refreshAndStore, refreshDeps } from '../../../harness/sandbox/refresh-chain.js';
import { withTokenCache } from '../../../harness/sandbox/token-cache-http.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { fetchHttp } from './support/fetch-http.js';
import { seedPair, startFakeService, type FakeService } from './support/fake-service.js';

let svc: FakeService;
let dir: string;

beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(async () => {
  await svc.close();
});
afterEach(async () => {
  await removeTmpDir(dir);
});

async function freshDir(): Promise<string> {
  dir = await makeTmpDir('cache');
  return dir;
}

describe('where the cache may live', () => {
  test('defaults to .lockconf/tokens.json under the working directory', async () => {
    const cwd = await freshDir();
    expect(await resolveTokenCachePath(null, { cwd })).toBe(join(cwd, DEFAULT_TOKEN_CACHE));
  });

  test('refuses a path under reports/, also through a symlink', async () => {
    const cwd = await freshDir();
    await mkdir(join(cwd, 'reports', 'runs'), { recursive: true });
    await symlink(join(cwd, 'reports', 'runs'), join(cwd, 'latest'));
    for (const file of ['reports/tokens.json', 'reports/runs/x/tokens.json', 'latest/tokens.json', 'out/tokens.json']) {
      const err = await resolveTokenCachePath(file, { cwd, forbidden: ['out'] }).catch((e: unknown) => e);
      expect(isLockconfError(err, 'ERR_TOKEN_CACHE'), file).toBe(true);
      expect((err as Error).message).toMatch(/reports are published/);
    }
    expect(await resolveTokenCachePath('state/tokens.json', { cwd })).toBe(join(cwd, 'state/tokens.json'));
  });
});

describe('how the cache is written', () => {
  test('directory 0700, file 0600, the documented fields and no client secret or API key', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache({ ...svc.profile, tokenCache: null }, { cwd });
    expect(cache.current()).toBeNull();
    const pair = seedPair(svc);
    await cache.storePair(pair);

    expect((await stat(join(cwd, '.lockconf'))).mode & 0o777).toBe(0o700);
    expect((await stat(cache.path)).mode & 0o777).toBe(0o600);
    const text = await readFile(cache.path, 'utf8');
    const record = JSON.parse(text);
    expect(Object.keys(record).sort()).toEqual([
      'accessToken', 'accessTokenReceivedAt', 'expiresIn', 'refreshStartedAt', 'refreshToken', 'refreshTokenReceivedAt', 'target', 'version',
    ]);
    expect(record).toMatchObject({ version: 1, target: { authUrl: svc.profile.authUrl, clientId: svc.profile.clientId }, refreshToken: pair.refreshToken });
    expect(text).not.toContain(svc.profile.clientSecret);
    expect(text).not.toContain(svc.profile.apiKey);
  });

  test('a group-readable directory is tightened to 0700', async () => {
    const cwd = await freshDir();
    await mkdir(join(cwd, 'state'), { mode: 0o755 });
    await openTokenCache({ ...svc.profile, tokenCache: 'state/tokens.json' }, { cwd });
    expect((await stat(join(cwd, 'state'))).mode & 0o777).toBe(0o700);
  });

  test('temporaries left by a killed writer are removed on open; other files are kept', async () => {
    const cwd = await freshDir();
    await mkdir(join(cwd, '.lockconf'), { mode: 0o700 });
    await writeFile(join(cwd, '.lockconf', 'tokens.json.1a2b3c4d'), 'half');
    await writeFile(join(cwd, '.lockconf', 'mock-target.json'), '{}');
    await openTokenCache({ ...svc.profile }, { cwd });
    expect(await readdir(join(cwd, '.lockconf'))).toEqual(['mock-target.json']);
  });

  test('refuses a file of another target, or one that does not parse, naming no token', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache(svc.profile, { cwd });
    const pair = seedPair(svc);
    await cache.storePair(pair);
    const other = await openTokenCache({ ...svc.profile, clientId: 'someone-else' }, { cwd }).catch((e: unknown) => e);
    expect(isLockconfError(other, 'ERR_TOKEN_CACHE')).toBe(true);
    expect((other as Error).message).toMatch(/another target/);

    await writeFile(cache.path, '{"version":1,"refreshToken":"' + pair.refreshToken + '"}');
    const bad = await openTokenCache(svc.profile, { cwd }).catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/malformed \(fields: .*target/);
    expect((bad as Error).message).not.toContain(pair.refreshToken);
  });
});

describe('the refresh chain', () => {
  test('refreshAndStore redeems, stores the new pair, verifies it and records the rotated token', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache(svc.profile, { cwd });
    const first = seedPair(svc);
    await cache.storePair(first);
    const deps = refreshDeps(fetchHttp(svc.profile), svc.profile);

    const seen: string[] = [];
    const session = await refreshAndStore(cache, {
      redeem: async (rt) => { seen.push('redeem'); return deps.redeem(rt); },
      verify: async (at) => {
        // the new refresh token is on disk before the new access token is used
        const onDisk = JSON.parse(await readFile(cache.path, 'utf8'));
        seen.push(onDisk.refreshToken === first.refreshToken ? 'verify-before-store' : 'verify-after-store');
        return deps.verify(at);
      },
    });
    expect(seen).toEqual(['redeem', 'verify-after-store']);
    expect(svc.refreshTokens.get(first.refreshToken)).toBe('used');
    expect(svc.refreshTokens.get(session.refreshToken)).toBe('issued');
    const onDisk = JSON.parse(await readFile(cache.path, 'utf8'));
    expect(onDisk.refreshToken).toBe(session.refreshToken);
    expect(onDisk.refreshStartedAt).toBeNull();
    // the access token on disk is the one GET /users/me rotated to, and it works
    expect(svc.accessTokens.has(onDisk.accessToken)).toBe(true);
    expect(onDisk.accessToken).toBe(session.accessToken);

    // ten more links of the chain, each from a freshly opened cache (as separate runs would)
    for (let i = 0; i < 10; i++) await refreshAndStore(await openTokenCache(svc.profile, { cwd }), deps);
    const last = JSON.parse(await readFile(cache.path, 'utf8'));
    expect(svc.refreshTokens.get(last.refreshToken)).toBe('issued');
  });

  test('a refused cached token is a clear ERR_TOKEN_CACHE that names the interrupted refresh and no token', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache(svc.profile, { cwd });
    const pair = seedPair(svc);
    await cache.storePair(pair);
    await cache.markRefreshStarted(); // as a process killed mid-refresh leaves it
    svc.refreshTokens.set(pair.refreshToken, 'used');
    const err = await refreshAndStore(cache, refreshDeps(fetchHttp(svc.profile), svc.profile)).catch((e: unknown) => e);
    expect(isLockconfError(err, 'ERR_TOKEN_CACHE')).toBe(true);
    const message = (err as Error).message;
    expect(message).toMatch(/HTTP 400 \(invalid_grant\); the refresh chain is broken/);
    expect(message).toMatch(/previous refresh started at .* never stored its result/);
    expect(message).toMatch(/npm run login/);
    expect(message).not.toContain(pair.refreshToken);
  });

  test('an empty cache asks for a sign-in', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache(svc.profile, { cwd });
    const err = await refreshAndStore(cache, refreshDeps(fetchHttp(svc.profile), svc.profile)).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/empty: sign in first \(npm run login/);
  });

  test('a refresh made elsewhere (a suite) is stored when it consumed the cached token, ignored otherwise', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache(svc.profile, { cwd });
    const pair = seedPair(svc);
    await cache.storePair(pair);
    const deps = refreshDeps(fetchHttp(svc.profile), svc.profile);
    const unrelated = seedPair(svc);
    expect(await cache.recordRefreshResponse(unrelated.refreshToken, await deps.redeem(unrelated.refreshToken))).toBe(false);
    const res = await deps.redeem(pair.refreshToken);
    expect(await cache.recordRefreshResponse(pair.refreshToken, res)).toBe(true);
    expect(cache.current()?.refreshToken).toBe(res.json.refresh_token);
    // a refused redemption stores nothing
    expect(await cache.recordRefreshResponse(res.json.refresh_token, { ...res, status: 400, json: { error: 'invalid_grant' } })).toBe(false);
    expect(cache.current()?.refreshToken).toBe(res.json.refresh_token);
  });
});

describe('access token rotation (x-access-token)', () => {
  test('written back once the stored token is older than the interval, never from a failed response', async () => {
    const cwd = await freshDir();
    let now = Date.parse('2026-01-01T00:00:00Z');
    const cache = await TokenCache.open(join(cwd, 'tokens.json'), { authUrl: svc.profile.authUrl, clientId: svc.profile.clientId }, { now: () => now });
    await cache.storePair({ ...seedPair(svc), receivedAt: now });
    const ok = (token: string) => ({ status: 200, headers: { 'x-access-token': token } });

    now += 30 * 60_000;
    expect(await cache.observeApiResponse(ok('at-1'))).toBe(false); // younger than an hour: not yet
    now += 31 * 60_000;
    expect(await cache.observeApiResponse({ status: 401, headers: { 'x-access-token': 'at-x' } })).toBe(false);
    expect(await cache.observeApiResponse({ status: 200, headers: {} })).toBe(false);
    expect(await cache.observeApiResponse(ok('at-2'))).toBe(true);
    expect(cache.current()).toMatchObject({ accessToken: 'at-2', accessTokenReceivedAt: new Date(now).toISOString() });
    // the refresh token is untouched by rotation
    const onDisk = JSON.parse(await readFile(cache.path, 'utf8'));
    expect(onDisk.refreshTokenReceivedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(await cache.observeApiResponse(ok('at-3'), { intervalMs: 0 })).toBe(true);
  });

  test('rotation never writes back a refresh token another process has already replaced', async () => {
    const cwd = await freshDir();
    const path = join(cwd, 'tokens.json');
    const target = { authUrl: svc.profile.authUrl, clientId: svc.profile.clientId };
    const a = await TokenCache.open(path, target);
    await a.storePair(seedPair(svc));
    const b = await TokenCache.open(path, target);
    const newer = seedPair(svc);
    await b.storePair(newer);
    await a.observeApiResponse({ status: 200, headers: { 'x-access-token': 'rotated' } }, { intervalMs: 0 });
    const onDisk = JSON.parse(await readFile(path, 'utf8'));
    expect(onDisk).toMatchObject({ refreshToken: newer.refreshToken, accessToken: 'rotated' });
  });
});

describe('withTokenCache: suites that call the token endpoint themselves keep the chain', () => {
  test('a refresh of the cached token, as a form, a raw body or a query, has its successor stored before the caller sees it', async () => {
    const cwd = await freshDir();
    const cache = await openTokenCache(svc.profile, { cwd });
    await cache.storePair(seedPair(svc));
    const http = withTokenCache(fetchHttp(svc.profile), cache, svc.profile);
    const url = `${svc.profile.authUrl}/access_token`;
    const creds = { client_id: svc.profile.clientId, client_secret: svc.profile.clientSecret };

    const current = () => cache.current()!.refreshToken;
    const asForm = await http.request({ method: 'POST', url, form: { ...creds, grant_type: 'refresh_token', refresh_token: current() } });
    expect(JSON.parse(await readFile(cache.path, 'utf8')).refreshToken).toBe(asForm.json.refresh_token);

    const asBody = await http.request({
      method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...creds, grant_type: 'refresh_token', refresh_token: current() }).toString(),
    });
    expect(current()).toBe(asBody.json.refresh_token);

    // A reuse of a spent token (a suite's negative test) stores nothing and breaks nothing.
    const reuse = await http.request({ method: 'POST', url, form: { ...creds, grant_type: 'refresh_token', refresh_token: asForm.json.refresh_token } });
    expect(reuse.status).toBe(400);
    expect(current()).toBe(asBody.json.refresh_token);
    expect(svc.refreshTokens.get(current())).toBe('issued');

    // API answers: the rotated access token is recorded (interval permitting).
    const me = await http.api('GET', '/users/me', { accessToken: cache.current()!.accessToken });
    expect(me.status).toBe(200);
  });
});
