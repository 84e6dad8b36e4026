/**
 * `npm run mock` then `npm run login -- --target .lockconf/mock-target.json`
 * (docs/mock.md): the profile the mock command writes names a second registered
 * redirect URI on a loopback port, where the login command listens. The person's
 * sign-in is played here by the control protocol's POST /consent (the real pages
 * are covered by test/harness/sandbox/login-mock-browser.test.ts), and the
 * browser's last step, following the redirect, by a plain GET.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommandMock, type StartedMock } from '../../harness/commands/mock.js';
import { runLogin } from '../../harness/sandbox/login.js';
import { loadProfile } from '../../harness/service/profile.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let started: StartedMock;
let dir: string;

beforeAll(async () => {
  started = await startCommandMock({ port: 0, host: '127.0.0.1', control: true, seed: 99 });
  dir = await makeTmpDir('login-rehearsal');
});
afterAll(async () => {
  await started?.mock.close();
  await removeTmpDir(dir);
});

/** Plays the person: waits for the printed authorization URL, approves as the first user, follows the redirect. */
async function signInAsPerson(out: PassThrough, decision: 'approve' | 'deny' = 'approve'): Promise<number> {
  const url = await new Promise<string>((ok) => {
    let printed = '';
    out.on('data', (d: Buffer) => {
      printed += d.toString();
      const found = /^\s+(http:\S+\/authorization\?\S+)$/m.exec(printed);
      if (found && printed.includes('Waiting for the redirect')) ok(found[1]!);
    });
  });
  const { mock } = started;
  const consent = await fetch(`${mock.url}/_control/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-control-token': mock.profile.controlToken! },
    body: JSON.stringify({ authorizationUrl: url, userId: mock.ctx.world.users[0]!.userId, decision }),
  });
  const { location } = (await consent.json()) as { location: string };
  const landed = await fetch(location);
  await landed.text();
  return landed.status;
}

describe('npm run login against npm run mock', () => {
  it('the written profile loads as a target and names the loopback login redirect URI, which the mock accepts', async () => {
    const file = join(dir, 'mock-target.json');
    await writeFile(file, JSON.stringify(started.profile));
    const profile = await loadProfile({ file, env: {} });
    expect(profile?.redirectUri).toBe(started.loginRedirectUri);
    expect(started.loginRedirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The mock publishes the profile the file holds (its start page shows the same redirectUri).
    expect(started.mock.profile.redirectUri).toBe(started.loginRedirectUri);
    expect(started.loginRedirectUri).not.toBe(started.mock.ctx.credentials.redirectUri);
    // Both redirect URIs are registered: the demo page and the login listener.
    for (const redirect of [started.mock.ctx.credentials.redirectUri, started.loginRedirectUri]) {
      const query = new URLSearchParams({ client_id: started.profile.clientId, redirect_uri: redirect, state: 's' });
      expect((await started.mock.app.inject({ method: 'GET', url: `/oauth/authorization?${query}` })).statusCode).toBe(200);
    }
  });

  it('signs in end to end: the redirect reaches the login listener, the code is exchanged and the pair verified and stored', async () => {
    const out = new PassThrough();
    let printed = '';
    out.on('data', (d: Buffer) => { printed += d.toString(); });
    const person = signInAsPerson(out);
    const result = await runLogin({ profile: started.profile, open: false, output: out, cwd: dir, env: {}, timeoutMs: 20_000 });
    expect(await person).toBe(200);
    expect(result.verifiedStatus).toBe(200);
    expect(printed).toContain('Signed in.');
    const cache = JSON.parse(await readFile(result.cachePath, 'utf8')) as Record<string, unknown>;
    expect(typeof cache.refreshToken).toBe('string');
    // The cached refresh token is one the mock honours.
    const res = await started.mock.app.inject({
      method: 'POST', url: '/oauth/access_token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', client_id: started.profile.clientId, client_secret: started.profile.clientSecret, refresh_token: String(cache.refreshToken) }).toString(),
    });
    expect(res.statusCode).toBe(200);
    for (const secret of [started.profile.clientSecret, String(cache.refreshToken)]) expect(printed).not.toContain(secret);
  }, 30_000);
});
