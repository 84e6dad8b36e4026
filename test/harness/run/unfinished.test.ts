/**
 * A test that does not finish within its timeout (issues 35/36): what the runner records
 * depends on what the harness was waiting for, never on the machine's speed. No test
 * here waits out real time: each body blocks until this file says so, and vitest's
 * timeout is stood in for by calling the runner's onTestFailed hook, as vitest does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullSink } from '../../../harness/report/allure-sink.js';
import { runConformanceTest, type ConformanceBody, type TestSession } from '../../../harness/run/conformance-runner.js';
import { createFlows } from '../../../harness/wire/oauth-flows.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { Redactor } from '../../../harness/wire/redact.js';
import { targetFromSetup } from '../../../harness/service/target.js';
import { computeVerdict, type TestRecord } from '../../../harness/run/verdict.js';
import { confirmationSettings, confirmedRecords, unfinishedTests } from '../../../harness/commands/confirm-timeouts.js';
import { CATALOG } from '../../../harness/catalog/index.js';
import { confirmationText } from '../../../harness/report/index-html.js';
import type { HttpClientLike, Inbox, TargetProfile } from '../../../harness/contracts.js';
import type { TestMeta } from '../../../harness/run/outcome.js';
import { requestWaits, unfinished } from '../../../harness/run/pending-work.js';
import { profile as stubProfile, setupWith, MUST } from './support/outcome-harness.js';

/** A loopback server that reads every request and never answers it. */
let silent: Server;
let silentUrl = '';
const arrived: Array<() => void> = [];
beforeAll(async () => {
  silent = createServer(() => arrived.shift()?.());
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

interface Ran {
  meta: TestMeta;
  /** The body's promise: it never settles in these tests (the run gave up on it). */
  body: Promise<unknown>;
}

/**
 * Runs `body` until `until` resolves (what the test waits on has started), then does what
 * vitest does when a test runs out of time: calls the onTestFailed hooks. Returns the meta.
 */
async function runOutOfTime(body: ConformanceBody, until: Promise<void>, opts: { http?: HttpClientLike; inbox?: Inbox; profile?: TargetProfile } = {}): Promise<Ran> {
  const setup = { ...setupWith(['control', 'consent', 'user-token', 'capture']), profile: opts.profile ?? stubProfile };
  const target = targetFromSetup(setup);
  const failed: Array<() => void | Promise<void>> = [];
  const task = { name: `${MUST}: a test`, meta: {} as Record<string, unknown> };
  const ctx = {
    task: task as unknown as { name: string; meta: import('vitest').TaskMeta },
    skip(note?: string): never {
      throw new Error(`skipped: ${note}`);
    },
    onTestFailed: (fn: () => void | Promise<void>) => failed.push(fn),
  };
  const redactor = Redactor.fromProfile(setup.profile);
  const http: HttpClientLike = opts.http ?? { request: async () => ({}) as never, api: async () => ({}) as never, exchanges: () => [] };
  const session = async (): Promise<TestSession> => ({
    target: targetFromSetup(setup, redactor),
    redactor,
    http,
    capture: { newInbox: async () => opts.inbox ?? ({} as Inbox) },
    control: null,
    flows: createFlows({ target: targetFromSetup(setup, redactor), http, control: null }),
    prepare: async () => {},
  });
  const bodyRun = runConformanceTest(MUST, {}, body, ctx, { target: () => target, session, sink: nullSink });
  bodyRun.catch(() => {});
  await until;
  for (const fn of failed) await fn();
  return { meta: (task.meta as { lockconf?: TestMeta }).lockconf!, body: bodyRun };
}

function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => { fire = resolve; });
  return { promise, fire };
}

const never = new Promise<never>(() => {});
const own = (meta: TestMeta) => meta.outcomes.find((o) => o.id === MUST)!;

