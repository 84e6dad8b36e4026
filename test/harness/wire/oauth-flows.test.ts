/** The OAuth flows against the reference mock (in-process, ephemeral port). */
import type { PrerequisiteFailed } from '../../../harness/run/prerequisite.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFlows, type LockconfFlows } from '../../../harness/wire/oauth-flows.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { Redactor } from '../../../harness/wire/redact.js';
import { targetFromSetup } from '../../../harness/service/target.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import type { ControlClientLike, HttpClientLike, LockconfSetup, Target } from '../../../harness/contracts.js';

let mock: RunningMock;
let target: Target;
let redactor: Redactor;
let http: HttpClient;
let flows: LockconfFlows;

/** Just the consent hook of the control protocol, enough to drive the flows. */
function consentOnly(httpClient: HttpClientLike, controlUrl: string, controlToken: string): ControlClientLike {
  const unused = async (): Promise<never> => {
    throw new Error('not used in this test');
  };
  return {
    async consent(authorizationUrl, userId, decision) {
      const res = await httpClient.request({
        method: 'POST', url: `${controlUrl}/consent`, headers: { 'x-control-token': controlToken }, json: { authorizationUrl, userId, decision },
      });
      return {
        status: res.status,
        location: res.json?.location ?? null,
        ...(res.json?.error ? { error: res.json.error } : {}),
        ...(typeof res.json?.redirectStatus === 'number' ? { redirectStatus: res.json.redirectStatus } : {}),
      };
    },
    fixtures: unused, now: unused, advanceClock: unused, resetClock: unused, emit: unused,
    revokeRefreshToken: unused, setClientCredentials: unused, reset: unused,
  };
}

beforeAll(async () => {
  mock = await createMock({});
  const setup: LockconfSetup = {
    profile: mock.profile,
    mock: true,
    fixtures: mock.profile.fixtures ?? null,
    capabilities: ['control', 'consent', 'user-token', 'second-user'],
    missing: {},
    capture: null,
    seed: 1,
    runDir: null,
  };
  redactor = Redactor.fromProfile(mock.profile);
  target = targetFromSetup(setup, redactor);
  http = new HttpClient({ profile: mock.profile, redactor });
  flows = createFlows({ target, http, control: consentOnly(http, mock.profile.controlUrl!, mock.profile.controlToken!) });
});

afterAll(async () => {
  await mock?.close();
});

