/** Global setup: embedded mock or a profile, capabilities with reasons, the run context, unreachable targets. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMockOptions, parseSeed, prepareRun } from '../../../harness/service/global-setup.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { targetEnv } from '../../support/target-env.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let dir: string;
let mock: RunningMock;

beforeAll(async () => {
  dir = await makeTmpDir('setup');
  mock = await createMock({});
});

afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});

/** The mock's profile as LOCKCONF_* variables, without the given fields. */
function envFor(runDir: string, drop: string[] = [], extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const p = mock.profile;
  const env: NodeJS.ProcessEnv = {
    LOCKCONF_RUN_DIR: runDir,
    LOCKCONF_SEED: '4242',
    ...targetEnv(p),
    LOCKCONF_CONTROL_URL: p.controlUrl ?? '',
    LOCKCONF_CONTROL_TOKEN: p.controlToken ?? '',
    LOCKCONF_TOKEN_CACHE: join(dir, 'no-tokens.json'),
    ...extra,
  };
  for (const name of drop) delete env[name];
  return env;
}

describe('prepareRun', () => {
  test('without a profile it starts the embedded mock, offers every capability and writes a secret-free run context', async () => {
    const runDir = join(dir, 'embedded');
    const { setup, close } = await prepareRun({ LOCKCONF_RUN_DIR: runDir, LOCKCONF_SEED: '7' });
    try {
      expect(setup.mock).toBe(true);
      expect(setup.seed).toBe(7);
      expect(setup.runDir).toBe(runDir);
      expect(setup.fixtures?.users.length).toBeGreaterThanOrEqual(2);
      expect(setup.missing).toEqual({});
      expect(setup.capabilities).toEqual(expect.arrayContaining(['control', 'consent', 'clock', 'events', 'user-token', 'second-user', 'capture']));
      expect(setup.capture?.publicBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      const text = await readFile(join(runDir, 'run-context.json'), 'utf8');
      const context = JSON.parse(text);
      expect(context).toMatchObject({ target: { mock: true, authUrl: setup.profile.authUrl, baseUrl: setup.profile.baseUrl }, seed: 7, tool: { name: 'lockconf' } });
      for (const secret of [setup.profile.clientSecret, setup.profile.apiKey, setup.profile.controlToken!, setup.capture!.token]) {
        expect(text).not.toContain(secret);
      }
      const res = await fetch(`${setup.profile.controlUrl}/fixtures`, { headers: { 'x-control-token': setup.profile.controlToken! } });
      expect(res.status).toBe(200);
    } finally {
      await close();
    }
    const after = await fetch(`${setup.profile.controlUrl}/fixtures`).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(Error); // the mock is closed
  });

  test('a profile with control: fixtures come from GET /fixtures', async () => {
    const { setup, close } = await prepareRun(envFor(join(dir, 'control')));
    try {
      expect(setup.mock).toBe(false);
      expect(setup.seed).toBe(4242);
      expect(setup.fixtures?.users.map((u) => u.userId)).toEqual(mock.profile.fixtures?.users.map((u) => u.userId));
      expect(setup.capabilities).toContain('consent');
    } finally {
      await close();
    }
  });

  test('a profile without control: each hook is missing with the reason, and so is the user token', async () => {
    const fixtures = JSON.stringify(mock.profile.fixtures);
    const { setup, close } = await prepareRun(envFor(join(dir, 'no-control'), ['LOCKCONF_CONTROL_URL', 'LOCKCONF_CONTROL_TOKEN'], { LOCKCONF_FIXTURES: fixtures }));
    try {
      // A profile's fixtures carry users and locks (the control answer's optional fields are not profile fields).
      expect(setup.fixtures).toEqual({ users: mock.profile.fixtures!.users, locks: mock.profile.fixtures!.locks });
      expect(setup.capabilities).toEqual(['capture']);
      expect(setup.missing.control).toBe('the profile has no controlUrl and controlToken');
      expect(setup.missing.clock).toBe('needs control (the profile has no controlUrl and controlToken)');
      expect(setup.missing['user-token']).toBe('no control interface and no token cache (run npm run login)');
    } finally {
      await close();
    }
  });

  test('a control interface that refuses the token is reported missing, without the token', async () => {
    const { setup, close } = await prepareRun(envFor(join(dir, 'bad-control'), [], { LOCKCONF_CONTROL_TOKEN: 'wrong-control-token-000' }));
    try {
      expect(setup.capabilities).not.toContain('control');
      expect(setup.missing.control).toContain('did not answer GET /fixtures');
      expect(setup.missing.control).toContain('401');
      expect(JSON.stringify(setup.missing)).not.toContain('wrong-control-token-000');
    } finally {
      await close();
    }
  });

  test('an unreachable target stops the run with ERR_TARGET_UNREACHABLE', async () => {
    const closed = await createMock({});
    const url = closed.url;
    await closed.close();
    const env = envFor(join(dir, 'unreachable'), [], { LOCKCONF_AUTH_URL: `${url}/oauth`, LOCKCONF_BASE_URL: `${url}/api` });
    const err = await prepareRun(env).catch((e: unknown) => e);
    expect(isLockconfError(err, 'ERR_TARGET_UNREACHABLE')).toBe(true);
    expect((err as Error).message).toContain(`${url}/oauth`);
  });
});

describe('run parameters', () => {
  test('LOCKCONF_SEED must be an integer; absent, the seed is random 31-bit', () => {
    expect(parseSeed('123')).toBe(123);
    expect(() => parseSeed('12abc')).toThrow(/LOCKCONF_SEED/);
    const seed = parseSeed(undefined);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31).toBe(true);
  });

  test('LOCKCONF_MOCK_OPTIONS must be a JSON object', () => {
    expect(parseMockOptions('{"faults":["code-reusable"]}')).toEqual({ faults: ['code-reusable'] });
    expect(parseMockOptions(undefined)).toEqual({});
    expect(() => parseMockOptions('{nope')).toThrow(/not valid JSON/);
    expect(() => parseMockOptions('[1]')).toThrow(/JSON object/);
  });
});
