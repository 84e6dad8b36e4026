import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { LockconfError } from '../../../harness/run/errors.js';
import { loadProfile, PROFILE_ENV, validateProfile } from '../../../harness/service/profile.js';

const SECRET = 'sEcReT-client-secret-value';
const API_KEY = 'aPi-KeY-value-123';
const CONTROL_TOKEN = 'cOnTrOl-token-value';

const full = {
  authUrl: 'https://auth.example.test/',
  baseUrl: 'https://api.example.test/v1//',
  clientId: 'client-1',
  clientSecret: SECRET,
  apiKey: API_KEY,
  redirectUri: 'https://app.example.test/callback',
  controlUrl: 'http://127.0.0.1:4010/_control/',
  controlToken: CONTROL_TOKEN,
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockconf-profile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function profileError(fn: () => unknown): LockconfError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LockconfError);
    expect((err as LockconfError).code).toBe('ERR_PROFILE_INVALID');
    return err as LockconfError;
  }
  throw new Error('expected ERR_PROFILE_INVALID');
}

async function loadError(p: Promise<unknown>): Promise<LockconfError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LockconfError);
  expect((err as LockconfError).code).toBe('ERR_PROFILE_INVALID');
  return err as LockconfError;
}

function expectNoSecret(message: string): void {
  for (const s of [SECRET, API_KEY, CONTROL_TOKEN, 'very-secret-but-bad']) expect(message).not.toContain(s);
}

describe('PROFILE_ENV', () => {
  test('maps every field to LOCKCONF_<UPPER_SNAKE>', () => {
    expect(PROFILE_ENV).toEqual({
      authUrl: 'LOCKCONF_AUTH_URL',
      baseUrl: 'LOCKCONF_BASE_URL',
      clientId: 'LOCKCONF_CLIENT_ID',
      clientSecret: 'LOCKCONF_CLIENT_SECRET',
      apiKey: 'LOCKCONF_API_KEY',
      redirectUri: 'LOCKCONF_REDIRECT_URI',
      controlUrl: 'LOCKCONF_CONTROL_URL',
      controlToken: 'LOCKCONF_CONTROL_TOKEN',
      fixtures: 'LOCKCONF_FIXTURES',
      capture: 'LOCKCONF_CAPTURE',
      statusCheck: 'LOCKCONF_STATUS_CHECK',
      tokenCache: 'LOCKCONF_TOKEN_CACHE',
    });
  });
});

