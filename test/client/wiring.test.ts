/**
 * Wiring up client mode (issue 22, items 1-4 and 8): the mock's profile file of one's
 * own (--profile-out), written once the mock listens and removed when it stops, so a
 * stale profile is never graded; the documentation names every mock option and the
 * client run's variables; a registration refused with 401 is judged, not "not tested".
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_HELP } from '../../harness/commands/help.js';
import { buildProgram } from '../../harness/cli.js';
import { judgeClient } from '../../harness/client/judge.js';
import { createMock } from '../../mock/server.js';
import { ROOT, cli, startCli } from '../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeTmpDir(d);
});

describe('lockconf mock --profile-out (items 1 and 2)', () => {
  it('writes its own file (0600), leaves the default one alone, removes it on stop', async () => {
    const dir = await makeTmpDir('profile-out');
    dirs.push(dir);
    const file = join(dir, 'mock-target.json');
    const defaultFile = join(ROOT, '.lockconf', 'mock-target.json');
    const before = existsSync(defaultFile) ? (await stat(defaultFile)).mtimeMs : null;
    const running = startCli(['mock', '--grade', '--port', '0', '--profile-out', file]);
    try {
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`the mock did not start:\n${running.output()}`)), 60_000);
        const poll = setInterval(() => {
          if (!running.output().includes('Ctrl-C stops it')) return;
          clearInterval(poll);
          clearTimeout(timer);
          ready();
        }, 50);
      });
      expect(running.output()).toContain(file);
      expect(running.output()).toContain(`--client --target ${file}`);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const profile = JSON.parse(await readFile(file, 'utf8')) as { controlUrl: string; controlToken: string };
      const answer = await request(`${profile.controlUrl}/grading`, { headers: { 'x-control-token': profile.controlToken } });
      await answer.body.dump();
      expect(answer.statusCode).toBe(200);
      expect(existsSync(defaultFile) ? (await stat(defaultFile)).mtimeMs : null).toBe(before);
    } finally {
      running.child.kill('SIGTERM');
      await running.done;
    }
    expect(existsSync(file), 'the profile of a stopped mock is removed').toBe(false);
  }, 90_000);

  it('a client run whose profile names a mock that is not running exits 2 naming the file', async () => {
    const dir = await makeTmpDir('stale-profile');
    dirs.push(dir);
    const mock = await createMock({ grade: true });
    const file = join(dir, 'stale.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, JSON.stringify(mock.profile), { mode: 0o600 }));
    await mock.close();
    const run = await cli(['conformance', '--client', '--target', file, '--no-allure', '--out', join(dir, 'out')]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(`${file} names a grading mock at`);
    expect(run.stdout + run.stderr).toContain('not running');
  }, 90_000);
});

describe('the documentation of client mode (items 3 and 4)', () => {
  it('docs/mock.md documents every option of lockconf mock, --grade and --redirect-uri among them', async () => {
    const doc = await readFile(join(ROOT, 'docs', 'mock.md'), 'utf8');
    const mock = buildProgram(() => {}).commands.find((c) => c.name() === 'mock')!;
    const flags = mock.options.map((o) => o.long!).filter((f) => f !== '--help');
    expect(flags).toEqual(expect.arrayContaining(['--grade', '--redirect-uri', '--profile-out']));
    expect(flags.filter((f) => !doc.includes(`\`${f}`))).toEqual([]);
  });

  it('conformance --help lists the client run\'s variables', () => {
    for (const variable of ['LOCKCONF_CONNECT_URL', 'LOCKCONF_REFRESH_URL', 'LOCKCONF_ACTION_URLS']) expect(CONFORMANCE_HELP).toContain(variable);
  });
});

describe('a registration refused with 401 (item 8)', () => {
  it('is recorded with its body and judged by the registration rules', async () => {
    const mock = await createMock({ grade: true });
    try {
      const p = mock.profile;
      const control = (path: string, body: unknown) => request(`${p.controlUrl}${path}`, {
        method: 'POST', headers: { 'x-control-token': p.controlToken!, 'content-type': 'application/json' }, body: JSON.stringify(body),
      }).then((r) => r.body.dump());
      await control('/grading/probe', { kind: 'api-401', endpoint: 'POST /webhook/:lockID' });
      const { token } = await mock.ctx.tokens.issue({ clientId: p.clientId, userId: p.fixtures!.users[0]!.userId });
      const lockId = p.fixtures!.locks[0]!.lockId;
      const res = await request(`${p.baseUrl}/webhook/${encodeURIComponent(lockId)}`, {
        method: 'POST',
        headers: { 'x-api-key': p.apiKey, 'x-access-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', method: 'POST', clientID: p.clientId, header: 'x-h', token: 't', notificationTypes: ['lifecycle'] }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(401);
      const events = mock.ctx.grading!.snapshot(p.clientId).events;
      const groups = judgeClient(events, p.clientId).find((j) => j.id === 'CLIENT-WEBHOOK-GROUPS');
      expect(groups?.status, groups?.reason).toBe('failed');
      expect(groups?.slices?.find((s) => s.value === 'POST /webhook/:lockID')?.status).toBe('failed');
    } finally {
      await mock.close();
    }
  });
});
