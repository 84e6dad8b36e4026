/**
 * Runs one conformance test: checks the capabilities it needs, prepares the
 * target, runs the body with its context `t`, settles the outcome of every
 * requirement it touched (outcome-recorder.ts) and hands the redacted evidence
 * to the reporter (task.meta.lockconf) and to Allure.
 *
 * It knows the harness modules only through their interfaces (contracts.ts), so
 * its rules can be tested with a fake target and fake clients; conformance.ts
 * wires it to the real ones.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { expect as globalExpect, type TaskMeta } from 'vitest';
import { requirement as catalogRequirement, type Capability, type Requirement } from '../catalog/index.js';
import { LockconfError, isLockconfError } from './errors.js';
import { OutcomeRecorder, deepRedact } from './outcome-recorder.js';
import { SliceRunner } from './slices.js';
import type { EvidenceSink } from '../report/allure-sink.js';
import type {
  CaptureClientLike,
  ConformanceContext,
  ControlClientLike,
  Delivery,
  Exchange,
  HttpClientLike,
  Inbox,
  InboxResponse,
  RedactorLike,
  Target,
} from '../contracts.js';
import type { LockconfFlows } from '../wire/oauth-flows.js';
import type { DeliveryEvidence, TestMeta } from './outcome.js';

/** The context a conformance body receives: contracts.ts ConformanceContext, plus a few helpers. */
export interface LockconfContext extends ConformanceContext {
  flows: LockconfFlows;
  /** The target's clock (control GET /clock), or the harness clock without control. */
  targetNow(): Promise<number>;
  /** Shortcut for capture.newInbox. */
  inbox(opts?: { label?: string; response?: InboxResponse }): Promise<Inbox>;
  /**
   * Runs fn while no other test runs (a test that leased a fixture set and must move
   * the target's clock); the clock is back at real time afterwards. In a sequential
   * run nothing else runs anyway: fn runs at once.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export type ConformanceBody = (t: LockconfContext) => Promise<void>;

export interface ConformanceOptions {
  needs?: Capability[];
  timeout?: number;
  /** Other requirement IDs this test covers: reported not tested with it when it cannot run. */
  also?: string[];
  /**
   * 'fixture-set': the test needs only a fixture set of its own (an owner, a guest on the
   * first lock, the owner's locks) and may run beside others that hold other sets. It
   * never resets the target, and moves its clock only inside t.exclusive(). Without it
   * a test runs alone (harness/service/run-plan.ts, harness/run/gate.ts).
   */
  lease?: 'fixture-set' | 'none';
}

/** What one test works with; built per test by conformance.ts. */
export interface TestSession {
  /** The target as this test sees it (its redactor is the test's own). */
  target: Target;
  redactor: RedactorLike;
  http: HttpClientLike;
  capture: CaptureClientLike;
  control: ControlClientLike | null;
  flows: LockconfFlows;
  /** Bring the target to a known state before the body (control: reset and real time). */
  prepare(): Promise<void>;
  /** t.exclusive(): absent when nothing else can run beside this test. */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
}

export interface RunnerDeps {
  /** The worker's target (capabilities, profile). */
  target(): Target;
  session(target: Target, testName: string): Promise<TestSession>;
  sink: EvidenceSink;
  lookup?: (id: string) => Requirement;
}

/** The slice of vitest's test context the runner uses. */
export interface RunnerTestContext {
  task: { name: string; meta: TaskMeta };
  skip(note?: string): never;
  expect?: typeof globalExpect;
  onTestFailed?: (fn: () => void | Promise<void>) => void;
}

/** Thrown by t.notTested(); private to the runner. */
class NotTestedSignal extends Error {
  constructor(readonly reason: string) {
    super(`not tested: ${reason}`);
    this.name = 'NotTestedSignal';
  }
}

/**
 * A control call that drives the target (emit, clock, revoke, client-credentials,
 * reset) was refused: the test harness could not set the scene, so nothing was
 * learnt about the service. Consent and fixtures are not in this list: their
 * answers are the service's own behaviour.
 */
class ControlRefusal extends LockconfError {
  constructor(original: LockconfError) {
    super('ERR_CONTROL', `the target's control interface refused: ${original.message}`, { cause: original });
    this.name = 'ControlRefusal';
  }
}

const DRIVING_CONTROL_CALLS = ['now', 'advanceClock', 'resetClock', 'emit', 'revokeRefreshToken', 'setClientCredentials', 'reset'] as const;

/** The control client a test body sees: a refused driving call ends the test as not tested. */
export function refusalAwareControl(inner: ControlClientLike): ControlClientLike {
  const wrapped: ControlClientLike = Object.create(inner) as ControlClientLike;
  const target = wrapped as unknown as Record<string, unknown>;
  for (const name of DRIVING_CONTROL_CALLS) {
    const original = inner[name] as (...args: unknown[]) => Promise<unknown>;
    target[name] = async (...args: unknown[]) => {
      try {
        return await original.apply(inner, args);
      } catch (err) {
        if (isLockconfError(err, 'ERR_CONTROL')) throw new ControlRefusal(err);
        throw err;
      }
    };
  }
  return wrapped;
}

