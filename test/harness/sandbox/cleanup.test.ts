/**
 * Clean-up of the webhook registrations a run creates: the journal written
 * before each registration, the deletions at the end (kept for the next run when
 * they fail), and the interrupt handler that lets a refresh finish first.
 */
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  RegistrationJournal, cleanUpRegistrations, deleteRegistrations, describeCleanup, onInterrupt, overwriteWarning, registrationJournalPath, withRegistrationJournal,
} from '../../../harness/sandbox/cleanup.js';
import { TokenCache } from '../../../harness/sandbox/token-cache.js';
import { trackRefresh } from '../../../harness/sandbox/refresh-chain.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { fetchHttp } from './support/fetch-http.js';
import { startKillTarget } from './support/kill-target.js';
import type { HttpClientLike, HttpResponse } from '../../../harness/contracts.js';

let dir: string;
afterEach(async () => {
  await removeTmpDir(dir);
});

function stubHttp(statusFor: (path: string) => number | Error): HttpClientLike & { calls: Array<{ method: string; path: string; token: string | null | undefined }> } {
  const calls: Array<{ method: string; path: string; token: string | null | undefined }> = [];
  const answer = (status: number): HttpResponse => ({ status, headers: {}, text: '', json: undefined, location: null, durationMs: 1 });
  return {
    calls,
    request: async () => answer(500),
    api: async (method, path, opts) => {
      calls.push({ method, path, token: opts.accessToken });
      const s = statusFor(path);
      if (s instanceof Error) throw s;
      return answer(s);
    },
    exchanges: () => [],
  };
}

describe('registration journal', () => {
  test('records before registering (0600, one line each), lists each registration once, tolerates a torn last line', async () => {
    dir = await makeTmpDir('cleanup');
    const journal = new RegistrationJournal(registrationJournalPath(join(dir, 'tokens.json')));
    expect(journal.path).toBe(join(dir, 'registrations.jsonl'));
    expect(await journal.pending()).toEqual([]);
    journal.record({ kind: 'lock', lockId: 'AB12', clientId: 'client-1' });
    journal.record({ kind: 'lock', lockId: 'AB12', clientId: 'client-1' }); // registered again: overwritten, one to delete
    journal.record({ kind: 'user' });
    expect((await stat(journal.path)).mode & 0o777).toBe(0o600);
    const { appendFile } = await import('node:fs/promises');
    await appendFile(journal.path, '{"kind":"lo');
    expect(await journal.pending()).toEqual([{ kind: 'lock', lockId: 'AB12', clientId: 'client-1' }, { kind: 'user' }]);
    expect(() => journal.record({ kind: 'lock', lockId: '', clientId: 'c' })).toThrow();
  });

  test('deletes every registration; failures stay listed for the next run and are described', async () => {
    dir = await makeTmpDir('cleanup');
    const journal = new RegistrationJournal(join(dir, 'registrations.jsonl'));
    journal.record({ kind: 'lock', lockId: 'AB 12', clientId: 'client-1' });
    journal.record({ kind: 'lock', lockId: 'CD34', clientId: 'client-1' });
    journal.record({ kind: 'lock', lockId: 'EF56', clientId: 'client-1' });
    journal.record({ kind: 'user' });
    const http = stubHttp((path) => (path.startsWith('/webhook/CD34') ? 503 : path.startsWith('/webhook/EF56') ? 404 : path === '/webhook/user' ? new Error('socket hang up') : 204));
    const result = await deleteRegistrations(journal, { http, accessToken: () => 'at-1' });
    expect(http.calls).toEqual([
      { method: 'DELETE', path: '/webhook/AB%2012/client-1', token: 'at-1' },
      { method: 'DELETE', path: '/webhook/CD34/client-1', token: 'at-1' },
      { method: 'DELETE', path: '/webhook/EF56/client-1', token: 'at-1' },
      { method: 'DELETE', path: '/webhook/user', token: 'at-1' },
    ]);
    expect(result.deleted).toHaveLength(2); // 204, and 404 (already gone)
    expect(await journal.pending()).toEqual([{ kind: 'lock', lockId: 'CD34', clientId: 'client-1' }, { kind: 'user' }]);
    expect(describeCleanup(result)).toEqual([
      'deleted 2 webhook registration(s) the run created',
      'could not delete the lock webhook on CD34 (HTTP 503); it stays listed and the next run retries',
      'could not delete the user webhook (socket hang up); it stays listed and the next run retries',
    ]);

    // The next run deletes the rest; the journal disappears.
    const second = await deleteRegistrations(journal, { http: stubHttp(() => 200), accessToken: async () => 'at-2' });
    expect(second.deleted).toHaveLength(2);
    await expect(readFile(journal.path)).rejects.toThrow(/ENOENT/);
  });
});

