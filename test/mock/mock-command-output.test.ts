/**
 * `npm run mock` as a development server (docs/mock.md): its start-up output is a
 * short banner (addresses, the profile file, how to stop) that a CI log may keep,
 * so it never carries a secret; the page and the profile file name one redirectUri;
 * installed from the tarball, it names the commands that exist there (npx lockconf …).
 */
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandStyleOf, mockBanner } from '../../harness/commands/mock.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { ROOT, startCli, type RunningCli } from '../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

/** The developer's own profile file, put aside while the command under test writes its own. */
const PROFILE = join(ROOT, '.lockconf', 'mock-target.json');
const SAVED = `${PROFILE}.before-test`;

describe('npm run mock: the start-up output', () => {
  let running: RunningCli;
  let output: string;
  let profile: Record<string, unknown>;

  beforeAll(async () => {
    if (existsSync(PROFILE)) await rename(PROFILE, SAVED);
    running = startCli(['mock', '--port', '0']);
    output = await new Promise<string>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`the mock did not start:\n${running.output()}`)), 60_000);
      const poll = setInterval(() => {
        if (!running.output().includes('Ctrl-C stops it')) return;
        clearInterval(poll);
        clearTimeout(timer);
        ready(running.output());
      }, 50);
    });
    profile = JSON.parse(await readFile(PROFILE, 'utf8')) as Record<string, unknown>;
  }, 90_000);
  afterAll(async () => {
    running?.child.kill('SIGTERM');
    await running?.done;
    if (existsSync(SAVED)) await rename(SAVED, PROFILE);
  });

  it('is a short banner: the addresses, the profile file, how to stop', () => {
    const lines = output.trimEnd().split('\n');
    expect(lines.length, output).toBeLessThanOrEqual(12);
    expect(output).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain(PROFILE);
    expect(output).toContain('npm run conformance -- --target');
    expect(output).toContain('Ctrl-C stops it.');
  });

  it('never prints the client secret, the API key or the control token, not even while requests carry them', async () => {
    const base = String(profile.authUrl).replace(/\/oauth$/, '');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    await fetch(`${base}/oauth/access_token`, { method: 'POST', headers: form, body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', client_id: String(profile.clientId), client_secret: String(profile.clientSecret), redirect_uri: String(profile.redirectUri) }) });
    await fetch(`${base}/api/users/me`, { headers: { 'x-api-key': String(profile.apiKey), 'x-access-token': 'not-a-token' } });
    await fetch(`${base}/_control/fixtures`, { headers: { 'x-control-token': String(profile.controlToken) } });
    await fetch(`${base}/_control/clock`, { method: 'POST', headers: { 'x-control-token': String(profile.controlToken), 'content-type': 'application/json' }, body: '{"advanceMs":-1}' });
    // Whatever the mock logged for them is in its output by now or later: a leak shows whenever it is read.
    await new Promise((r) => setTimeout(r, 200));
    const output = running.output();
    for (const field of ['clientSecret', 'apiKey', 'controlToken']) {
      const secret = profile[field];
      expect(typeof secret, field).toBe('string');
      expect(output.includes(secret as string), `${field} printed`).toBe(false);
    }
  });

  it('the start page and the profile file name the same redirectUri', async () => {
    const base = String(profile.authUrl).replace(/\/oauth$/, '');
    const page = await (await fetch(`${base}/`)).text();
    const row = /<th>redirectUri<\/th><td><code>([^<]*)<\/code>/.exec(page);
    expect(row?.[1]).toBe(profile.redirectUri);
  });
});

describe('installed from the tarball: commands that exist there', () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await createMock({ commandStyle: 'npx', control: false });
    dir = await makeTmpDir('command-style');
  });
  afterAll(async () => {
    await mock?.close();
    await removeTmpDir(dir);
  });

  it('the repository is npm run; under node_modules, or without the scripts, npx lockconf', async () => {
    expect(await commandStyleOf(ROOT)).toBe('npm');
    expect(await commandStyleOf(join(dir, 'node_modules', 'lockconf'))).toBe('npx');
    expect(await commandStyleOf(dir)).toBe('npx');
  });

  it('the banner names npx lockconf conformance / login, never npm run', () => {
    const banner = mockBanner({ mock, file: '/x/.lockconf/mock-target.json', loginRedirectUri: 'http://127.0.0.1:1/callback', style: 'npx', opts: {} });
    expect(banner).toContain('npx lockconf conformance --target /x/.lockconf/mock-target.json');
    expect(banner).toContain('npx lockconf login --target');
    expect(banner).not.toContain('npm run');
  });

  it('the start page names npx lockconf and never "the repository root"', async () => {
    const page = (await mock.app.inject({ method: 'GET', url: '/' })).body;
    expect(page).toContain('npx lockconf conformance --target .lockconf/mock-target.json');
    expect(page).toContain('npx lockconf login');
    expect(page).not.toContain('npm run');
    expect(page).not.toContain('repository root');
  });
});
