/**
 * npm run login against the reference mock started WITHOUT its control
 * interface, the way a real sandbox is: headless Chromium (the profile's
 * browser script) goes through the mock's real sign-in, SMS and consent pages,
 * the redirect comes back to the command's loopback listener, and the cache
 * ends up with a pair that works. A denial and a foreign state store nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { RunningMock } from '../../../mock/server.js';
import { authorizationUrl, runLogin } from '../../../harness/sandbox/login.js';
import { parseBrowserScript, runBrowserLogin, type BrowserLoginScript } from '../../../harness/sandbox/browser-login.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { openTokenCache } from '../../../harness/sandbox/token-cache.js';
import { refreshAndStore, refreshDeps } from '../../../harness/sandbox/refresh-chain.js';
import { ensureChromium } from '../../support/chromium.js';
import { createSandboxMock } from '../../support/mock.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { fetchHttp } from './support/fetch-http.js';

let mock: RunningMock;
let dir: string;
let smsFile: string;
let env: NodeJS.ProcessEnv;
let work: string;

beforeAll(async () => {
  dir = await makeTmpDir('login-mock');
  smsFile = join(dir, 'sms.txt');
  // The user's phone: the SMS lands in a file the browser script's codeCommand reads.
  mock = await createSandboxMock(smsFile);
  const user = mock.ctx.world.users[0]!;
  env = { PATH: process.env.PATH, LOCKCONF_LOGIN_PASSWORD: user.password };
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});
afterEach(async () => {
  await removeTmpDir(work);
});

function script(extra: Record<string, unknown> = {}): BrowserLoginScript {
  return parseBrowserScript({
    email: mock.ctx.world.users[0]!.email,
    sms: { codeCommand: `cat '${smsFile}'` },
    executablePath: ensureChromium(),
    ...extra,
  });
}

async function workDir(): Promise<string> {
  work = await makeTmpDir('login-run');
  return work;
}

describe('npm run login against the mock without control', () => {
  test('the mock serves no control interface', async () => {
    expect(mock.profile.controlUrl ?? null).toBeNull();
    expect((await fetch(`${mock.url}/_control/fixtures`)).status).toBe(404);
  });

  test('the browser script signs in through the real pages; the cached pair refreshes and verifies', async () => {
    const cwd = await workDir();
    const out = new PassThrough();
    let printed = '';
    out.on('data', (d: Buffer) => { printed += d.toString(); });
    const result = await runLogin({ profile: mock.profile, browserScript: script(), open: false, output: out, cwd, env, timeoutMs: 60_000 });
    expect(result.verifiedStatus).toBe(200);
    expect((await stat(result.cachePath)).mode & 0o777).toBe(0o600);
    expect(printed).toMatch(/browser: signing in[\s\S]*browser: entering the SMS code[\s\S]*browser: approve at the consent page[\s\S]*Signed in\./);

    const record = JSON.parse(await readFile(result.cachePath, 'utf8'));
    for (const secret of [record.refreshToken, record.accessToken, mock.profile.clientSecret, env.LOCKCONF_LOGIN_PASSWORD!]) {
      expect(printed).not.toContain(secret);
    }
    // The chain goes on from the cache: redeem, store, verify.
    const cache = await openTokenCache(mock.profile, { cwd });
    const session = await refreshAndStore(cache, refreshDeps(fetchHttp(mock.profile), mock.profile));
    expect(session.refreshToken).not.toBe(record.refreshToken);
    const me = await fetchHttp(mock.profile).api('GET', '/users/me', { accessToken: session.accessToken });
    expect(me.status).toBe(200);
  }, 90_000);

  test('Cancel at the consent page: a clear message and nothing stored', async () => {
    const cwd = await workDir();
    const err = await runLogin({ profile: mock.profile, browserScript: script({ decision: 'deny' }), open: false, output: new PassThrough(), cwd, env, timeoutMs: 60_000 })
      .catch((e: unknown) => e);
    expect(isLockconfError(err, 'ERR_LOGIN')).toBe(true);
    expect((err as Error).message).toMatch(/access was denied at the consent step \(error=access_denied\)\. Nothing was stored/);
    await expect(stat(join(cwd, '.lockconf', 'tokens.json'))).rejects.toThrow(/ENOENT/);
  }, 90_000);

  test('a redirect from another sign-in (a stale tab, another state) is refused and stores nothing', async () => {
    const cwd = await workDir();
    const out = new PassThrough();
    let printed = '';
    const started = new Promise<void>((ok) => out.on('data', (d: Buffer) => { printed += d.toString(); if (printed.includes('Waiting for the redirect')) ok(); }));
    const login = runLogin({ profile: mock.profile, open: false, output: out, cwd, env, timeoutMs: 60_000 }).catch((e: unknown) => e);
    await started;
    // The person completes an older authorization request, whose state is not the one the command sent.
    await runBrowserLogin({ authorizationUrl: authorizationUrl(mock.profile, 'stale-tab'), redirectUri: mock.profile.redirectUri, script: script(), env });
    const err = await login;
    expect(isLockconfError(err, 'ERR_LOGIN')).toBe(true);
    expect((err as Error).message).toMatch(/state in the redirect does not match/);
    await expect(stat(join(cwd, '.lockconf', 'tokens.json'))).rejects.toThrow(/ENOENT/);
  }, 90_000);
});