describe('against the mock: registrations made through the wrapped client are deleted at the end', () => {
  test('lock and user webhooks are journaled before the POST and deleted by cleanUpRegistrations', async () => {
    dir = await makeTmpDir('cleanup');
    const target = await startKillTarget();
    try {
      const { profile } = target;
      const cache = await TokenCache.open(join(dir, 'tokens.json'), { authUrl: profile.authUrl, clientId: profile.clientId });
      await cache.storePair(await target.signIn());
      const journal = new RegistrationJournal(registrationJournalPath(cache.path));
      const base = fetchHttp(profile);
      const seen: string[] = [];
      const http = withRegistrationJournal({
        ...base,
        api: async (method, path, opts) => {
          seen.push(`${method} ${path}: journal has ${(await journal.pending()).length}`);
          return base.api(method, path, opts);
        },
      }, journal, profile);
      const lockId = profile.fixtures!.locks[0]!.lockId;
      const body = (types: string[]) => ({ url: 'http://127.0.0.1:9/hook', method: 'POST', clientID: profile.clientId, header: 'x-test', token: 'abc', notificationTypes: types });
      const accessToken = cache.current()!.accessToken;
      expect((await http.api('POST', `/webhook/${lockId}`, { accessToken, json: body(['operation']) })).status).toBeLessThan(300);
      expect((await http.api('POST', '/webhook/user', { accessToken, json: body(['lockmembership']) })).status).toBeLessThan(300);
      await http.api('GET', '/users/me', { accessToken });
      expect(seen).toEqual([`POST /webhook/${lockId}: journal has 1`, 'POST /webhook/user: journal has 2', 'GET /users/me: journal has 2']);

      expect(await cleanUpRegistrations(cache, { http: base })).toEqual(['deleted 2 webhook registration(s) the run created']);
      expect(await journal.pending()).toEqual([]);
      // Really gone: deleting again finds nothing.
      expect((await base.api('DELETE', `/webhook/${lockId}/${profile.clientId}`, { accessToken })).status).toBe(404);
      expect((await base.api('DELETE', '/webhook/user', { accessToken })).status).toBe(404);
      expect(await cleanUpRegistrations(cache, { http: base })).toEqual([]);
    } finally {
      await target.close();
    }
  });

  test('the overwrite warning names the locks and the advice', () => {
    expect(overwriteWarning(['AB12', 'CD34'])).toMatch(/^lockconf registers webhooks on locks AB12, CD34 .*replaced .*no way to read it back.*Use dedicated test locks\.$/);
  });
});

// Last in the file: after it, this worker refuses new refreshes (as a stopping run must).
describe('onInterrupt', () => {
  // The unit project's files share their worker (vitest.config.ts, isolate: false): the
  // files after this one load the harness afresh, with refreshes allowed.
  afterAll(() => { vi.resetModules(); });

  test('a stop waits for the refresh in flight, then cleans up, then exits with 128 + signal; a second signal exits at once', async () => {
    const order: string[] = [];
    const exits: number[] = [];
    let exited!: () => void;
    const done = new Promise<void>((ok) => { exited = ok; });
    let finishRefresh!: () => void;
    const refresh = trackRefresh(() => new Promise<void>((ok) => { finishRefresh = () => { order.push('refresh stored'); ok(); }; }));
    const off = onInterrupt(async (signal) => { order.push(`cleanup after ${signal}`); }, {
      exit: (code) => { exits.push(code); order.push(`exit ${code}`); exited(); },
      log: (line) => { order.push(line.split(':')[0]!); },
    });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      await new Promise((r) => setTimeout(r, 20));
      expect(order).toEqual(['SIGTERM']); // still waiting for the refresh
      // A refresh asked for now is refused: the run is stopping.
      await expect(trackRefresh(async () => 'new')).rejects.toThrow(/stopping/);
      finishRefresh();
      await refresh;
      await done;
      expect(order).toEqual(['SIGTERM', 'refresh stored', 'cleanup after SIGTERM', 'exit 143']);
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([143, 130]);
    } finally {
      off();
    }
  });
});
