/**
 * The whole sandbox story against the reference mock started WITHOUT control:
 * sign in once through the real pages (headless Chromium, the profile's browser
 * script), then a conformance run from the token cache passes every suite that
 * needs no control, reports the others as not tested with their reason, writes
 * no token into its results, and leaves a working refresh token in the cache.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { RunningMock } from '../../../mock/server.js';
import { runLogin } from '../../../harness/sandbox/login.js';
import { parseBrowserScript } from '../../../harness/sandbox/browser-login.js';
import { openTokenCache } from '../../../harness/sandbox/token-cache.js';
import { refreshAndStore, refreshDeps } from '../../../harness/sandbox/refresh-chain.js';
import { ensureChromium } from '../../support/chromium.js';
import { cli } from '../../support/cli.js';
import { createSandboxMock } from '../../support/mock.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { fetchHttp } from './support/fetch-http.js';
import { filesUnder } from '../../support/files.js';

let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  dir = await makeTmpDir('sandbox-run');
  // The delivery timeout of the embedded mock (1 s): the no-retry-after-timeout check waits for it in real time.
  mock = await createSandboxMock(join(dir, 'sms.txt'), { deliveryTimeoutMs: 1000 });
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});

describe('a real-sandbox run against the mock without control', () => {
  test('login, then a run: control-free suites pass, the rest are not tested with a reason, the cache still works', async () => {
    const profile = { ...mock.profile, tokenCache: join(dir, 'state', 'tokens.json') };
    const user = mock.ctx.world.users[0]!;
    await runLogin({
      profile,
      open: false,
      output: new PassThrough(),
      browserScript: parseBrowserScript({ email: user.email, sms: { codeCommand: `cat '${join(dir, 'sms.txt')}'` }, executablePath: ensureChromium() }),
      env: { PATH: process.env.PATH, LOCKCONF_LOGIN_PASSWORD: user.password },
      timeoutMs: 60_000,
    });
    const targetFile = join(dir, 'target.json');
    writeFileSync(targetFile, JSON.stringify(profile), { mode: 0o600 });

    const out = join(dir, 'out');
    // A target without control: the harness cannot move its clock, so the no-retry checks listen in real
    // time, three quiet windows each. A short window (a weakening the run names) keeps them brief; what this
    // story checks is the login, the run from the token cache and what needs control being not tested.
    const run = await cli(['conformance', '--target', targetFile, '--out', out, '--no-allure', '--allow-incomplete'], { LOCKCONF_QUIET_WINDOW_MS: '100' });
    const printed = run.stdout + run.stderr;
    const exit = run.code;
    expect(exit, printed.slice(-3000)).toBe(0);
    // A --target without control is not known to reach the capture server: the probe ran and saw a delivery.
    expect(printed).toMatch(/webhook reachability: a delivery reached the capture server/);

    const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    expect(result.verdict).toBe('incomplete');
    expect(result.counts.failed, printed.slice(-3000)).toBe(0);
    expect(result.counts.warned).toBe(0);
    expect(result.counts.passed).toBeGreaterThanOrEqual(20);
    const byId = new Map<string, { status: string; reason?: string }>(result.requirements.map((r: { id: string }) => [r.id, r]));
    // What a user token alone can check passes ...
    for (const id of ['REFRESH-NEW-PAIR', 'REFRESH-SINGLE-USE', 'HEADERS-ROTATION-ON-SUCCESS', 'HEADERS-INVALID-TOKEN-401', 'WEBHOOK-LOCK-REGISTER', 'WEBHOOK-LOCK-DELETE', 'SIGNATURE-VALID']) {
      expect(byId.get(id)?.status, id).toBe('passed');
    }
    // ... and what needs control is not tested, each with its reason.
    for (const r of result.requirements.filter((q: { status: string }) => q.status === 'not-tested')) {
      expect(r.reason, r.id).toMatch(/\S/);
    }
    expect(byId.get('REFRESH-REVOKED')).toMatchObject({ status: 'not-tested' });

    // Every registration the run made was deleted at its end, after a warning.
    await expect(readFile(join(dir, 'state', 'registrations.jsonl'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(printed).toMatch(/deleted \d+ webhook registration\(s\) the run created/);
    expect(printed).toMatch(/Use dedicated test locks/);

    // The cache holds a working token after the run, and no token reached the results.
    const cache = await openTokenCache(profile);
    const after = cache.current()!;
    for (const file of await filesUnder(out)) {
      const text = await readFile(file, 'utf8');
      for (const secret of [after.refreshToken, after.accessToken, profile.clientSecret, profile.apiKey]) expect(text.includes(secret), file).toBe(false);
    }
    const session = await refreshAndStore(cache, refreshDeps(fetchHttp(profile), profile));
    expect((await fetchHttp(profile).api('GET', '/users/me', { accessToken: session.accessToken })).status).toBe(200);
  }, 240_000);
});
