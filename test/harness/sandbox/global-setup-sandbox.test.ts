/**
 * Global setup on a target without control, run from the token cache: what a
 * killed run left registered is deleted at the start, the fixture locks get an
 * overwrite warning, the webhook reachability probe decides the `capture`
 * capability, and the run's registrations are deleted at its end and on an
 * interrupt. The mock runs with control here only so the test can sign in
 * through its consent hook; global setup is told nothing about it.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { prepareRun } from '../../../harness/service/global-setup.js';
import { GRACEFUL_INTERRUPT } from '../../../harness/run/interrupt.js';
import { RegistrationJournal, registrationJournalPath } from '../../../harness/sandbox/cleanup.js';
import { TokenCache, cacheTarget, tokenSetFromResponse } from '../../../harness/sandbox/token-cache.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { freePort } from '../../support/net.js';
import { targetEnv } from '../../support/target-env.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { fetchHttp } from './support/fetch-http.js';

/** An address of this machine that is not loopback, when it has one. */
const EXTERNAL_IP = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address ?? null;

let mock: RunningMock;
let dir: string;

/** npm run login's result, obtained through the mock's consent hook: a verified pair in a fresh cache. */
async function signedInCache(name: string): Promise<TokenCache> {
  const p = mock.profile;
  const http = fetchHttp(p);
  const url = `${p.authUrl}/authorization?${new URLSearchParams({ client_id: p.clientId, redirect_uri: p.redirectUri, state: 'sandbox-setup' })}`;
  const consent = await http.request({
    method: 'POST', url: `${p.controlUrl}/consent`, headers: { 'x-control-token': p.controlToken! },
    json: { authorizationUrl: url, userId: p.fixtures!.users[0]!.userId, decision: 'approve' },
  });
  const code = new URL(consent.json.location).searchParams.get('code')!;
  const res = await http.request({
    method: 'POST', url: `${p.authUrl}/access_token`,
    form: { client_id: p.clientId, client_secret: p.clientSecret, grant_type: 'authorization_code', code },
  });
  const cache = await TokenCache.open(join(dir, name, 'tokens.json'), cacheTarget(p));
  await cache.storePair(tokenSetFromResponse(res, Date.now())!);
  return cache;
}

/** The mock's profile as LOCKCONF_* variables, without its control interface. */
function sandboxEnv(cache: TokenCache, runDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const p = mock.profile;
  return {
    LOCKCONF_RUN_DIR: runDir,
    LOCKCONF_SEED: '11',
    ...targetEnv(p),
    LOCKCONF_FIXTURES: JSON.stringify(p.fixtures),
    LOCKCONF_TOKEN_CACHE: cache.path,
    ...extra,
  };
}

function recorder() {
  const lines: string[] = [];
  return { lines, log: (line: string) => { lines.push(line); }, text: () => lines.join('\n') };
}

beforeAll(async () => {
  dir = await makeTmpDir('setup-sandbox');
  mock = await createMock({});
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
  // The unit project's files share their worker (vitest.config.ts, isolate: false): after the
  // interrupt test this file's harness refuses refreshes; the files after it load it afresh.
  vi.resetModules();
});

