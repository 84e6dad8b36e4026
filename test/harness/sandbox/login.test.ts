/**
 * npm run login (runLogin) against a small stand-in service: the loopback
 * listener and the paste prompt, state and denial checks that store nothing,
 * and no code or token in what the command prints.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loopbackRedirect, runLogin } from '../../../harness/sandbox/login.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { openTokenCache } from '../../../harness/sandbox/token-cache.js';
import { refreshAndStore, refreshDeps } from '../../../harness/sandbox/refresh-chain.js';
import { freePort } from '../../support/net.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { fetchHttp } from './support/fetch-http.js';
import { startFakeService, type FakeService } from './support/fake-service.js';

/** Collects what the command prints, and resolves with the authorization URL once it is printed. */
function capture(): { stream: PassThrough; text: () => string; authorizationUrl: Promise<string> } {
  const stream = new PassThrough();
  let text = '';
  let found!: (url: string) => void;
  const authorizationUrl = new Promise<string>((ok) => { found = ok; });
  stream.on('data', (d: Buffer) => {
    text += d.toString();
    const m = /^\s+(http\S+\/authorization\?\S+)$/m.exec(text);
    if (m) found(m[1]!);
  });
  return { stream, text: () => text, authorizationUrl };
}

let svc: FakeService;
let dir: string;
let port: number;

beforeAll(async () => {
  port = await freePort();
  svc = await startFakeService({ redirectUri: `http://127.0.0.1:${port}/callback` });
});
afterAll(async () => {
  await svc.close();
});
afterEach(async () => {
  svc.decision = 'approve';
  await removeTmpDir(dir);
});

async function cwd(): Promise<string> {
  dir = await makeTmpDir('login');
  return dir;
}

const noCache = async (where: string) => expect(stat(join(where, '.lockconf', 'tokens.json'))).rejects.toThrow(/ENOENT/);