describe('a test that did not finish within its timeout', () => {
  it('failed when the target never answered a request the test sent (a real loopback server that never answers)', async () => {
    const profile: TargetProfile = { ...stubProfile, baseUrl: `${silentUrl}/api`, controlUrl: `${silentUrl}/_control` };
    const http = new HttpClient({ profile, redactor: Redactor.fromProfile(profile) });
    const reached = signal();
    arrived.push(reached.fire);
    const ran = await runOutOfTime(async (t) => { await t.http.api('GET', '/locks?code=secret-code-1', {}); }, reached.promise, { http, profile });
    expect(own(ran.meta).status).toBe('failed');
    expect(own(ran.meta).reason).toMatch(/the test did not finish \(timeout after [\d.]+ s\): the harness was waiting for the target's answer to GET http:\/\/127\.0\.0\.1:\d+\/api\/locks \(sent [\d.]+ s before, no answer yet\)/);
    expect(own(ran.meta).reason).not.toContain('secret-code-1');
    expect(ran.meta.unfinished).toMatchObject({ owed: true });
  });

  it('failed when a delivery the test waited for was never heard', async () => {
    const waiting = signal();
    const inbox = { id: 'in-1', url: 'http://127.0.0.1:9/in-1', setResponse: async () => {}, deliveries: async () => [], collectFor: async () => [],
      waitFor: () => { waiting.fire(); return never; } } as unknown as Inbox;
    const ran = await runOutOfTime(async (t) => { await (await t.inbox({ label: 'lock-a' })).waitFor(1, { what: 'Lock/Unlocked' }); }, waiting.promise, { inbox });
    expect(own(ran.meta).status).toBe('failed');
    expect(own(ran.meta).reason).toMatch(/waiting for 1 delivery \(Lock\/Unlocked\) to inbox lock-a \(waited for [\d.]+ s, not heard yet\)/);
  });

  it('not tested (an error of the run) when the target had answered everything and the test was merely slow', async () => {
    const busy = signal();
    const ran = await runOutOfTime(async () => { busy.fire(); await never; }, busy.promise);
    expect(own(ran.meta).status).toBe('not-tested');
    expect(own(ran.meta).reason).toMatch(/did not finish .* on nothing from the target .*An error of the run, not a finding about the target/s);
    expect(ran.meta.unfinished).toEqual({ afterMs: expect.any(Number), owed: false, waitingFor: [] });
  });

  it('not tested when the harness waited only on its own quiet window', async () => {
    const listening = signal();
    const inbox = { id: 'in-1', url: 'http://127.0.0.1:9/in-1', setResponse: async () => {}, deliveries: async () => [], waitFor: async () => [],
      collectFor: () => { listening.fire(); return never; } } as unknown as Inbox;
    const ran = await runOutOfTime(async (t) => { await (await t.inbox()).collectFor(250); }, listening.promise, { inbox });
    expect(own(ran.meta).status).toBe('not-tested');
    expect(ran.meta.unfinished?.waitingFor).toEqual([expect.stringMatching(/^the harness's own quiet window, 250 ms on inbox in-1/)]);
  });

  it('a request to the control interface is the harness setting the scene: owed by no requirement', () => {
    const waits = requestWaits([{ method: 'post', url: 'http://127.0.0.1:9/_control/emit', since: 0 }, { method: 'GET', url: 'http://127.0.0.1:9/api/locks?x=1', since: 5 }], 'http://127.0.0.1:9/_control');
    expect(waits.map((w) => [w.kind, w.what])).toEqual([['control', 'POST http://127.0.0.1:9/_control/emit'], ['request', 'GET http://127.0.0.1:9/api/locks']]);
    expect(unfinished(waits.slice(0, 1), 1000, 1000)).toMatchObject({ owed: false });
    expect(unfinished(waits, 1000, 1000)).toMatchObject({ owed: true });
  });
});

const TIMED_OUT = 'Test timed out in 30000ms.';
const record = (over: Partial<TestRecord>): TestRecord => ({ name: `${MUST}: a test`, state: 'failed', errors: [TIMED_OUT], durationMs: 30_004, ...over });
const metaWith = (status: 'passed' | 'failed' | 'not-tested', unfinished?: TestMeta['unfinished'], reason?: string): TestMeta => ({
  requirement: MUST, outcomes: [{ id: MUST, status, ...(reason ? { reason } : {}) }], observations: [], exchanges: [], deliveries: [], ...(unfinished ? { unfinished } : {}),
});
const judge = (tests: TestRecord[]) => computeVerdict({ catalog: CATALOG, tests, selected: new Set([MUST]) });

describe('the verdict of a test that did not finish', () => {
  it('a slow harness makes the run incomplete, never not conformant', () => {
    const slow = record({ meta: metaWith('not-tested', { afterMs: 30_004, owed: false, waitingFor: [] }, 'the test did not finish (timeout after 30.0 s) …') });
    const v = judge([slow]);
    expect(v.requirements.find((r) => r.id === MUST)!.status).toBe('not-tested');
    expect(v.verdict).toBe('incomplete');
  });

  it('the re-run judges: a test that finishes when run again alone passes, and says it was confirmed after a timeout, with both durations', () => {
    const first = record({ meta: metaWith('failed', { afterMs: 30_004, owed: true, waitingFor: ['x'] }, 'the test did not finish (timeout after 30.0 s): …') });
    expect(unfinishedTests([first, record({ name: 'OTHER: fine', state: 'passed', errors: [] })])).toEqual([first]);
    const rerun = record({ state: 'passed', errors: [], durationMs: 41_250, meta: metaWith('passed') });
    const settings = confirmationSettings({ LOCKCONF_DELIVERY_WAIT_MS: '3000', LOCKCONF_QUIET_WINDOW_MS: '250' });
    expect(settings.env).toEqual({ LOCKCONF_SEQUENTIAL: '1', LOCKCONF_TEST_TIMEOUT_SCALE: '4', LOCKCONF_DELIVERY_WAIT_MS: '15000', LOCKCONF_QUIET_WINDOW_MS: '1000' });
    expect(settings.testTimeoutMs).toBe(120_000);
    const merged = confirmedRecords([first], [rerun], settings);
    const r = judge(merged).requirements.find((x) => x.id === MUST)!;
    expect(r.status).toBe('passed');
    expect(r.confirmedAfterTimeout).toEqual([{ test: first.name, firstDurationMs: 30_004, firstReason: 'the test did not finish (timeout after 30.0 s): …', durationMs: 41_250, timeoutScale: 4, deliveryWaitMs: 15_000, finished: true }]);
    expect(confirmationText(r.confirmedAfterTimeout![0]!)).toBe('Confirmed after a timeout: its test did not finish in the run (30.0 s); run again alone, timeouts × 4 and deliveries waited for 15000 ms, it finished in 41.3 s, and that run judged it.');
  });

  it('a re-run that does not finish either stands as it says: failed for what the target owed', () => {
    const first = record({ meta: metaWith('failed', { afterMs: 30_004, owed: true, waitingFor: ['x'] }, 'first') });
    const again = record({ durationMs: 120_010, meta: metaWith('failed', { afterMs: 120_010, owed: true, waitingFor: ['x'] }, 'the test did not finish (timeout after 120.0 s): the harness was waiting for …') });
    const merged = confirmedRecords([first], [again], confirmationSettings({}));
    const v = judge(merged);
    expect(v.verdict).toBe('not-conformant');
    expect(v.requirements.find((x) => x.id === MUST)!.confirmedAfterTimeout?.[0]).toMatchObject({ finished: false, durationMs: 120_010 });
  });
});