describe('validateProfile', () => {
  test('fills the defaults and drops trailing slashes of base URLs', () => {
    const p = validateProfile(full);
    expect(p).toEqual({
      ...full,
      authUrl: 'https://auth.example.test',
      baseUrl: 'https://api.example.test/v1',
      controlUrl: 'http://127.0.0.1:4010/_control',
      fixtures: null,
      capture: { listen: '127.0.0.1:0', publicUrl: null },
      statusCheck: { method: 'PUT', path: '/remoteoperate/{lockId}/status' },
      tokenCache: '.lockconf/tokens.json',
    });
  });

  test('fixtures are required without controlUrl, optional with it', () => {
    const { controlUrl: _u, controlToken: _t, ...remote } = full;
    expect(profileError(() => validateProfile(remote)).message).toMatch(/fixtures is required when there is no controlUrl/);
    const fixtures = { users: [{ userId: 'u1' }], locks: [{ lockId: 'L1', keypad: true }] };
    expect(validateProfile({ ...remote, fixtures }).fixtures).toEqual(fixtures);
    expect(validateProfile({ ...remote, fixtures }).controlUrl).toBeNull();
  });

  test('controlToken is required with controlUrl', () => {
    const err = profileError(() => validateProfile({ ...full, controlToken: undefined }, 'target file t.json'));
    expect(err.message).toBe('invalid target profile: controlToken is required when controlUrl is given (target file t.json)');
  });

  test.each([
    ['authUrl', undefined, /authUrl is required/],
    ['baseUrl', 'api.example.test', /baseUrl must be an absolute http\(s\) URL/],
    ['authUrl', 'ftp://auth.example.test', /authUrl must be an absolute http\(s\) URL/],
    ['baseUrl', 'https://api.example.test/?x=1', /baseUrl must not carry a query or fragment/],
    ['redirectUri', '/callback', /redirectUri must be an absolute http\(s\) URL/],
    ['clientId', '', /clientId must not be empty/],
    ['clientSecret', undefined, /clientSecret is required/],
    ['clientSecret', 42, /clientSecret must be a string/],
    ['apiKey', '   ', /apiKey must not be empty/],
    ['controlUrl', 'localhost:4010', /controlUrl must be an absolute http\(s\) URL/],
    ['fixtures', [], /fixtures must be an object/],
    ['fixtures', { users: [{}], locks: [] }, /fixtures\.users\[0\]\.userId is required/],
    ['capture', { listen: 'nope' }, /capture\.listen must be "host:port"/],
    ['capture', { publicUrl: 'tunnel' }, /capture\.publicUrl must be an absolute http\(s\) URL/],
    ['statusCheck', { method: 'PUT' }, /statusCheck\.path is required/],
    ['statusCheck', { method: 'PUT', path: 'status' }, /statusCheck\.path must start with "\/"/],
    ['tokenCache', 7, /tokenCache must be a file path/],
  ])('%s = %j is refused with a message naming it', (field, value, message) => {
    const err = profileError(() => validateProfile({ ...full, [field]: value }, 'target file t.json'));
    expect(err.message).toMatch(message);
    expect(err.message).toContain('(target file t.json)');
    expectNoSecret(err.message);
  });

  test('a malformed secret is named, never echoed', () => {
    const err = profileError(() => validateProfile({ ...full, clientSecret: ['very-secret-but-bad'], apiKey: { k: 'very-secret-but-bad' } }));
    expect(err.message).toMatch(/clientSecret must be a string/);
    expect(err.message).toMatch(/apiKey must be a string/);
    expectNoSecret(err.message);
  });

  test('a profile that is not an object', () => {
    expect(profileError(() => validateProfile('text')).message).toMatch(/profile must be a JSON object/);
  });

  test('capture and statusCheck accept explicit values', () => {
    const p = validateProfile({ ...full, capture: { listen: '[::1]:8080', publicUrl: 'https://t.example.test/' }, statusCheck: { method: 'post', path: '/remoteoperate/status' } });
    expect(p.capture).toEqual({ listen: '[::1]:8080', publicUrl: 'https://t.example.test' });
    expect(p.statusCheck).toEqual({ method: 'POST', path: '/remoteoperate/status' });
  });
});

