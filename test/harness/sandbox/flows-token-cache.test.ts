/** Without consent, user sessions come from the token cache and the refresh chain survives. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFlows } from '../../../harness/wire/oauth-flows.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { Redactor } from '../../../harness/wire/redact.js';
import { targetFromSetup } from '../../../harness/service/target.js';
import { TokenCache, cacheTarget } from '../../../harness/sandbox/token-cache.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import type { LockconfSetup } from '../../../harness/contracts.js';

let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  mock = await createMock({});
  dir = await mkdtemp(join(tmpdir(), 'lockconf-flows-cache-'));
});

afterAll(async () => {
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('a cached session is redeemed and stored, and a later refresh of it stores the successor', async () => {
  const redactor = Redactor.fromProfile(mock.profile);
  const http = new HttpClient({ profile: mock.profile, redactor });
  const setup: LockconfSetup = {
    profile: mock.profile, mock: true, fixtures: mock.profile.fixtures ?? null,
    capabilities: ['user-token'], missing: { consent: 'needs control (the profile has no controlUrl)' },
    capture: null, seed: 1, runDir: null,
  };
  const target = targetFromSetup(setup, redactor);
  const cache = await TokenCache.open(join(dir, 'tokens.json'), cacheTarget(mock.profile));

  // Sign in once, as `npm run login` would, by the code grant (driven here through the mock's consent hook).
  const url = createFlows({ target, http, control: null }).authorizationUrl();
  await http.request({ method: 'GET', url });
  const consent = await http.request({
    method: 'POST', url: `${mock.profile.controlUrl}/consent`, headers: { 'x-control-token': mock.profile.controlToken! },
    json: { authorizationUrl: url, userId: mock.profile.fixtures!.users[0]!.userId, decision: 'approve' },
  });
  const code = new URL(consent.json.location).searchParams.get('code')!;
  const flows = createFlows({ target, http, control: null, openCache: async () => cache });
  await cache.storePair(flows.tokenSet(await flows.exchangeCode(code), 'login'));
  const loggedIn = cache.current()!.refreshToken;

  const session = await flows.userSession();
  expect(session.refreshToken).not.toBe(loggedIn);
  expect((await cache.reload())?.refreshToken).toBe(session.refreshToken);

  const next = await flows.refresh(session.refreshToken);
  expect((await cache.reload())?.refreshToken).toBe(next.refreshToken);

  const second = await flows.userSession(1).catch((e: unknown) => e);
  expect(isLockconfError(second, 'ERR_CAPABILITY_MISSING')).toBe(true);

  const log = JSON.stringify(http.exchanges());
  for (const secret of [loggedIn, session.refreshToken, session.accessToken, next.refreshToken]) expect(log).not.toContain(secret);
});
