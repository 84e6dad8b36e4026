/**
 * `npm run login -- --target FILE [--browser] [--no-open]` as a person runs it,
 * against the mock started without control: the profile file's `login` section
 * drives headless Chromium through the real pages; the command says where the
 * cache is, prints no secret, and every failure it can explain ends with exit 2.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningMock } from '../../../mock/server.js';
import { ensureChromium } from '../../support/chromium.js';
import { cli } from '../../support/cli.js';
import { createSandboxMock } from '../../support/mock.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let mock: RunningMock;
let dir: string;
let smsFile: string;

/** A target file for the mock with a `login` section; the password travels in the environment. */
function targetFile(name: string, login: Record<string, unknown> = {}): { file: string; cache: string } {
  const cache = join(dir, name, 'tokens.json');
  const file = join(dir, `${name}.json`);
  const user = mock.ctx.world.users[0]!;
  writeFileSync(file, JSON.stringify({
    ...mock.profile,
    tokenCache: cache,
    login: { email: user.email, sms: { codeCommand: `cat '${smsFile}'` }, executablePath: ensureChromium(), ...login },
  }), { mode: 0o600 });
  return { file, cache };
}

beforeAll(async () => {
  dir = await makeTmpDir('login-cli');
  smsFile = join(dir, 'sms.txt');
  mock = await createSandboxMock(smsFile);
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});

describe('lockconf login (command line)', () => {
  test('--browser signs in with the profile\'s login section, stores a 0600 cache, says where, prints no secret', async () => {
    const { file, cache } = targetFile('ok');
    const password = mock.ctx.world.users[0]!.password;
    const r = await cli(['login', '--target', file, '--browser', '--no-open'], { LOCKCONF_LOGIN_PASSWORD: password });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`lockconf: token cache written to ${cache}`);
    expect((await stat(cache)).mode & 0o777).toBe(0o600);
    const record = JSON.parse(await readFile(cache, 'utf8'));
    for (const secret of [record.refreshToken, record.accessToken, mock.profile.clientSecret, mock.profile.apiKey, password]) {
      expect(r.stdout + r.stderr).not.toContain(secret);
    }
  }, 90_000);

  test('a denial at the consent page: exit 2, the reason, nothing stored', async () => {
    const { file, cache } = targetFile('deny', { decision: 'deny' });
    const r = await cli(['login', '--target', file, '--browser', '--no-open'], { LOCKCONF_LOGIN_PASSWORD: mock.ctx.world.users[0]!.password });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lockconf login: sign-in not completed: access was denied at the consent step (error=access_denied). Nothing was stored.');
    await expect(stat(cache)).rejects.toThrow(/ENOENT/);
  }, 90_000);

  test('no profile, a missing file, a bad login section or a cache under reports/: exit 2 with the reason, no secret', async () => {
    const bad = targetFile('bad', { decision: 'maybe' });
    const reports = join(dir, 'reports-cache.json');
    writeFileSync(reports, JSON.stringify({ ...mock.profile, tokenCache: 'reports/tokens.json' }), { mode: 0o600 });
    // Four child processes that share nothing: at the same time.
    const [none, missing, badScript, underReports] = await Promise.all([
      cli(['login']),
      cli(['login', '--target', join(dir, 'nope.json')]),
      cli(['login', '--target', bad.file, '--browser', '--no-open']),
      cli(['login', '--target', reports, '--no-open']),
    ]);

    expect(none.code).toBe(2);
    expect(none.stderr).toContain('login needs a target profile: --target FILE');

    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');

    expect(badScript.code).toBe(2);
    expect(badScript.stderr).toMatch(/lockconf login: invalid login section .*login\.decision/);

    expect(underReports.code).toBe(2);
    expect(underReports.stderr).toMatch(/lockconf login: token cache .* is under .*reports/);

    for (const r of [none, missing, badScript, underReports]) {
      expect(r.stdout + r.stderr).not.toContain(mock.profile.clientSecret);
    }
  }, 60_000);
});