function notTestedReason(err: unknown): string | null {
  if (err instanceof NotTestedSignal) return err.reason;
  if (err instanceof ControlRefusal) return err.message;
  if (isLockconfError(err, 'ERR_CAPABILITY_MISSING')) return err.message;
  return null;
}

export async function runConformanceTest(
  id: string,
  opts: ConformanceOptions,
  body: ConformanceBody,
  ctx: RunnerTestContext,
  deps: RunnerDeps,
): Promise<void> {
  const lookup = deps.lookup ?? catalogRequirement;
  const declared = lookup(id);
  const target = deps.target();
  let redactor: RedactorLike = target.redactor;
  const redact = (text: string) => scrubTokenFragments(redactor.redact(text));
  const recorder = new OutcomeRecorder(declared, { lookup, redact });
  const also = opts.also ?? [];
  also.forEach((other) => lookup(other)); // an unknown ID is a suite bug: fail loudly

  let http: HttpClientLike | null = null;
  const slices = new SliceRunner({ recorder, current: () => checking.getStore() ?? declared.id, notTestedReason, redact, evidence: () => (http ? lastExchange(http) : null) });
  const inboxes: Inbox[] = [];
  let finished = false;

  const writeMeta = async (): Promise<TestMeta> => {
    const exchanges: Exchange[] = http ? safeExchanges(http) : [];
    const deliveries = await collectDeliveries(inboxes);
    scrubAllureMessages(ctx.task.meta, redact);
    const meta: TestMeta = {
      requirement: declared.id,
      outcomes: recorder.outcomes(),
      observations: recorder.observations(),
      // Redacted again with everything this test learnt: a token first seen in a response is covered too.
      exchanges: deepRedact(exchanges, redact),
      deliveries: deepRedact(deliveries, redact),
      ...(slices.records().length ? { slices: slices.records() } : {}),
    };
    ctx.task.meta.lockconf = meta;
    return meta;
  };

  // A timeout abandons the body; still hand the reporter what is known.
  ctx.onTestFailed?.(async () => {
    if (finished) return;
    finished = true;
    recorder.fail(declared.id, new Error('the test did not finish (timeout or aborted run)'));
    await writeMeta();
  });

  await deps.sink.describe(declared);

  const missing = (opts.needs ?? []).filter((cap) => !target.has(cap));
  if (missing.length > 0) {
    const reason = missing.map((cap) => `needs ${cap}: ${target.whyMissing(cap) ?? 'not offered by the target'}`).join('; ');
    return skipAsNotTested(reason);
  }

  let session: TestSession;
  try {
    session = await deps.session(target, ctx.task.name);
    redactor = session.redactor;
    http = session.http;
    await session.prepare();
  } catch (err) {
    const why = notTestedReason(err) ?? `the target could not be brought to a known state: ${describe(err)}`;
    return skipAsNotTested(redact(why));
  }

  const capture = trackingCapture(session.capture, inboxes);
  const seenChecks = new Set<string>([declared.id]);
  // The requirement a t.check() callback is running for: its observations belong to it.
  const checking = new AsyncLocalStorage<string>();
  const control = session.control ? refusalAwareControl(session.control) : null;
  const t: LockconfContext = {
    requirement: declared,
    target: session.target,
    http: session.http,
    capture,
    control,
    flows: session.flows,
    expect: slices.counting(ctx.expect ?? globalExpect),
    async check(otherId, fn) {
      const other = lookup(otherId);
      if (!seenChecks.has(other.id)) {
        seenChecks.add(other.id);
        await deps.sink.alsoChecks(other);
      }
      try {
        await checking.run(other.id, fn);
        slices.settle(other.id);
      } catch (err) {
        if (notTestedReason(err) !== null) throw err;
        recorder.fail(other.id, err, lastExchange(session.http));
      }
    },
    observe(label, value) {
      recorder.observe(checking.getStore() ?? declared.id, label, value);
    },
    notTested(reason): never {
      throw new NotTestedSignal(reason);
    },
    step: (name, fn) => deps.sink.step(name, fn),
    targetNow: async () => (control ? await control.now() : Date.now()),
    inbox: (inboxOpts) => capture.newInbox(inboxOpts),
    exclusive: (fn) => (session.exclusive ? session.exclusive(fn) : fn()),
    ...slices.api(),
  };

  let skipReason: string | null = null;
  try {
    await body(t);
    slices.settle(declared.id); // passed, or not tested when no slice of it could be carried out
  } catch (err) {
    const reason = notTestedReason(err);
    if (reason !== null) {
      skipReason = redact(reason);
      recorder.notTested(declared.id, skipReason);
    } else {
      recorder.fail(declared.id, err, lastExchange(session.http));
    }
  }

  if (finished) return; // the run gave up on this test already
  finished = true;
  if (skipReason !== null) {
    for (const other of also) if (!recorder.touched(other)) recorder.notTested(other, skipReason);
  }
  const meta = await writeMeta();
  await attachEvidence(meta, deps.sink);
  if (skipReason !== null) ctx.skip(skipReason);

  const failures = recorder.mustFailures();
  if (failures.length > 0) {
    // A fresh error: the original assertion may carry values that were never redacted.
    throw new Error(
      `MUST requirement${failures.length > 1 ? 's' : ''} failed: ${failures.map((f) => f.id).join(', ')}\n\n`
      + failures.map((f) => `${f.id}\n${f.reason ?? ''}`).join('\n\n'),
    );
  }

  async function skipAsNotTested(reason: string): Promise<never> {
    finished = true;
    recorder.notTested(declared.id, reason);
    for (const other of also) recorder.notTested(other, reason);
    await writeMeta();
    return ctx.skip(reason);
  }
}

