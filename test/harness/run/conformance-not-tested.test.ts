/**
 * What the runner records when a requirement cannot be exercised (not tested,
 * with its reason), and that evidence leaves a test redacted.
 */
import { describe, expect, test } from 'vitest';
import { LockconfError } from '../../../harness/run/errors.js';
import type { ControlClientLike, Delivery, Exchange } from '../../../harness/contracts.js';
import { MUST_OTHER, MUST, SHOULD, lastMeta, profile, run, statusOf, reasonOf } from './support/outcome-harness.js';

describe('not tested', () => {
  test('a missing capability skips with its reason, without touching the target', async () => {
    const h = await run(MUST, async () => {}, {
      needs: ['user-token', 'clock'],
      capabilities: ['user-token'],
      missing: { clock: 'needs control (the profile has no controlUrl)' },
      also: [MUST_OTHER],
    });
    expect(h.calls).toEqual([]);
    expect(h.skipped).toBe('needs clock: needs control (the profile has no controlUrl)');
    expect(h.meta?.outcomes).toEqual([
      { id: MUST, status: 'not-tested', reason: h.skipped },
      { id: MUST_OTHER, status: 'not-tested', reason: h.skipped },
    ]);
  });

  test('t.notTested() ends the test as not tested; checks already made keep their outcome', async () => {
    const h = await run(MUST, async (t) => {
      await t.check(SHOULD, () => {});
      t.notTested('the sandbox has no keypad lock');
    }, { also: [MUST_OTHER] });
    expect(h.error).toBeUndefined();
    expect(h.skipped).toBe('the sandbox has no keypad lock');
    expect(statusOf(h, MUST)).toBe('not-tested');
    expect(statusOf(h, SHOULD)).toBe('passed');
    expect(statusOf(h, MUST_OTHER)).toBe('not-tested');
  });

  test('t.notTested() inside a check ends the whole test', async () => {
    const h = await run(MUST, async (t) => {
      await t.check(MUST_OTHER, () => t.notTested('no second lock'));
      throw new Error('not reached');
    });
    expect(h.skipped).toBe('no second lock');
    expect(statusOf(h, MUST)).toBe('not-tested');
  });

  test('ERR_CAPABILITY_MISSING anywhere in the body is not tested, with its message', async () => {
    const h = await run(MUST, async () => {
      throw new LockconfError('ERR_CAPABILITY_MISSING', 'needs consent: no control interface');
    });
    expect(h.error).toBeUndefined();
    expect(h.skipped).toBe('needs consent: no control interface');
    expect(statusOf(h, MUST)).toBe('not-tested');
  });

  test('a refused control call that drives the target (emit, clock, …) is not tested, with the redacted refusal', async () => {
    const refuse = (what: string) => async (): Promise<never> => {
      throw new LockconfError('ERR_CONTROL', `control ${what} answered 422 invalid_value (client-secret-value-123)`);
    };
    const control: ControlClientLike = {
      fixtures: refuse('GET /fixtures'), consent: refuse('POST /consent'), now: refuse('GET /clock'),
      advanceClock: refuse('POST /clock'), resetClock: refuse('POST /clock'), emit: refuse('POST /events'),
      revokeRefreshToken: refuse('POST /refresh-tokens/revoke'), setClientCredentials: refuse('POST /client-credentials'), reset: refuse('POST /reset'),
    };
    for (const drive of [(c: ControlClientLike) => c.emit({ kind: 'door' }), (c: ControlClientLike) => c.advanceClock(1), (c: ControlClientLike) => c.reset()]) {
      const h = await run(MUST, async (t) => {
        await drive(t.control!);
      }, { control });
      expect(h.error).toBeUndefined();
      expect(statusOf(h, MUST)).toBe('not-tested');
      expect(h.skipped).toMatch(/^the target's control interface refused: control POST \/\w+ answered 422/);
      expect(h.skipped).not.toContain('client-secret-value-123');
    }
    // Consent answers are the service's own behaviour: a refusal there is not hidden.
    const consent = await run(MUST, async (t) => {
      await t.control!.consent('http://127.0.0.1:9/oauth/authorization', 'u1', 'approve');
    }, { control });
    expect(statusOf(consent, MUST)).toBe('failed');
    // Nor is an ERR_CONTROL that did not come from a control call.
    const direct = await run(MUST, async () => {
      throw new LockconfError('ERR_CONTROL', 'thrown by the body');
    }, { control });
    expect(statusOf(direct, MUST)).toBe('failed');
  });

  test('the flows say which capability a user session needs', async () => {
    const h = await run(MUST, async (t) => {
      await t.flows.userSession();
    }, { capabilities: ['capture'], missing: { consent: 'needs control (the profile has no controlUrl)' } });
    expect(statusOf(h, MUST)).toBe('not-tested');
    expect(h.skipped).toContain('needs consent: needs control');
  });

  test('a target that cannot be brought to a known state is not tested, never failed', async () => {
    const h = await run(MUST, async () => {}, { prepareFails: true });
    expect(h.calls).toEqual(['session', 'prepare']);
    expect(statusOf(h, MUST)).toBe('not-tested');
    expect(h.skipped).toContain('control reset answered 500');
  });
});

describe('evidence leaves the test redacted', () => {
  test('a secret in a failed expectation appears neither in the reason nor in the thrown error', async () => {
    const h = await run(MUST, async (t) => {
      t.expect(profile.clientSecret).toBe('something else');
    });
    expect(statusOf(h, MUST)).toBe('failed');
    expect(JSON.stringify(h.meta)).not.toContain(profile.clientSecret);
    expect(h.error?.message).not.toContain(profile.clientSecret);
    expect(reasonOf(h, MUST)).toContain('‹client_secret#');
  });

  test('tokens learnt during the test are redacted from exchanges, deliveries and observations', async () => {
    const token = 'refresh-token-learnt-late-0001';
    const exchange: Exchange = {
      request: { method: 'POST', url: `${profile.authUrl}/access_token`, headers: {}, body: `refresh_token=${token}` },
      response: { status: 200, headers: {}, body: JSON.stringify({ refresh_token: token }) },
      durationMs: 3,
      startedAt: new Date(0).toISOString(),
    };
    const delivery: Delivery = {
      seq: 1, inbox: 'in-1', method: 'POST', url: '/in-1', headers: { 'x-token': token, 'x-api-key': profile.apiKey },
      rawBody: Buffer.from(`{"t":"${token}"}`), bodyText: `{"t":"${token}"}`, json: { t: token }, receivedAt: 1, answeredStatus: 200,
    };
    const h = await run(MUST, async (t) => {
      await t.inbox();
      t.target.redactor.add(token, 'refresh_token');
      t.observe('the token', { token });
    }, { exchanges: [exchange], deliveries: [delivery] });
    const text = JSON.stringify(h.meta);
    expect(text).not.toContain(token);
    expect(text).not.toContain(profile.apiKey);
    expect(h.meta?.exchanges).toHaveLength(1);
    expect(h.meta?.deliveries).toEqual([expect.objectContaining({ inbox: 'in-1', method: 'POST', answeredStatus: 200 })]);
    expect(h.meta?.deliveries[0]?.body).toContain('‹refresh_token#');
  });

  test('a JWT cut short in a message, and the assertion steps allure-vitest keeps in task.meta, are redacted too', async () => {
    const jwtStart = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJjbGllbnRfaWQiOiJjbGllbn';
    const step = { type: 'step_stop', data: { statusDetails: { message: `expected '${profile.apiKey}' to be 'x'` } } };
    const attachment = { type: 'attachment_content', data: { name: 'body', content: Buffer.from('{"a":1}').toString('base64'), encoding: 'base64' } };
    const h = await run(MUST, async (t) => {
      t.expect(`got "${jwtStart}`).toBe('something else');
    }, { allureMessages: [step, attachment] });
    expect(reasonOf(h, MUST)).not.toContain(jwtStart.slice(0, 20));
    expect(reasonOf(h, MUST)).toContain('‹jwt-fragment›');
    const kept = JSON.stringify(lastMeta().allureRuntimeMessages);
    expect(kept).not.toContain(profile.apiKey);
    expect(kept).toContain('‹api_key#');
    expect(kept).toContain(Buffer.from('{"a":1}').toString('base64'));
  });

  test('targetNow() falls back to the harness clock without control', async () => {
    let seen = 0;
    await run(MUST, async (t) => {
      seen = await t.targetNow();
    });
    expect(Math.abs(seen - Date.now())).toBeLessThan(5_000);
  });
});
