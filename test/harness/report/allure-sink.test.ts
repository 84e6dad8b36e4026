/**
 * The Allure sink records only for a run that writes Allure results: with --no-allure
 * (LOCKCONF_NO_ALLURE=1) its labels, attachments and steps would travel to the
 * reporter with each test and be thrown away.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SERVICE_CATALOG } from '../../../harness/catalog/index.js';
import { allureSink } from '../../../harness/report/allure-sink.js';

const KEY = 'allureTestRuntime';
const holder = globalThis as Record<string, unknown>;

/** An Allure runtime that notes the name of every call it gets. */
function fakeRuntime(): string[] {
  const calls: string[] = [];
  const runtime = new Proxy({}, {
    get: (_t, prop) => prop === 'then' ? undefined : async (...args: unknown[]) => { // not a thenable itself
      calls.push(String(prop));
      const body = args.find((a) => typeof a === 'function') as (() => unknown) | undefined; // a step's body
      return body?.();
    },
  });
  holder[KEY] = () => runtime;
  return calls;
}

describe('allureSink', () => {
  const before = holder[KEY];
  afterEach(() => {
    holder[KEY] = before;
    vi.unstubAllEnvs();
  });

  test('hands labels, attachments and steps to the Allure runtime of a run with Allure results', async () => {
    vi.stubEnv('LOCKCONF_NO_ALLURE', '');
    const calls = fakeRuntime();
    await allureSink.describe(SERVICE_CATALOG[0]!);
    await allureSink.attachJson('HTTP 1: GET /users/me → 200', { status: 200 });
    await allureSink.flag('warned: X');
    expect(await allureSink.step('a step', () => 42)).toBe(42);
    expect(calls).toContain('attachment');
    expect(calls.length).toBeGreaterThan(3);
  });

  test('records nothing in a run without Allure results (--no-allure), and still runs the steps', async () => {
    vi.stubEnv('LOCKCONF_NO_ALLURE', '1');
    const calls = fakeRuntime();
    await allureSink.describe(SERVICE_CATALOG[0]!);
    await allureSink.alsoChecks(SERVICE_CATALOG[1]!);
    await allureSink.attachJson('HTTP 1: GET /users/me → 200', { status: 200 });
    await allureSink.flag('warned: X');
    expect(await allureSink.step('a step', () => 42)).toBe(42);
    expect(calls).toEqual([]);
  });
});