/**
 * The start of a JWT cut short (a suite quoting the first characters of a body)
 * is no longer the token the redactor knows; it is hidden all the same.
 */
const JWT_FRAGMENT = /eyJ[A-Za-z0-9_-]{6,}(?:\.[A-Za-z0-9_-]*){0,2}/g;

export function scrubTokenFragments(text: string): string {
  return text.replace(JWT_FRAGMENT, '‹jwt-fragment›');
}

/**
 * allure-vitest keeps its runtime messages (steps of failed matchers, with the
 * assertion's message) in task.meta until the reporter writes them: they pass
 * through the redactor like everything else that leaves the test.
 */
function scrubAllureMessages(meta: TaskMeta, redact: (text: string) => string): void {
  const holder = meta as Record<string, unknown>;
  for (const key of ['allureRuntimeMessages', 'allureGlobalRuntimeMessages']) {
    const messages = holder[key];
    if (!Array.isArray(messages)) continue;
    holder[key] = messages.map((m: unknown) => {
      // Attachment bodies are base64 (of JSON this harness redacted before attaching): left as they are.
      const message = m as { type?: unknown; data?: Record<string, unknown> } | null;
      if (message?.type === 'attachment_content' && message.data) {
        return { ...message, data: { ...message.data, name: redact(String(message.data.name ?? '')) } };
      }
      return deepRedact(m, redact);
    });
  }
}

/** A CaptureClient that remembers the inboxes this test opened, for the evidence. */
function trackingCapture(inner: CaptureClientLike, inboxes: Inbox[]): CaptureClientLike {
  return {
    async newInbox(opts) {
      const inbox = await inner.newInbox(opts);
      inboxes.push(inbox);
      return inbox;
    },
  };
}

/** The exchange a failure most likely concerns: the test's last one, as one line. */
function lastExchange(http: HttpClientLike): string | null {
  const e = safeExchanges(http).at(-1);
  if (!e) return null;
  const answer = e.response ? `HTTP ${e.response.status}` : (e.error ?? 'no response');
  return `last exchange: ${e.request.method} ${e.request.url} → ${answer}`;
}

function safeExchanges(http: HttpClientLike): Exchange[] {
  try {
    return http.exchanges();
  } catch {
    return [];
  }
}

async function collectDeliveries(inboxes: Inbox[]): Promise<DeliveryEvidence[]> {
  const out: DeliveryEvidence[] = [];
  for (const inbox of inboxes) {
    let deliveries: Delivery[];
    try {
      deliveries = await inbox.deliveries();
    } catch {
      continue; // evidence is best effort; the verdict never depends on it
    }
    for (const d of deliveries) {
      out.push({
        inbox: d.inbox,
        method: d.method,
        url: d.url,
        headers: d.headers,
        body: d.bodyText,
        receivedAt: d.receivedAt,
        answeredStatus: d.answeredStatus,
      });
    }
  }
  return out;
}

async function attachEvidence(meta: TestMeta, sink: EvidenceSink): Promise<void> {
  try {
    for (const [i, e] of meta.exchanges.entries()) {
      const status = e.response ? String(e.response.status) : 'no response';
      await sink.attachJson(`HTTP ${i + 1}: ${e.request.method} ${pathOf(e.request.url)} → ${status}`, e);
    }
    for (const [i, d] of meta.deliveries.entries()) {
      await sink.attachJson(`delivery ${i + 1}: ${d.method} ${d.url} (answered ${d.answeredStatus})`, d);
    }
    for (const o of meta.outcomes) if (o.status === 'warned') await sink.flag(`warned: ${o.id}`);
    if (meta.observations.length > 0) await sink.attachJson('observations', meta.observations);
    await sink.attachJson('outcomes', meta.outcomes);
  } catch {
    // Attachments are a convenience of the drill-down; never let them change a verdict.
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
