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
import { OutcomeRecorder, deepRedact, describeFailure } from './outcome-recorder.js';
import { PrerequisiteFailed, blockersFor, isPrerequisiteFailed } from './prerequisite.js';
import { SliceRunner } from './slices.js';
import { PendingWork, requestWaits, unfinished, unfinishedReason } from './pending-work.js';
import type { EvidenceSink } from '../report/allure-sink.js';
import type {
  CaptureClientLike,
  ConformanceContext,
  ControlClientLike,
  Exchange,
  HttpClientLike,
  Inbox,
  InboxResponse,
  RedactorLike,
  Target,
} from '../contracts.js';
import type { LockconfFlows } from '../wire/oauth-flows.js';
import type { TestMeta } from './outcome.js';
import { attachEvidence, collectDeliveries, describe, lastExchange, rotationTracking, safeExchanges, scrubAllureMessages, scrubTokenFragments, trackingCapture } from './test-evidence.js';

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
  /**
   * Runs a step the test's check rests on, a step that is requirement `id`'s business
   * (harness/run/prerequisite.ts): when it fails, the test is reported blocked by `id`
   * (or failed, when `id` is the test's own requirement). Not-tested signals pass through.
   */
  prerequisite<T>(id: string | readonly string[], fn: () => T | Promise<T>): Promise<T>;
  /**
   * True when this test presented `accessToken` to the API and the answer rotated it
   * (a 2xx with a different x-access-token): a later 401 for it rests on
   * HEADERS-PREVIOUS-TOKEN-VALID.
   */
  superseded(accessToken: string): boolean;
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
  onTestFinished?: (fn: () => void | Promise<void>) => void;
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

/** A prerequisite step that is the requirement's own check: its failure, in its own words. */
function ownFailure(err: unknown): unknown {
  if (!isPrerequisiteFailed(err)) return err;
  return err.cause ?? new Error(err.reason);
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
  const pending = new PendingWork();
  const startedAt = pending.now();
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

  // A timeout abandons the body; still hand the reporter what is known, and what the harness was
  // waiting for (pending-work.ts): the target's failure only when it owed the answer or the delivery.
  ctx.onTestFailed?.(async () => {
    if (finished) return;
    finished = true;
    const now = pending.now();
    const waits = [...requestWaits(http?.inFlight?.() ?? [], target.profile.controlUrl), ...pending.items()];
    const u = unfinished(waits, now, now - startedAt);
    const reason = redact(unfinishedReason(u));
    if (u.owed) recorder.fail(declared.id, new Error(reason));
    else recorder.notTested(declared.id, reason);
    const meta = await writeMeta();
    meta.unfinished = { ...u, waitingFor: u.waitingFor.map(redact) };
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

  const capture = trackingCapture(session.capture, inboxes, pending);
  const rotations = new Set<string>();
  const api = rotationTracking(session.http, rotations);
  const seenChecks = new Set<string>([declared.id]);
  // The requirement a t.check() callback is running for: its observations belong to it.
  const checking = new AsyncLocalStorage<string>();
  // Node 20 keeps every AsyncLocalStorage that ever ran in one list and copies each into every
  // promise made afterwards: one per test made the run's last tests pay for all earlier ones.
  // Once the test has ended nothing reads them.
  ctx.onTestFinished?.(() => {
    checking.disable();
    slices.release();
  });
  const control = session.control ? refusalAwareControl(session.control) : null;
  const t: LockconfContext = {
    requirement: declared,
    target: session.target,
    http: api,
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
        const blockers = isPrerequisiteFailed(err) ? blockersFor(err, other.id) : [];
        if (blockers.length > 0) recorder.blocked(other.id, blockers, (err as PrerequisiteFailed).reason);
        else recorder.fail(other.id, ownFailure(err), lastExchange(session.http));
      }
    },
    async prerequisite(prereqIds, fn) {
      const ids = typeof prereqIds === 'string' ? [prereqIds] : [...prereqIds];
      const reqs = ids.map((one) => lookup(one)); // an unknown ID is a suite bug: fail loudly
      try {
        return await fn();
      } catch (err) {
        // Not tested stays not tested; a deeper prerequisite is the root, not this one.
        if (notTestedReason(err) !== null || isPrerequisiteFailed(err)) throw err;
        // The step's own words first (the assertion), then expected and observed; the rule is the test's.
        const lines = describeFailure(reqs[0]!, err, redact).split('\n').filter((l) => !l.startsWith('rule ('));
        const said = (l: string) => l.startsWith('assertion: ') || l.startsWith('error: ');
        const why = [...lines.filter(said).map((l) => l.replace(/^(assertion|error): /, '')), ...lines.filter((l) => !said(l))].join('\n');
        throw new PrerequisiteFailed(ids, why, { cause: err });
      }
    },
    superseded: (accessToken) => rotations.has(accessToken),
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
  let blockedBy: { by: string[]; reason: string } | null = null;
  try {
    await body(t);
    slices.settle(declared.id); // passed, or not tested when no slice of it could be carried out
  } catch (err) {
    const reason = notTestedReason(err);
    if (reason !== null) {
      skipReason = redact(reason);
      recorder.notTested(declared.id, skipReason);
    } else if (isPrerequisiteFailed(err) && blockersFor(err, declared.id).length > 0) {
      // The check was never reached: the root cause is the prerequisite's, judged by its own test.
      blockedBy = { by: blockersFor(err, declared.id), reason: err.reason };
      recorder.blocked(declared.id, blockedBy.by, err.reason);
      skipReason = redact(`blocked by ${blockedBy.by.join(' or ')}`);
    } else {
      // A prerequisite that is the test's own requirement is its own check failing.
      recorder.fail(declared.id, ownFailure(err), lastExchange(session.http));
    }
  }

  if (finished) return; // the run gave up on this test already
  finished = true;
  if (blockedBy !== null) {
    for (const other of also) if (!recorder.touched(other)) recorder.blocked(other, blockedBy.by, blockedBy.reason);
  } else if (skipReason !== null) {
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
