/**
 * allure-vitest's runtime messages in a test's meta leave the test redacted, or not at all
 * in a run without Allure results (--no-allure: nobody reads them there).
 */
import type { TaskMeta } from 'vitest';
import { describe, expect, test } from 'vitest';
import { scrubAllureMessages } from '../../../harness/run/test-evidence.js';

const SECRET = 'a-refresh-token-9f3c2b';
const redact = (text: string) => text.split(SECRET).join('‹refresh_token›');
const meta = (): TaskMeta => ({
  allureRuntimeMessages: [{ type: 'step_stop', data: { statusDetails: { message: `expected ${SECRET} to be fresh` } } }],
  allureGlobalRuntimeMessages: [{ type: 'metadata', data: { description: SECRET } }],
  lockconf: { requirement: 'X' },
} as unknown as TaskMeta);

describe('scrubAllureMessages', () => {
  test('a run with Allure results: the messages stay, redacted', () => {
    const m = meta();
    scrubAllureMessages(m, redact, {});
    const text = JSON.stringify(m);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('expected ‹refresh_token› to be fresh');
    expect(Object.keys(m).sort()).toEqual(['allureGlobalRuntimeMessages', 'allureRuntimeMessages', 'lockconf']);
  });

  test('a run without Allure results (LOCKCONF_NO_ALLURE=1): the messages are dropped, the rest of the meta stays', () => {
    const m = meta();
    scrubAllureMessages(m, redact, { LOCKCONF_NO_ALLURE: '1' });
    expect(m).toEqual({ lockconf: { requirement: 'X' } });
  });
});
