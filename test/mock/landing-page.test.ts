/**
 * GET / (docs/mock.md): the mock's start page shows the profile without a
 * secret, the test users with their sign-in details and the locks, links to
 * /docs and /deliveries, and copy-paste curl examples that work: the whole
 * script is run with bash against a live mock.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import escapeHtml from 'escape-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockEventService } from '../../mock/events/event-service.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  mock = await createMock({ seed: 3, credentials: { loginRedirectUri: 'http://127.0.0.1:1/callback' } });
  dir = await makeTmpDir('landing');
});
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});

async function landing(m: RunningMock = mock): Promise<string> {
  const res = await m.app.inject({ method: 'GET', url: '/' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  return res.body;
}

/** The text of every <pre data-testid="curl"> block, unescaped, in order. */
function curlScript(page: string): string {
  const blocks = [...page.matchAll(/<pre data-testid="curl">([\s\S]*?)<\/pre>/g)].map((m) => m[1]!);
  return blocks.map((b) => b.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')).join('\n');
}

describe('The start page', () => {
  it('shows the profile but never a secret', async () => {
    const page = await landing();
    expect(page).toContain(escapeHtml(mock.profile.authUrl));
    expect(page).toContain(escapeHtml(mock.profile.baseUrl));
    expect(page).toContain(mock.profile.clientId);
    expect(page).toContain('http://127.0.0.1:1/callback');
    for (const secret of [mock.profile.clientSecret, mock.profile.apiKey, mock.profile.controlToken!]) expect(page).not.toContain(secret);
    expect(page).toContain('stable identities (seed 3)');
  });

  it('lists the test users with their sign-in details, and the locks', async () => {
    const page = await landing();
    for (const user of mock.ctx.world.users) {
      for (const value of [user.email, user.password, user.userId]) expect(page).toContain(value);
    }
    for (const lock of mock.ctx.world.locks) expect(page).toContain(lock.lockId);
    expect(page).toMatch(/data-testid="try-sign-in"/);
  });

  it('links to the API description and the deliveries page', async () => {
    const page = await landing();
    expect(page).toContain('href="/docs"');
    expect(page).toContain('href="/deliveries"');
  });

  it('names the faults a mock runs with, and leaves the control examples out without control', async () => {
    const faulty = await createMock({ faults: ['code-reusable'], control: false });
    try {
      const page = await landing(faulty);
      expect(page).toMatch(/data-testid="faults">faults: code-reusable/);
      expect(page).toContain('no control protocol');
      expect(curlScript(page)).not.toContain('_control');
    } finally {
      await faulty.close();
    }
  });

  it('escapes what it shows', async () => {
    const odd = await createMock({ credentials: { clientId: '<script>alert(1)</script>' } });
    try {
      const page = await landing(odd);
      expect(page).not.toContain('<script>alert(1)</script>');
      expect(page).toContain('&lt;script&gt;');
    } finally {
      await odd.close();
    }
  });
});

describe('The curl examples', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('run as written: code, tokens, API calls, refresh, webhook registration, a delivery, control calls, deletion', async () => {
    const script = curlScript(await landing());
    expect(script.length).toBeGreaterThan(500);
    await mkdir(join(dir, '.lockconf'));
    await writeFile(join(dir, '.lockconf', 'mock-target.json'), JSON.stringify(mock.profile));
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', RECEIVER: `${receiver.url}/hooks` },
      timeout: 30_000,
    });
    expect(stdout).toMatch(/HTTP\/1\.1 200 OK/);
    expect(stdout).toMatch(/x-access-token: \S+/i);
    expect(stdout).toContain(`"email":"${mock.ctx.world.users[0]!.email}"`);
    expect(stdout).toContain('"deleted":true');
    expect(stdout).toMatch(/"emitted":1/);
    await (mock.ctx.events as LockEventService).idle();
    // The status check and the emitted event reached the receiver, signed.
    const hooks = receiver.at('/hooks');
    expect(hooks.map((h) => h.json.EventType)).toEqual(['status', 'operation']);
    for (const hook of hooks) {
      expect(hook.headers['x-signature']).toMatch(/^t=\d+,v=/);
      expect(hook.headers['x-my-app']).toBe('my-app-token');
    }
    // The tour moved the clock a day forward and put it back: deliveries after it are current.
    expect(mock.ctx.clock.offsetMs).toBe(0);
  }, 40_000);

  it('put the clock back after moving it a day forward (a receiver checking t would refuse every delivery)', async () => {
    const script = curlScript(await landing());
    const forward = script.indexOf('{"advanceMs":86400000}');
    expect(forward).toBeGreaterThan(0);
    expect(script.indexOf('{"reset":true}', forward)).toBeGreaterThan(forward);
  });

  it('say the unit of the signature\'s t: milliseconds since the epoch', async () => {
    expect(await landing()).toContain('t=&lt;the mock&#39;s clock, in milliseconds since the epoch&gt;');
  });
});