describe('authorization', () => {
  test('authorizationUrl carries client_id, redirect_uri and state, URL-encoded, with a fresh random state by default', () => {
    const url = new URL(flows.authorizationUrl({ state: 'a b&c=d/é' }));
    expect(url.pathname).toMatch(/\/authorization$/);
    expect(url.searchParams.get('client_id')).toBe(mock.profile.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(mock.profile.redirectUri);
    expect(url.searchParams.get('state')).toBe('a b&c=d/é');
    const a = new URL(flows.authorizationUrl()).searchParams.get('state');
    const b = new URL(flows.authorizationUrl()).searchParams.get('state');
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  test('approval yields a code and the state; the code is registered with the redactor at once', async () => {
    const auth = await flows.authorize({ state: 'xyz 123' });
    // The status of the redirect is the one the target reports; the harness never fills it in.
    expect(auth.status).toBe(200);
    expect(auth.redirectStatus).toBe(302);
    expect(auth.initial.status).toBeGreaterThanOrEqual(200);
    expect(auth.params.get('state')).toBe('xyz 123');
    const code = auth.params.get('code');
    expect(code).toBeTruthy();
    expect(redactor.redact(auth.location!)).not.toContain(code!);
  });

  test('cancellation yields error=access_denied with the state', async () => {
    const auth = await flows.authorize({ decision: 'deny', state: 'st' });
    expect(auth.params.get('error')).toBe('access_denied');
    expect(auth.params.get('state')).toBe('st');
    expect(auth.params.get('code')).toBeNull();
    expect(auth.redirectStatus).toBe(302);
  });

  test('a target that does not report the redirect status leaves it null, never 302', async () => {
    const silent: ControlClientLike = {
      ...consentOnly(http, mock.profile.controlUrl!, mock.profile.controlToken!),
      async consent() {
        return { status: 200, location: `${mock.profile.redirectUri}?code=c&state=s` };
      },
    };
    const quiet = createFlows({ target, http, control: silent });
    const auth = await quiet.authorize({ state: 's' });
    expect(auth.location).not.toBeNull();
    expect(auth.redirectStatus).toBeNull();
  });

  test('an unregistered redirect_uri gets no redirect', async () => {
    const auth = await flows.authorize({ redirectUri: 'https://evil.example.test/cb' });
    expect(auth.location).toBeNull();
    expect(auth.status).toBe(422);
  });

  test('without consent the flows end the test as not tested', async () => {
    const bare = createFlows({ target: targetFromSetup({ ...target.setup, capabilities: [], missing: { consent: 'needs control (no controlUrl)' } }), http, control: null });
    const err = await bare.userSession().catch((e: unknown) => e);
    expect(isLockconfError(err, 'ERR_CAPABILITY_MISSING')).toBe(true);
    expect((err as Error).message).toBe('needs consent: needs control (no controlUrl)');
  });
});

describe('tokens', () => {
  test('a user session, its refresh, and the refusal of the used refresh token; nothing secret in the log', async () => {
    const first = await flows.userSession();
    expect(first.accessToken.split('.')).toHaveLength(3);
    expect(first.expiresIn).toBeGreaterThan(0);
    const second = await flows.refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const again = await flows.refreshRaw(first.refreshToken);
    expect(again.status).toBe(400);
    const err = (await flows.refresh(first.refreshToken).catch((e: unknown) => e)) as PrerequisiteFailed;
    // A refused refresh blocks the test that asked for it: REFRESH-NEW-PAIR judges the grant.
    expect(err.name).toBe('PrerequisiteFailed');
    expect(err.requirement).toBe('REFRESH-NEW-PAIR');
    expect(err.reason).toMatch(/^refresh grant: expected HTTP 200 with a token response .* got HTTP 400/);
    expect(err.message).not.toContain(first.refreshToken);

    const log = JSON.stringify(http.exchanges());
    for (const secret of [first.accessToken, first.refreshToken, second.accessToken, second.refreshToken, mock.profile.clientSecret]) {
      expect(log).not.toContain(secret);
    }
  });

  test('a second fixture user gets a session of its own', async () => {
    const other = await flows.userSession(1);
    const me = await http.api('GET', '/users/me', { accessToken: other.accessToken });
    expect(me.status).toBe(200);
  });

  test('the client secret travels in the body; without it and with a Basic header the answer is 400', async () => {
    const auth = await flows.authorize();
    const basic = Buffer.from(`${mock.profile.clientId}:${mock.profile.clientSecret}`).toString('base64');
    const res = await flows.tokenRequest(
      { client_id: mock.profile.clientId, grant_type: 'authorization_code', code: auth.params.get('code')! },
      { credentialsInBody: false, headers: { authorization: `Basic ${basic}` } },
    );
    expect(res.status).toBe(400);
    const sent = http.exchanges().at(-1)!.request.body;
    expect(sent).not.toContain('client_secret');
  });

  test('with GET the fields travel in the query string', async () => {
    const res = await flows.tokenRequest({ grant_type: 'client_credentials' }, { method: 'GET' });
    const last = http.exchanges().at(-1)!;
    expect(last.request.method).toBe('GET');
    expect(last.request.url).toContain('grant_type=client_credentials');
    expect(last.request.url).not.toContain(mock.profile.clientSecret);
    expect(res.status).toBeGreaterThanOrEqual(300);
  });

  test('client_credentials is refused by default', async () => {
    const res = await flows.clientCredentialsRaw();
    expect(res.status).not.toBe(200);
  });
});
