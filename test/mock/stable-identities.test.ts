/**
 * Stable identities (docs/mock.md): `npm run mock -- --seed N` and `--credentials FILE`
 * give the same client ID, secrets, user and lock IDs on every start; without them
 * every start is new. Two starts are compared, each answering real requests.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCredentialsFile, startCommandMock, type MockCommandOptions } from '../../harness/commands/mock.js';
import { UsageFailure } from '../../harness/commands/common.js';
import { seededCredentials } from '../../mock/identities.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { userTokens } from '../support/mock.js';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await makeTmpDir('mock-identities');
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => removeTmpDir(d)));
});

function identities(mock: RunningMock) {
  const { clientId, clientSecret, apiKey, controlToken } = mock.profile;
  return {
    clientId, clientSecret, apiKey, controlToken,
    users: mock.ctx.world.users.map((u) => u.userId),
    locks: mock.ctx.world.locks.map((l) => ({ lockId: l.lockId, owner: l.ownerUserId, bridge: l.bridgeId, members: [...l.members] })),
  };
}

async function twoStarts(options: Parameters<typeof createMock>[0]) {
  const first = await createMock(options);
  const a = identities(first);
  await first.close();
  const second = await createMock(options);
  try {
    return { a, b: identities(second), second };
  } finally {
    await second.close();
  }
}

const COMMAND: MockCommandOptions = { port: 0, host: '127.0.0.1', control: true };

describe('Stable identities', () => {
  it('the same seed gives the same client ID, secrets, user and lock IDs on every start', async () => {
    const { a, b } = await twoStarts({ seed: 42 });
    expect(b).toEqual(a);
    expect(a.clientSecret).toBe(seededCredentials(42).clientSecret);
    // The fixtures' shape survives: the first user owns both locks, the second is a guest on the first.
    expect(a.locks[0]!.owner).toBe(a.users[0]);
    expect(a.locks[0]!.members).toEqual([[a.users[0], 'superuser'], [a.users[1], 'user']]);
    expect(a.users[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.locks[0]!.lockId).toMatch(/^[0-9A-F]{32}$/);
  });

  it('another seed, or no seed, gives other identities', async () => {
    const [seeded, other, random] = await Promise.all([createMock({ seed: 42 }), createMock({ seed: 43 }), createMock()]);
    try {
      for (const m of [other, random]) {
        expect(m.profile.clientSecret).not.toBe(seeded.profile.clientSecret);
        expect(m.ctx.world.locks[0]!.lockId).not.toBe(seeded.ctx.world.locks[0]!.lockId);
        expect(m.ctx.world.users[0]!.userId).not.toBe(seeded.ctx.world.users[0]!.userId);
      }
    } finally {
      await Promise.all([seeded.close(), other.close(), random.close()]);
    }
  });

  it('a seeded mock works end to end: tokens for the seeded user, the seeded lock in its list', async () => {
    const mock = await createMock({ seed: 7 });
    try {
      const { accessToken } = await userTokens(mock, 0);
      const res = await mock.app.inject({ method: 'GET', url: '/api/users/locks/mine', headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': accessToken } });
      expect(res.statusCode).toBe(200);
      // users[0] owns the first two locks; the further fixture sets belong to other users.
      expect(Object.keys(res.json())).toEqual(mock.ctx.world.locks.slice(0, 2).map((l) => l.lockId));
    } finally {
      await mock.close();
    }
  });

  it('fixed credentials win over the seed; the lower-case variant keeps its case', async () => {
    const mock = await createMock({ seed: 42, credentials: { clientId: 'my-client' }, lowerCaseLockIds: true });
    try {
      expect(mock.profile.clientId).toBe('my-client');
      expect(mock.profile.apiKey).toBe(seededCredentials(42).apiKey);
      expect(mock.ctx.world.locks[0]!.lockId).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await mock.close();
    }
  });

  it('refuses a seed out of range', async () => {
    await expect(createMock({ seed: -1 })).rejects.toThrow(RangeError);
  });
});

describe('npm run mock -- --seed N / --credentials FILE', () => {
  it('--seed: two starts of the command print the same profile (addresses aside)', async () => {
    // Addresses aside: the mock's own, and the redirect URIs on it (the fixtures' further clients' too).
    const aside = (p: typeof one.profile) => ({
      ...p, authUrl: '', baseUrl: '', controlUrl: '', redirectUri: '',
      fixtures: p.fixtures ? { ...p.fixtures, clients: p.fixtures.clients?.map((c) => ({ ...c, redirectUri: '' })) } : p.fixtures,
    });
    const one = await startCommandMock({ ...COMMAND, seed: 1234 });
    const first = aside(one.profile);
    await one.mock.close();
    const two = await startCommandMock({ ...COMMAND, seed: 1234 });
    await two.mock.close();
    expect(aside(two.profile)).toEqual(first);
    expect(first.fixtures?.clients).toHaveLength(1);
  });

  it('--credentials: a file fixes the secrets and may carry the seed; a saved mock-target.json is accepted', async () => {
    const dir = await tempDir();
    const file = join(dir, 'creds.json');
    await writeFile(file, JSON.stringify({ seed: 5, clientId: 'dev-client', clientSecret: 'dev-secret-0001', apiKey: 'dev-api-key-0001', controlToken: 'dev-control-0001', authUrl: 'ignored' }));
    const started = await startCommandMock({ ...COMMAND, credentials: file });
    try {
      expect(started.profile).toMatchObject({ clientId: 'dev-client', clientSecret: 'dev-secret-0001', apiKey: 'dev-api-key-0001', controlToken: 'dev-control-0001' });
      const seeded = await createMock({ seed: 5 });
      expect(started.mock.ctx.world.locks.map((l) => l.lockId)).toEqual(seeded.ctx.world.locks.map((l) => l.lockId));
      await seeded.close();
    } finally {
      await started.mock.close();
    }
  });

  it('--credentials: a bad file is refused with a message naming the file and field, never the value', async () => {
    const dir = await tempDir();
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ clientSecret: 'short' }));
    const err = await loadCredentialsFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageFailure);
    expect((err as Error).message).toContain('clientSecret');
    expect((err as Error).message).not.toContain('short"');
    await expect(loadCredentialsFile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read it \(ENOENT\)/);
    await writeFile(file, '{');
    await expect(loadCredentialsFile(file)).rejects.toThrow(/not valid JSON/);
  });
});
