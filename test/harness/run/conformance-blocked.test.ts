/**
 * Root causes, not cascades: a test whose prerequisite step fails is blocked by the
 * requirement that step rests on, never failed; a prerequisite that is the test's own
 * requirement, or an assertion after the prerequisites held, is still a failure.
 */
import { describe, expect, test } from 'vitest';
import { PrerequisiteFailed } from '../../../harness/run/prerequisite.js';
import { MUST, MUST_OTHER, run, statusOf, reasonOf } from './support/outcome-harness.js';

const ROOT = 'OAUTH-CODE-EXCHANGE';

describe('a failed prerequisite', () => {
  test('thrown by a helper, blocks the declared requirement (not failed, the vitest test skipped)', async () => {
    const h = await run(MUST, async () => {
      throw new PrerequisiteFailed(ROOT, 'authorization code exchange: expected HTTP 200 with a token response; got HTTP 200 without refresh_token');
    });
    expect(statusOf(h, MUST)).toBe('blocked');
    expect(h.meta?.outcomes.find((o) => o.id === MUST)?.blockedBy).toEqual([ROOT]);
    expect(reasonOf(h, MUST)).toContain('without refresh_token');
    expect(h.error).toBeUndefined();
    expect(h.skipped).toBe(`blocked by ${ROOT}`);
    // The root is judged by its own test: this one does not fail it.
    expect(h.meta?.outcomes.some((o) => o.id === ROOT)).toBe(false);
  });

  test('t.prerequisite() turns a failed assertion of the step into blocked by that ID', async () => {
    const h = await run(MUST, async (t) => {
      await t.prerequisite(ROOT, () => {
        t.expect(401, 'code exchange').toBe(200);
      });
      t.expect(1).toBe(1);
    });
    expect(statusOf(h, MUST)).toBe('blocked');
    expect(reasonOf(h, MUST)).toContain('expected: 200');
    expect(reasonOf(h, MUST)).not.toContain('rule (MUST');
  });

  test('a prerequisite that is the test\'s own requirement is its failure, in the step\'s own words', async () => {
    const h = await run(ROOT, async (t) => {
      await t.prerequisite(ROOT, () => {
        t.expect(401, 'code exchange').toBe(200);
      });
    });
    expect(statusOf(h, ROOT)).toBe('failed');
    expect(reasonOf(h, ROOT)).toContain('observed: 401');
    expect(h.error?.message).toContain(`MUST requirement failed: ${ROOT}`);
  });

  test('an assertion that fails after the prerequisites held is still a failure', async () => {
    const h = await run(MUST, async (t) => {
      await t.prerequisite(ROOT, () => undefined);
      t.expect(200, 'reuse of a refresh token').toBe(400);
    });
    expect(statusOf(h, MUST)).toBe('failed');
  });

  test('a not-tested signal inside a prerequisite stays not tested', async () => {
    const h = await run(MUST, async (t) => {
      await t.prerequisite(ROOT, () => t.notTested('needs consent'));
    });
    expect(statusOf(h, MUST)).toBe('not-tested');
  });

  test('the innermost prerequisite is the root', async () => {
    const h = await run(MUST, async (t) => {
      await t.prerequisite('WEBHOOK-LOCK-REGISTER', async () => {
        throw new PrerequisiteFailed(ROOT, 'no token');
      });
    });
    expect(h.meta?.outcomes.find((o) => o.id === MUST)?.blockedBy).toEqual([ROOT]);
  });

  test('a failure recorded by t.check before the block is kept, and fails the vitest test', async () => {
    const h = await run(MUST, async (t) => {
      await t.check(MUST_OTHER, () => {
        t.expect('html').toBe('json');
      });
      throw new PrerequisiteFailed(ROOT, 'no token');
    });
    expect(statusOf(h, MUST_OTHER)).toBe('failed');
    expect(statusOf(h, MUST)).toBe('blocked');
  });

  test('inside t.check, blocks the checked requirement and the test carries on', async () => {
    const h = await run(MUST, async (t) => {
      await t.check(MUST_OTHER, () => {
        throw new PrerequisiteFailed(ROOT, 'no token');
      });
    });
    expect(statusOf(h, MUST_OTHER)).toBe('blocked');
    expect(statusOf(h, MUST)).toBe('passed');
  });

  test('the requirements the test also covers are blocked with it', async () => {
    const h = await run(MUST, async () => {
      throw new PrerequisiteFailed(ROOT, 'no token');
    }, { also: [MUST_OTHER] });
    expect(statusOf(h, MUST_OTHER)).toBe('blocked');
  });
});