describe('global setup: sandbox clean-up and the webhook reachability probe', () => {
  test('leftovers are deleted at the start, the locks get a warning, the probe sees a delivery, the run\'s registrations go at the end', async () => {
    const cache = await signedInCache('happy');
    const lock = mock.profile.fixtures!.locks[0]!.lockId;
    const journal = new RegistrationJournal(registrationJournalPath(cache.path));
    // A killed run registered a webhook and never deleted it.
    journal.record({ kind: 'lock', lockId: lock, clientId: mock.profile.clientId });
    const out = recorder();

    const { setup, close } = await prepareRun(sandboxEnv(cache, join(dir, 'happy', 'run')), undefined, { log: out.log, exclusiveSignals: false, exit: () => {} });
    try {
      expect(out.lines[0]).toBe('deleted 1 webhook registration(s) the run created');
      expect(out.text()).toContain(`lockconf registers webhooks on locks ${mock.profile.fixtures!.locks.map((l) => l.lockId).join(', ')}`);
      expect(out.text()).toContain('Use dedicated test locks');
      expect(out.text()).toMatch(/webhook reachability: a delivery reached the capture server at http:\/\/127\.0\.0\.1:\d+ \d+ ms after the status check/);
      expect(setup.capabilities).toEqual(expect.arrayContaining(['user-token', 'capture']));
      expect(setup.missing.capture).toBeUndefined();
      // The probe journalled its registration before sending it (and deleted it already).
      expect(await journal.pending()).toEqual([{ kind: 'lock', lockId: lock, clientId: mock.profile.clientId }]);
    } finally {
      await close();
    }
    expect(out.lines.at(-1)).toBe('deleted 1 webhook registration(s) the run created');
    await expect(readFile(journal.path, 'utf8')).rejects.toThrow(/ENOENT/);
    // No refresh token was spent: the cached access token served the probe and the clean-up.
    expect((await cache.reload())?.refreshToken).toBe(cache.current()!.refreshToken);
  });

  test('a public URL the target cannot reach: every webhook test is not tested, with a reason naming the URL and what to check', async () => {
    const cache = await signedInCache('unreachable');
    const dead = `http://127.0.0.1:${await freePort()}/hooks`;
    const out = recorder();
    const { setup, close } = await prepareRun(
      sandboxEnv(cache, join(dir, 'unreachable', 'run'), { LOCKCONF_CAPTURE: JSON.stringify({ publicUrl: dead }) }),
      undefined,
      { log: out.log, exclusiveSignals: false, exit: () => {}, probeTimeoutMs: 400 },
    );
    try {
      expect(setup.capabilities).toContain('user-token');
      expect(setup.capabilities).not.toContain('capture');
      const why = setup.missing.capture!;
      expect(why).toContain(`The target was given ${dead} (capture.publicUrl)`);
      expect(why).toMatch(/tunnel/);
      expect(why).toMatch(/firewall/);
      expect(why).toMatch(/capture\.publicUrl is an address the target can reach/);
      expect(why).toContain('no delivery arrived within 0.4 s');
      expect(out.text()).toContain('The webhook tests are reported not tested');
      const context = JSON.parse(await readFile(join(setup.runDir!, 'run-context.json'), 'utf8'));
      expect(context.missing.capture).toBe(why);
    } finally {
      await close();
    }
  });

  test('a loopback target with control is not probed', async () => {
    const p = mock.profile;
    const out = recorder();
    const env = {
      LOCKCONF_RUN_DIR: join(dir, 'control', 'run'), ...targetEnv(p),
      LOCKCONF_CONTROL_URL: p.controlUrl!, LOCKCONF_CONTROL_TOKEN: p.controlToken!,
    };
    const { setup, close } = await prepareRun(env, undefined, { log: out.log, exclusiveSignals: false });
    await close();
    expect(setup.capabilities).toEqual(expect.arrayContaining(['control', 'capture']));
    expect(out.text()).not.toContain('reachability');
    expect(out.lines).toEqual([expect.stringMatching(new RegExp(`^target http://127\\.0\\.0\\.1:\\d+/api · seed \\d+ · ${setup.capabilities.length} capabilities$`))]);
  });

  test.skipIf(!EXTERNAL_IP)('a target reached over the network, with control, is probed with a consented session', async () => {
    // The same mock as seen from another machine: its API on a non-loopback address, the capture server behind a public URL.
    const remote = await createMock({ host: '0.0.0.0' });
    const port = await freePort();
    const out = recorder();
    try {
      const origin = `http://${EXTERNAL_IP}:${new URL(remote.url).port}`;
      const p = remote.profile;
      const env = {
        LOCKCONF_RUN_DIR: join(dir, 'remote', 'run'), ...targetEnv(p),
        LOCKCONF_AUTH_URL: `${origin}/oauth`, LOCKCONF_BASE_URL: `${origin}/api`,
        LOCKCONF_CONTROL_URL: `${origin}/_control`, LOCKCONF_CONTROL_TOKEN: p.controlToken!,
        LOCKCONF_CAPTURE: JSON.stringify({ listen: `0.0.0.0:${port}`, publicUrl: `http://${EXTERNAL_IP}:${port}` }),
      };
      const { setup, close } = await prepareRun(env, undefined, { log: out.log, exclusiveSignals: false });
      await close();
      expect(out.text()).toContain(`webhook reachability: a delivery reached the capture server at http://${EXTERNAL_IP}:${port}`);
      expect(setup.capabilities).toEqual(expect.arrayContaining(['control', 'consent', 'capture']));
    } finally {
      await remote.close();
    }
  });

  test('under the command line\'s graceful interrupt, the run leaves the signals to it: teardown deletes the registrations', async () => {
    const cache = await signedInCache('graceful');
    const graceful = Object.assign(() => {}, { [GRACEFUL_INTERRUPT]: true });
    process.on('SIGINT', graceful);
    const before = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => process.listenerCount(s));
    try {
      const { close } = await prepareRun(sandboxEnv(cache, join(dir, 'graceful', 'run')), undefined, { log: () => {}, exit: () => {} });
      expect((['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => process.listenerCount(s))).toEqual(before);
      expect(process.listeners('SIGINT')).toContain(graceful);
      await close();
    } finally {
      process.off('SIGINT', graceful);
    }
  });

  // Last in the file: an interrupt halts token refreshes for the rest of this process.
  test('an interrupt deletes the run\'s registrations, closes the capture server, then exits 128 + the signal', async () => {
    const cache = await signedInCache('interrupt');
    // Stands for vitest's own listener, which exits the process at once: set aside while the run is on.
    const decoy = vi.fn();
    process.on('SIGHUP', decoy);
    const listenersBefore = process.listenerCount('SIGHUP');
    const out = recorder();
    let exitCode: number | null = null;
    const exited = new Promise<void>((ok) => {
      void prepareRun(sandboxEnv(cache, join(dir, 'interrupt', 'run')), undefined, {
        log: out.log, exit: (code) => { exitCode = code; ok(); },
      }).then(({ setup }) => {
        // A test registered a webhook; then the run is interrupted.
        new RegistrationJournal(registrationJournalPath(cache.path)).record({ kind: 'user' });
        capture = setup.capture!.controlUrl;
        process.emit('SIGHUP', 'SIGHUP');
      });
    });
    let capture = '';
    await exited;
    expect(exitCode).toBe(129);
    expect(out.text()).toContain('SIGHUP: finishing the token refresh in flight and deleting the webhook registrations this run created');
    expect(out.lines.at(-1)).toBe('deleted 2 webhook registration(s) the run created');
    await expect(readFile(registrationJournalPath(cache.path), 'utf8')).rejects.toThrow(/ENOENT/);
    await expect(fetch(capture)).rejects.toThrow(); // closed
    expect(decoy).not.toHaveBeenCalled();
    expect(process.listenerCount('SIGHUP')).toBe(listenersBefore); // ours is gone with the run, the decoy is back
    expect(process.listeners('SIGHUP')).toContain(decoy);
    process.off('SIGHUP', decoy);
  });
});
