/**
 * The outcome rules of conformance(), through its runner with a fake target:
 * MUST fails the test, SHOULD warns, INFO informs, t.check() attributes to
 * another requirement and carries on, needs/notTested skip with the reason,
 * and nothing secret reaches the reporter's meta.
 */
import { describe, expect, test } from 'vitest';
import { nullSink } from '../../harness/allure-sink.js';
import { runConformanceTest, type ConformanceBody, type ConformanceOptions, type TestSession } from '../../harness/conformance-runner.js';
import { LockconfError } from '../../harness/errors.js';
import { createFlows } from '../../harness/flows.js';
import { Redactor } from '../../harness/redact.js';
import { targetFromSetup } from '../../harness/target.js';
import type { Capability } from '../../harness/catalog.js';
import type { ControlClientLike, Delivery, Exchange, HttpClientLike, Inbox, LockconfSetup, TargetProfile } from '../../harness/contracts.js';
import type { TestMeta } from '../../harness/outcome.js';

const MUST = 'REFRESH-SINGLE-USE';
const MUST_OTHER = 'REFRESH-ERROR-RESPONSE';
const SHOULD = 'REFRESH-ERROR-INVALID-GRANT';
const INFO = 'TOKEN-JWT-EXP';

const profile: TargetProfile = {
  authUrl: 'http://127.0.0.1:9/oauth',
  baseUrl: 'http://127.0.0.1:9/api',
  clientId: 'client-1',
  clientSecret: 'client-secret-value-123',
  apiKey: 'api-key-value-456',
  redirectUri: 'http://127.0.0.1:9/callback',
  controlUrl: 'http://127.0.0.1:9/_control',
  controlToken: 'control-token-789',
};

function setupWith(capabilities: Capability[], missing: LockconfSetup['missing'] = {}): LockconfSetup {
  return {
    profile,
    mock: true,
    fixtures: { users: [{ userId: 'u1' }, { userId: 'u2' }], locks: [] },
    capabilities,
    missing,
    capture: null,
    seed: 1,
    runDir: null,
  };
}

class SkipSignal extends Error {
  constructor(readonly note: string | undefined) {
    super(`skipped: ${note}`);
  }
}

interface Harness {
  meta: TestMeta | undefined;
  skipped: string | undefined;
  error: Error | undefined;
  calls: string[];
}

async function run(
  id: string,
  body: ConformanceBody,
  opts: ConformanceOptions & {
    capabilities?: Capability[];
    missing?: LockconfSetup['missing'];
    exchanges?: Exchange[];
    deliveries?: Delivery[];
    prepareFails?: boolean;
    allureMessages?: unknown[];
    control?: ControlClientLike;
  } = {},
): Promise<Harness> {
  const h: Harness = { meta: undefined, skipped: undefined, error: undefined, calls: [] };
  const setup = setupWith(opts.capabilities ?? ['control', 'consent', 'user-token', 'capture'], opts.missing);
  const target = targetFromSetup(setup);
  const task = { name: `${id}: a test`, meta: { allureRuntimeMessages: opts.allureMessages } as Record<string, unknown> };
  lastTaskMeta = task.meta;
  const ctx = {
    task: task as unknown as { name: string; meta: import('vitest').TaskMeta },
    skip(note?: string): never {
      throw new SkipSignal(note);
    },
  };
  const session = async (): Promise<TestSession> => {
    h.calls.push('session');
    const redactor = Redactor.fromProfile(profile);
    const view = targetFromSetup(setup, redactor);
    const http: HttpClientLike = {
      request: async () => {
        throw new Error('no network in this test');
      },
      api: async () => {
        throw new Error('no network in this test');
      },
      exchanges: () => opts.exchanges ?? [],
    };
    const inbox: Inbox = {
      id: 'in-1',
      url: 'http://127.0.0.1:9/in-1',
      setResponse: async () => {},
      deliveries: async () => opts.deliveries ?? [],
      waitFor: async () => [],
      collectFor: async () => [],
    };
    return {
      target: view,
      redactor,
      http,
      capture: { newInbox: async () => inbox },
      control: opts.control ?? null,
      flows: createFlows({ target: view, http, control: null }),
      prepare: async () => {
        h.calls.push('prepare');
        if (opts.prepareFails) throw new Error('control reset answered 500');
      },
    };
  };
  try {
    await runConformanceTest(id, opts, async (t) => {
      h.calls.push('body');
      await body(t);
    }, ctx, { target: () => target, session, sink: nullSink });
  } catch (err) {
    if (err instanceof SkipSignal) h.skipped = err.note;
    else h.error = err as Error;
  }
  h.meta = (task.meta as { lockconf?: TestMeta }).lockconf;
  return h;
}

let lastTaskMeta: Record<string, unknown> = {};
const statusOf = (h: Harness, id: string) => h.meta?.outcomes.find((o) => o.id === id)?.status;
const reasonOf = (h: Harness, id: string) => h.meta?.outcomes.find((o) => o.id === id)?.reason ?? '';