describe('loopback redirect URI: the command receives the redirect itself', () => {
  test('signs in, verifies, stores a pair whose refresh token works; prints no code or token', async () => {
    const where = await cwd();
    const out = capture();
    const login = runLogin({ profile: svc.profile, open: false, output: out.stream, cwd: where, timeoutMs: 10_000 });
    // The person's browser: follows the authorization redirect to the loopback listener.
    const page = await fetch(await out.authorizationUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You can close this page');
    const result = await login;
    expect(result).toEqual({ cachePath: join(where, '.lockconf', 'tokens.json'), verifiedStatus: 200 });

    const record = JSON.parse(await readFile(result.cachePath, 'utf8'));
    expect(svc.refreshTokens.get(record.refreshToken)).toBe('issued');
    expect(svc.accessTokens.has(record.accessToken)).toBe(true);
    const session = await refreshAndStore(await openTokenCache(svc.profile, { cwd: where }), refreshDeps(fetchHttp(svc.profile), svc.profile));
    expect(session.refreshToken).not.toBe(record.refreshToken);

    const printed = out.text();
    expect(printed).toMatch(/Signed in\. Tokens verified with GET \/users\/me and stored in \.\/\.lockconf\/tokens\.json \(mode 0600\)/);
    for (const secret of [record.refreshToken, record.accessToken, svc.profile.clientSecret, svc.profile.apiKey]) expect(printed).not.toContain(secret);
    expect(printed).not.toMatch(/code=/);
  });

  test('a redirect with another state is refused and stores nothing', async () => {
    const where = await cwd();
    svc.decision = 'wrong-state';
    const out = capture();
    const login = runLogin({ profile: svc.profile, open: false, output: out.stream, cwd: where, timeoutMs: 10_000 }).catch((e: unknown) => e);
    await fetch(await out.authorizationUrl);
    const err = await login;
    expect(isLockconfError(err, 'ERR_LOGIN')).toBe(true);
    expect((err as Error).message).toMatch(/state in the redirect does not match.*Nothing was stored/);
    await noCache(where);
  });

  test('a denial (error=access_denied) is reported and stores nothing', async () => {
    const where = await cwd();
    svc.decision = 'deny';
    const out = capture();
    const login = runLogin({ profile: svc.profile, open: false, output: out.stream, cwd: where, timeoutMs: 10_000 }).catch((e: unknown) => e);
    await fetch(await out.authorizationUrl);
    const err = await login;
    expect(isLockconfError(err, 'ERR_LOGIN')).toBe(true);
    expect((err as Error).message).toMatch(/access was denied at the consent step \(error=access_denied\)\. Nothing was stored/);
    await noCache(where);
  });

  test('stray requests to the listener get a 4xx page and do not end the wait; no redirect ends it with a clear error', async () => {
    const where = await cwd();
    const out = capture();
    const login = runLogin({ profile: svc.profile, open: false, output: out.stream, cwd: where, timeoutMs: 300 }).catch((e: unknown) => e);
    await out.authorizationUrl;
    expect((await fetch(`http://127.0.0.1:${port}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/callback`)).status).toBe(400);
    const err = await login;
    expect((err as Error).message).toMatch(/no redirect arrived within 0.3 s\. Nothing was stored/);
    await noCache(where);
  });
});

describe('other redirect URIs: the person pastes the address', () => {
  const remote = () => ({ ...svc.profile, redirectUri: 'https://app.example.test/callback' });

  test('the pasted redirect is checked, exchanged, verified and stored', async () => {
    const where = await cwd();
    const out = capture();
    const input = new PassThrough();
    const login = runLogin({ profile: remote(), open: false, output: out.stream, input, cwd: where });
    const answer = await fetch(await out.authorizationUrl, { redirect: 'manual' });
    input.write(answer.headers.get('location') + '\n');
    const result = await login;
    const record = JSON.parse(await readFile(result.cachePath, 'utf8'));
    expect(svc.refreshTokens.get(record.refreshToken)).toBe('issued');
    expect(out.text()).toMatch(/Paste that whole address here/);
  });

  test('something that is not a URL, or no answer at all, stores nothing', async () => {
    const where = await cwd();
    for (const pasted of ['not a url\n', null]) {
      const out = capture();
      const input = new PassThrough();
      const login = runLogin({ profile: remote(), open: false, output: out.stream, input, cwd: where }).catch((e: unknown) => e);
      await out.authorizationUrl;
      if (pasted) input.write(pasted); else input.end();
      const err = await login;
      expect(isLockconfError(err, 'ERR_LOGIN')).toBe(true);
      expect((err as Error).message).toMatch(pasted ? /not a URL/ : /input ended before a URL was pasted/);
    }
    await noCache(where);
  });
});

test('a token cache path under reports/ is refused before the sign-in starts', async () => {
  const where = await cwd();
  const out = capture();
  const err = await runLogin({ profile: { ...svc.profile, tokenCache: 'reports/tokens.json' }, open: false, output: out.stream, cwd: where }).catch((e: unknown) => e);
  expect(isLockconfError(err, 'ERR_TOKEN_CACHE')).toBe(true);
  expect(out.text()).toBe('');
});

test('loopbackRedirect: only http on a loopback address', () => {
  expect(loopbackRedirect('http://127.0.0.1:8765/cb')).toEqual({ host: '127.0.0.1', port: 8765, path: '/cb' });
  expect(loopbackRedirect('http://localhost/cb')).toEqual({ host: '127.0.0.1', port: 80, path: '/cb' });
  expect(loopbackRedirect('http://[::1]:9000/')).toEqual({ host: '::1', port: 9000, path: '/' });
  expect(loopbackRedirect('https://127.0.0.1:8765/cb')).toBeNull();
  expect(loopbackRedirect('http://app.example.test/cb')).toBeNull();
  expect(loopbackRedirect('nonsense')).toBeNull();
});