describe('a mistyped field is named, with the field it most likely meant', () => {
  const { controlUrl: _u, clientId: _c, ...rest } = full;
  test.each([
    ['controlURL instead of controlUrl', { ...rest, clientId: 'c', controlURL: full.controlUrl }, 'unknown field controlURL: did you mean controlUrl?'],
    ['clientID instead of clientId', { ...rest, controlUrl: full.controlUrl, clientID: 'c' }, 'unknown field clientID: did you mean clientId?'],
    ['an optional statusChek', { ...full, statusChek: { method: 'GET', path: '/s' } }, 'unknown field statusChek: did you mean statusCheck?'],
    ['capture.listn', { ...full, capture: { listn: '127.0.0.1:0' } }, 'unknown field capture.listn: did you mean capture.listen?'],
  ])('%s: one message naming both, and nothing the typo merely causes', (_name, input, message) => {
    const err = profileError(() => validateProfile(input, 'target file t.json'));
    expect(err.message).toBe(`invalid target profile: ${message} (target file t.json)`);
    expectNoSecret(err.message);
  });

  test('a key close to no field is ignored as it always was, and named once on stderr (where notes go)', () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      const profile = validateProfile({ ...full, description: 'staging', capture: { listen: '127.0.0.1:0', publicUrl: null, comment: 'x' } }, 'target file t.json');
      expect(profile.clientId).toBe(full.clientId);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toMatch(/the target profile's description, capture\.comment are no fields lockconf reads: ignored \(a note goes best under a key starting with "_" or "\/\/"\)/);
  });

  test('in the fixtures (which take the control protocol\'s further keys) a missing field names the key that was probably meant', () => {
    const err = profileError(() => validateProfile({ ...full, fixtures: { users: [{ userID: 'u1' }], locks: [] } }));
    expect(err.message).toContain('fixtures.users[0].userId is required (found "userID": did you mean userId?)');
  });

  test('every field of docs/target-profile.md, notes, the fields other commands read, and GET /fixtures extensions stay accepted', () => {
    const accepted = validateProfile({
      ...full,
      fixtures: { users: [{ userId: 'u1', email: 'a@b.test' }], locks: [{ lockId: 'L1', guestUserIds: ['u2'] }], clients: [], deliveryTimeoutMs: 5000 },
      capture: { listen: '127.0.0.1:0', publicUrl: null },
      statusCheck: { method: 'PUT', path: '/remoteoperate/{lockId}/status' },
      tokenCache: '.lockconf/t.json',
      login: { email: 'a@b.test' },
      connectUrl: 'http://127.0.0.1:3000/connect', refreshUrl: null, actionUrls: [],
      webhookHeader: 'x-hook', webhookToken: 'tok',
      $schema: 'https://example.test/schema.json', _comment: 'staging sandbox', '//': 'owned by team X',
    });
    expect(accepted.clientId).toBe(full.clientId);
    expect(accepted).not.toHaveProperty('login');
    expect(accepted).not.toHaveProperty('_comment');
  });
});

