/** What global setup concludes the target offers, and why a capability is missing. */
import { describe, expect, test } from 'vitest';
import { isLoopbackUrl, workOutCapabilities, type CapabilityFacts } from '../../../harness/service/capabilities.js';

const twoUsers = { users: [{ userId: 'a' }, { userId: 'b' }], locks: [], clients: [{ clientId: 'c2', clientSecret: 's2', apiKey: 'k2', redirectUri: 'https://app.test/cb' }] };

function facts(over: Partial<CapabilityFacts>): CapabilityFacts {
  return { control: { ok: true }, fixtures: twoUsers, tokenCache: false, loopbackTarget: true, capturePublicUrl: null, ...over };
}

describe('workOutCapabilities', () => {
  test('a loopback target with control offers everything', () => {
    const { capabilities, missing } = workOutCapabilities(facts({}));
    expect(new Set(capabilities)).toEqual(new Set(['control', 'consent', 'clock', 'events', 'revoke', 'client-credentials', 'user-token', 'second-user', 'second-client', 'capture']));
    expect(missing).toEqual({});
  });

  test('fixtures without further clients: no second client, and why', () => {
    const { capabilities, missing } = workOutCapabilities(facts({ fixtures: { users: twoUsers.users, locks: [] } }));
    expect(capabilities).not.toContain('second-client');
    expect(missing['second-client']).toBe('the fixtures list no further client credential (the optional "clients" of GET /fixtures)');
  });

  test('without control every hook is missing, naming the probe that failed', () => {
    const { capabilities, missing } = workOutCapabilities(facts({ control: { ok: false, reason: 'the profile has no controlUrl' }, fixtures: null }));
    expect(capabilities).toEqual(['capture']);
    expect(missing.control).toBe('the profile has no controlUrl');
    for (const hook of ['consent', 'clock', 'events', 'revoke', 'client-credentials'] as const) {
      expect(missing[hook]).toBe('needs control (the profile has no controlUrl)');
    }
    expect(missing['user-token']).toBe('no control interface and no token cache (run npm run login)');
    expect(missing['second-user']).toContain('needs consent');
  });

  test('a token cache gives a user token without control', () => {
    const { capabilities } = workOutCapabilities(facts({ control: { ok: false, reason: 'x' }, tokenCache: true }));
    expect(capabilities).toContain('user-token');
    expect(capabilities).not.toContain('second-user');
  });

  test('one fixture user means no second user', () => {
    const { missing } = workOutCapabilities(facts({ fixtures: { users: [{ userId: 'a' }], locks: [] } }));
    expect(missing['second-user']).toBe('the fixtures list 1 user(s); a second user is needed');
  });

  test('a remote target needs capture.publicUrl to reach the capture server', () => {
    const remote = workOutCapabilities(facts({ loopbackTarget: false }));
    expect(remote.missing.capture).toContain('capture.publicUrl');
    const tunnelled = workOutCapabilities(facts({ loopbackTarget: false, capturePublicUrl: 'https://hooks.example.test' }));
    expect(tunnelled.capabilities).toContain('capture');
  });
});

describe('isLoopbackUrl', () => {
  test.each([
    ['http://127.0.0.1:4010/api', true],
    ['http://127.3.2.1/api', true],
    ['http://localhost:80', true],
    ['http://[::1]:4010/api', true],
    ['https://api.example.test', false],
    ['http://10.0.0.2', false],
    ['not a url', false],
  ])('%s → %s', (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });
});