describe('the declared requirement', () => {
  test('a body that completes passes its MUST requirement, after the target was prepared', async () => {
    const h = await run(MUST, async (t) => {
      t.expect(400).toBe(400);
    });
    expect(h.error).toBeUndefined();
    expect(h.calls).toEqual(['session', 'prepare', 'body']);
    expect(h.meta?.requirement).toBe(MUST);
    expect(h.meta?.outcomes).toEqual([{ id: MUST, status: 'passed' }]);
  });

  test('a failed expectation fails a MUST requirement and the vitest test, with rule, expected and observed', async () => {
    const h = await run(MUST, async (t) => {
      t.expect(200, 'reuse of a refresh token').toBe(400);
    });
    expect(statusOf(h, MUST)).toBe('failed');
    expect(h.error?.message).toContain(`MUST requirement failed: ${MUST}`);
    const reason = reasonOf(h, MUST);
    expect(reason).toContain('rule (MUST');
    expect(reason).toContain('HTTP 400 with an OAuth2 error body');
    expect(reason).toContain('expected: 400');
    expect(reason).toContain('observed: 200');
    expect(reason).toContain('reuse of a refresh token');
  });

  test('the reason names the last exchange, the one that most likely shows the failure', async () => {
    const exchange: Exchange = {
      request: { method: 'POST', url: `${profile.authUrl}/access_token`, headers: {}, body: '' },
      response: { status: 200, headers: {}, body: '{}' },
      durationMs: 1,
      startedAt: new Date(0).toISOString(),
    };
    const h = await run(MUST, async (t) => {
      t.expect(200).toBe(400);
    }, { exchanges: [exchange] });
    expect(reasonOf(h, MUST)).toContain(`last exchange: POST ${profile.authUrl}/access_token → HTTP 200`);
  });

  test('a thrown error counts as a failure too', async () => {
    const h = await run(MUST, async () => {
      throw new TypeError('no token in the answer');
    });
    expect(statusOf(h, MUST)).toBe('failed');
    expect(reasonOf(h, MUST)).toContain('error: no token in the answer');
  });

  test('a failed SHOULD requirement is warned and the vitest test passes', async () => {
    const h = await run(SHOULD, async (t) => {
      t.expect('invalid_request').toBe('invalid_grant');
    });
    expect(h.error).toBeUndefined();
    expect(statusOf(h, SHOULD)).toBe('warned');
    expect(reasonOf(h, SHOULD)).toContain('observed: "invalid_request"');
  });

  test('an INFO requirement is informational whatever happens, with what was seen', async () => {
    const failing = await run(INFO, async (t) => {
      t.expect(undefined, 'exp claim').toBeDefined();
    });
    expect(failing.error).toBeUndefined();
    expect(statusOf(failing, INFO)).toBe('informational');
    expect(reasonOf(failing, INFO)).toContain('exp claim');
    const passing = await run(INFO, async (t) => {
      t.observe('exp - iat', 10_368_000);
    });
    expect(statusOf(passing, INFO)).toBe('informational');
    expect(passing.meta?.observations).toEqual([{ id: INFO, label: 'exp - iat', value: 10_368_000 }]);
  });
});

describe('t.check()', () => {
  test('a failing check of another MUST requirement is attributed to it, the body carries on, then the test fails', async () => {
    let after = false;
    const h = await run(MUST, async (t) => {
      await t.check(MUST_OTHER, () => {
        t.expect({}).toHaveProperty('error');
      });
      after = true;
    });
    expect(after).toBe(true);
    expect(statusOf(h, MUST)).toBe('passed');
    expect(statusOf(h, MUST_OTHER)).toBe('failed');
    expect(h.error?.message).toContain(MUST_OTHER);
    expect(h.error?.message).not.toContain(`${MUST},`);
  });

  test('a failing SHOULD check warns without failing the test; passing checks pass', async () => {
    const h = await run(MUST, async (t) => {
      await t.check(SHOULD, () => {
        t.expect('invalid_request').toBe('invalid_grant');
      });
      await t.check(MUST_OTHER, async () => {
        t.expect({ error: 'invalid_grant' }).toHaveProperty('error');
      });
    });
    expect(h.error).toBeUndefined();
    expect(h.meta?.outcomes.map((o) => [o.id, o.status])).toEqual([[MUST, 'passed'], [SHOULD, 'warned'], [MUST_OTHER, 'passed']]);
  });

  test('an observation made inside a check belongs to that check\'s requirement', async () => {
    const h = await run(MUST, async (t) => {
      t.observe('status', 400);
      await t.check(INFO, async () => {
        await Promise.resolve();
        t.observe('exp claim', 'absent');
      });
    });
    expect(h.meta?.observations).toEqual([
      { id: MUST, label: 'status', value: 400 },
      { id: INFO, label: 'exp claim', value: 'absent' },
    ]);
    expect(statusOf(h, INFO)).toBe('informational');
  });

  test('one failure among several checks of the same requirement fails it', async () => {
    const h = await run(MUST, async (t) => {
      await t.check(MUST_OTHER, () => {});
      await t.check(MUST_OTHER, () => {
        throw new Error('second look failed');
      });
      await t.check(MUST_OTHER, () => {});
    });
    expect(statusOf(h, MUST_OTHER)).toBe('failed');
  });

  test('an unknown requirement ID is a loud failure of the test', async () => {
    const h = await run(MUST, async (t) => {
      await t.check('NO-SUCH-ID', () => {});
    });
    expect(statusOf(h, MUST)).toBe('failed');
    expect(reasonOf(h, MUST)).toContain('unknown requirement ID: NO-SUCH-ID');
  });
});

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
    const kept = JSON.stringify(lastTaskMeta.allureRuntimeMessages);
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