describe('loadProfile', () => {

  test('a LOCKCONF_ variable one typo away from a profile variable is named with it, its value never', async () => {
    const err = await loadError(loadProfile({ env: { LOCKCONF_CLIENT_SECRETS: SECRET, LOCKCONF_DELIVERY_WAIT_MS: '100', LOCKCONF_NO_BUILD: '1' } }));
    expect(err.message).toBe('environment variable LOCKCONF_CLIENT_SECRETS is no variable lockconf reads: did you mean LOCKCONF_CLIENT_SECRET?');
    expectNoSecret(err.message);
    // The other variables lockconf reads are no typo, and far-off names are none of its business.
    expect(await loadProfile({ env: { LOCKCONF_DELIVERY_WAIT_MS: '100', LOCKCONF_WEBHOOK_TOKEN: 't', LOCKCONF_SOMETHING_ELSE: 'x' } })).toBeNull();
  });
  test('null without a file and without LOCKCONF_<FIELD> variables (other LOCKCONF_* do not count)', async () => {
    expect(await loadProfile({ env: {} })).toBeNull();
    expect(await loadProfile({ env: { LOCKCONF_RUN_DIR: '/tmp/x', LOCKCONF_SEED: '1', LOCKCONF_MOCK_OPTIONS: '{}', LOCKCONF_TARGET_FILE: 'x.json', LOCKCONF_AUTH_URL: '' } })).toBeNull();
  });

  test('from a file', async () => {
    const path = await file('full.json', full);
    const p = await loadProfile({ file: path, env: {} });
    expect(p?.authUrl).toBe('https://auth.example.test');
    expect(p?.clientSecret).toBe(SECRET);
  });

  test('environment variables win over the file, field by field; JSON fields are parsed', async () => {
    const path = await file('base.json', full);
    const p = await loadProfile({
      file: path,
      env: {
        LOCKCONF_CLIENT_SECRET: 'from-env-secret',
        LOCKCONF_BASE_URL: 'http://localhost:9999/api/',
        LOCKCONF_CAPTURE: '{"listen":"0.0.0.0:7000","publicUrl":"https://tunnel.example.test"}',
        LOCKCONF_FIXTURES: '{"users":[{"userId":"u"}],"locks":[{"lockId":"L"}]}',
        LOCKCONF_STATUS_CHECK: '{"method":"GET","path":"/remoteoperate/{lockId}"}',
        LOCKCONF_TOKEN_CACHE: '/tmp/tokens.json',
      },
    });
    expect(p).toMatchObject({
      authUrl: 'https://auth.example.test',
      clientSecret: 'from-env-secret',
      baseUrl: 'http://localhost:9999/api',
      capture: { listen: '0.0.0.0:7000', publicUrl: 'https://tunnel.example.test' },
      fixtures: { users: [{ userId: 'u' }], locks: [{ lockId: 'L' }] },
      statusCheck: { method: 'GET', path: '/remoteoperate/{lockId}' },
      tokenCache: '/tmp/tokens.json',
    });
  });

  test('from the environment alone', async () => {
    const env = Object.fromEntries(Object.entries(full).map(([k, v]) => [PROFILE_ENV[k as keyof typeof PROFILE_ENV], v]));
    const p = await loadProfile({ env });
    expect(p?.controlUrl).toBe('http://127.0.0.1:4010/_control');
  });

  test('errors say where each bad field came from', async () => {
    const path = await file('partial.json', { ...full, apiKey: 5, redirectUri: 'nope' });
    const err = await loadError(loadProfile({ file: path, env: { LOCKCONF_AUTH_URL: 'not-a-url', LOCKCONF_CLIENT_ID: '' } }));
    expect(err.message).toContain('authUrl must be an absolute http(s) URL (environment variable LOCKCONF_AUTH_URL)');
    expect(err.message).toContain(`apiKey must be a string (target file ${path})`);
    expect(err.message).toContain(`redirectUri must be an absolute http(s) URL (target file ${path})`);
    expectNoSecret(err.message);
  });

  test('a missing field names both places it can be set', async () => {
    const { clientSecret: _s, ...rest } = full;
    const path = await file('missing.json', rest);
    const err = await loadError(loadProfile({ file: path, env: {} }));
    expect(err.message).toContain(`clientSecret is required (set it in target file ${path} or LOCKCONF_CLIENT_SECRET)`);
  });

  test('a secret given through the environment is not echoed when it is malformed', async () => {
    const err = await loadError(loadProfile({ env: { ...Object.fromEntries(Object.entries(full).map(([k, v]) => [PROFILE_ENV[k as keyof typeof PROFILE_ENV], v])), LOCKCONF_CONTROL_URL: 'very-secret-but-bad' } }));
    expect(err.message).toContain('controlUrl must be an absolute http(s) URL (environment variable LOCKCONF_CONTROL_URL)');
    expectNoSecret(err.message);
  });

  test('bad JSON in a JSON variable names the variable, not the value', async () => {
    const err = await loadError(loadProfile({ env: { LOCKCONF_FIXTURES: '{"users": very-secret-but-bad' } }));
    expect(err.message).toBe('fixtures is not valid JSON (environment variable LOCKCONF_FIXTURES)');
  });

  test('an unreadable or malformed file', async () => {
    expect((await loadError(loadProfile({ file: join(dir, 'absent.json'), env: {} }))).message).toMatch(/cannot read target file .*absent\.json \(ENOENT\)/);
    const bad = await file('bad.json', `{"clientSecret": "very-secret-but-bad" oops}`);
    const err = await loadError(loadProfile({ file: bad, env: {} }));
    expect(err.message).toMatch(/is not valid JSON/);
    expectNoSecret(err.message);
    const arr = await file('array.json', '[1]');
    expect((await loadError(loadProfile({ file: arr, env: {} }))).message).toMatch(/must hold a JSON object/);
  });
});
