/**
 * A conformance test run in-process with a stub target, for the outcome tests:
 * what the runner records for a body, given the capabilities the target offers.
 */
import { expect } from 'vitest';
import { nullSink } from '../../../../harness/report/allure-sink.js';
import { runConformanceTest, type ConformanceBody, type ConformanceOptions, type TestSession } from '../../../../harness/run/conformance-runner.js';
import { LockconfError } from '../../../../harness/run/errors.js';
import { createFlows } from '../../../../harness/wire/oauth-flows.js';
import { Redactor } from '../../../../harness/wire/redact.js';
import { targetFromSetup } from '../../../../harness/service/target.js';
import type { Capability } from '../../../../harness/catalog/index.js';
import type { ControlClientLike, Delivery, Exchange, HttpClientLike, Inbox, LockconfSetup, TargetProfile } from '../../../../harness/contracts.js';
import type { TestMeta } from '../../../../harness/run/outcome.js';


export const MUST = 'REFRESH-SINGLE-USE';
export const MUST_OTHER = 'REFRESH-ERROR-RESPONSE';
export const SHOULD = 'REFRESH-ERROR-INVALID-GRANT';
export const INFO = 'TOKEN-JWT-EXP';

export const profile: TargetProfile = {
  authUrl: 'http://127.0.0.1:9/oauth',
  baseUrl: 'http://127.0.0.1:9/api',
  clientId: 'client-1',
  clientSecret: 'client-secret-value-123',
  apiKey: 'api-key-value-456',
  redirectUri: 'http://127.0.0.1:9/callback',
  controlUrl: 'http://127.0.0.1:9/_control',
  controlToken: 'control-token-789',
};

export function setupWith(capabilities: Capability[], missing: LockconfSetup['missing'] = {}): LockconfSetup {
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

export interface Harness {
  meta: TestMeta | undefined;
  skipped: string | undefined;
  error: Error | undefined;
  calls: string[];
}

export async function run(
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
/** The task meta of the last test run through run(). */
export const lastMeta = (): Record<string, unknown> => lastTaskMeta;
export const statusOf = (h: Harness, id: string) => h.meta?.outcomes.find((o) => o.id === id)?.status;
export const reasonOf = (h: Harness, id: string) => h.meta?.outcomes.find((o) => o.id === id)?.reason ?? '';

