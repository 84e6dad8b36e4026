/**
 * conformance() for receiver suites: declares a test of an application's webhook
 * receiver, with the same rules, outcomes and evidence as a service test
 * (harness/run/conformance-runner.ts).
 *
 *   conformance('RECEIVER-REJECTS-STALE-T', 'a delivery signed a day ago is rejected', {}, async (t) => {
 *     const res = await t.receiver.deliver(event, { t: String(Date.now() - DAY) });
 *     t.expect(statusClass(res.status), 'answer to a stale delivery').not.toBe('2xx');
 *   });
 *
 * `t.receiver` sends deliveries to the receiver (harness/receiver/deliveries.ts)
 * through the test's HttpClient, so every exchange is evidence, redacted. The
 * receiver has no control interface, no capture server and no OAuth flows.
 */
import { inject, test } from 'vitest';
import { requirement } from '../catalog/index.js';
import { allureSink } from '../report/allure-sink.js';
import { LockconfError } from '../run/errors.js';
import { runConformanceTest, type ConformanceOptions, type LockconfContext, type RunnerDeps, type TestSession } from '../run/conformance-runner.js';
import { HttpClient } from '../wire/http.js';
import { Redactor } from '../wire/redact.js';
import type { CaptureClientLike, LockconfSetup, RedactorLike, Target, TargetProfile } from '../contracts.js';
import type { LockconfFlows } from '../wire/oauth-flows.js';
import { deliver, deliveryHeaders, post, type DeliveryOptions, type DeliveryResult } from './deliveries.js';
import type { ReceiverSettings } from './settings.js';
import type { ReceiverRunSetup } from './provided-context.js';

export interface ReceiverTools {
  settings: ReceiverSettings;
  /** Sign (or forge, as opts say) and send one delivery. */
  deliver(event: object | string, opts?: DeliveryOptions): Promise<DeliveryResult>;
  /** Send exactly these headers and body again. */
  resend(sent: DeliveryResult['sent']): Promise<DeliveryResult>;
  /** The headers a delivery of this body would carry (for a test that sends them itself). */
  headers(body: string, opts?: DeliveryOptions): Record<string, string>;
}

export type ReceiverContext = LockconfContext & { receiver: ReceiverTools };
export type ReceiverBody = (t: ReceiverContext) => Promise<void>;

export function conformance(id: string, title: string, opts: Omit<ConformanceOptions, 'needs'>, body: ReceiverBody): void {
  requirement(id); // an unknown ID fails at collection, not at run time
  for (const other of opts.also ?? []) requirement(other);
  test(`${id}: ${title}`, opts.timeout !== undefined ? { timeout: opts.timeout } : {}, async (ctx) => {
    await runConformanceTest(id, opts, (t) => body(withReceiver(t)), ctx, RUNTIME);
  });
}

let cached: { run: ReceiverRunSetup; target: Target } | null = null;

function receiverRun(): { run: ReceiverRunSetup; target: Target } {
  if (!cached) {
    const run = inject('lockconfReceiver');
    if (!run) throw new Error("no receiver: the 'lockconfReceiver' setup was not provided (run `conformance --receiver URL`)");
    cached = { run, target: receiverTarget(run, redactorFor(run.settings)) };
  }
  return cached;
}

/** A redactor that knows the API key, the client secret and the custom token. */
function redactorFor(settings: ReceiverSettings): RedactorLike {
  const redactor = Redactor.fromProfile(profileOf(settings));
  redactor.add(settings.token, 'webhook_token');
  return redactor;
}

/** The receiver, in the shape the HTTP client expects of a target: its URL and the secrets to redact. */
function profileOf(settings: ReceiverSettings): TargetProfile {
  return {
    authUrl: settings.url,
    baseUrl: settings.url,
    clientId: settings.clientId ?? 'lockconf-receiver-run',
    clientSecret: settings.clientSecret ?? '',
    apiKey: settings.apiKey,
    redirectUri: settings.url,
  };
}

/** A Target with no capabilities: a receiver offers none of the service's test hooks. */
function receiverTarget(run: ReceiverRunSetup, redactor: RedactorLike): Target {
  const profile = profileOf(run.settings);
  const setup: LockconfSetup = { profile, mock: false, fixtures: null, capabilities: [], missing: {}, capture: null, seed: run.seed, runDir: run.runDir };
  const why = 'a receiver run has no control interface, capture server or OAuth flows';
  return { setup, profile, fixtures: null, has: () => false, whyMissing: () => why, redactor };
}

const RUNTIME: RunnerDeps = {
  target: () => receiverRun().target,
  session: async (target) => {
    const { run } = receiverRun();
    const redactor = redactorFor(run.settings);
    const http = new HttpClient({ profile: target.profile, redactor });
    const view: Target = { ...target, redactor };
    return { target: view, redactor, http, capture: NO_CAPTURE, control: null, flows: NO_FLOWS, prepare: async () => {} } satisfies TestSession;
  },
  sink: allureSink,
};

function withReceiver(t: LockconfContext): ReceiverContext {
  const settings = receiverRun().run.settings;
  const tools: ReceiverTools = {
    settings,
    deliver: (event, opts) => deliver(t.http, settings, event, opts),
    resend: (sent) => post(t.http, settings.url, sent.headers, sent.body),
    headers: (body, opts) => deliveryHeaders(settings, body, opts),
  };
  return Object.assign(t, { receiver: tools });
}

const NO_CAPTURE: CaptureClientLike = {
  async newInbox() {
    throw new LockconfError('ERR_CAPABILITY_MISSING', 'a receiver run has no capture server');
  },
};

/** A receiver run has no OAuth flows: any use is a bug of the suite, said loudly. */
const NO_FLOWS = new Proxy({} as LockconfFlows, {
  get(_target, name) {
    return () => {
      throw new Error(`t.flows.${String(name)}: a receiver run has no OAuth flows`);
    };
  },
});
