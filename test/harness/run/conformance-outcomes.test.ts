/**
 * The outcome rules of conformance(), through its runner with a fake target:
 * MUST fails the test, SHOULD warns, INFO informs, t.check() attributes to
 * another requirement and carries on, needs/notTested skip with the reason,
 * and nothing secret reaches the reporter's meta.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../../harness/contracts.js';
import { MUST_OTHER, MUST, SHOULD, INFO, profile, run, statusOf, reasonOf } from './support/outcome-harness.js';

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
