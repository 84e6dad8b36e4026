/**
 * Exploration: random sequences of the commands (commands.ts) run against the
 * target, each answer judged by the model of the spec; a failing sequence is shrunk
 * by fast-check to a minimal one and told as a numbered story. Every sequence starts
 * from a reset target (control protocol) at real time; the run is bounded in count
 * and in time, and replays exactly from its seed (and counterexample path).
 *
 * Budget (docs/exploration.md): LOCKCONF_EXPLORE=N (sequences) or a duration (30s,
 * 2m), default DEFAULT_BUDGET. Replay: the run's --seed, and LOCKCONF_EXPLORE_PATH
 * (the path a failure reports) to go straight to the counterexample.
 */
import fc from 'fast-check';
import { LOCK_GROUPS, initialState, type ModelState, type Violation } from '../../harness/model/index.js';
import { commandArbitraries, openingSteps, webhookOpening, webhookSupport, ModelViolation, type Real, type StoryStep } from './commands.js';
import { ListenQuietly, RegisterHook, webhookArbitraries } from './webhook-commands.js';
import type { ExplorePort } from './port.js';
import { story } from './story.js';

export interface Budget {
  /** Sequences tried at most. */
  sequences: number;
  /** Commands per sequence at most. */
  commands: number;
  /** Sequences of webhook commands (registrations, overwrites, deletions, events, status checks) tried at most; each event step costs a delivery wait. */
  hookSequences: number;
  /** Commands per webhook sequence at most. */
  hookCommands: number;
  /** Wall-clock bound of the whole exploration (shrinking included), ms. */
  timeMs: number;
}

/** A few seconds on the embedded mock; the time bound is a safety net only (under heavy load a verdict must not depend on it). */
export const DEFAULT_BUDGET: Budget = { sequences: 20, commands: 30, hookSequences: 3, hookCommands: 40, timeMs: 120_000 };

/** The webhook sequences a budget of `sequences` protocol sequences goes with (one in five, at least the default). */
function hookSequencesFor(sequences: number): number {
  return Math.max(DEFAULT_BUDGET.hookSequences, Math.ceil(sequences / 5));
}

/** LOCKCONF_EXPLORE: a number of sequences ("200") or a duration ("45s", "2m"); null when unset. */
export function parseBudget(text: string | undefined): Budget | null {
  const v = (text ?? '').trim();
  if (v === '') return null;
  const n = /^(\d+)$/.exec(v);
  if (n) return { ...DEFAULT_BUDGET, sequences: Math.max(1, Number(n[1])), hookSequences: hookSequencesFor(Number(n[1])), timeMs: Math.max(DEFAULT_BUDGET.timeMs, Number(n[1]) * 2_000) };
  const d = /^(\d+)\s*(s|m|min)$/.exec(v);
  if (d) return { ...DEFAULT_BUDGET, sequences: 1_000_000, hookSequences: 1_000_000, timeMs: Number(d[1]) * (d[2] === 's' ? 1_000 : 60_000) };
  throw new Error(`LOCKCONF_EXPLORE must be a number of sequences (200) or a duration (45s, 2m); got "${v}"`);
}

export interface Finding {
  requirement: string;
  sentence: string;
  /** The situation and the answer, in the model's words. */
  message: string;
  /** The shrunk sequence, numbered, redacted. */
  story: string[];
  /** fast-check's counterexample path: with the seed, it replays the shrunk sequence at once. */
  path: string | null;
}

export interface Exploration {
  seed: number;
  budget: Budget;
  /** Sequences run (shrinking included) and commands run over all of them, webhook sequences included. */
  sequences: number;
  commands: number;
  /** Of those, the webhook sequences and their commands (0 when the webhook commands were left out). */
  hookSequences: number;
  hookCommands: number;
  shrinks: number;
  /** The time bound ended the exploration before its count. */
  interrupted: boolean;
  leftOut: ExplorePort['missing'];
  finding: Finding | null;
  /** A sequence failed for another reason than the model (the target or the harness threw). */
  error: string | null;
}

function describeViolation(v: Violation, observed: string): string {
  return `${v.what}: the spec allows ${v.expected.join(' or ')}; the target answered ${observed}`;
}

/** A failure's path names its phase: the webhook phase's paths start with "w:". */
const HOOK_PATH = 'w:';

interface Phase {
  sequences: number;
  commands: number;
  shrinks: number;
  interrupted: boolean;
  finding: Finding | null;
  error: string | null;
}

type Cmd = fc.AsyncCommand<ModelState, Real>;

/**
 * A sequence's commands: one list, or (webhook sequences) two lists of at most half the
 * budget each, run one after the other. fast-check draws a list's length evenly between 0
 * and its most; the sum of two draws leaves few sequences nearly empty (under a fifth of
 * the budget: about one in twelve, against one in five for a single list), same most.
 */
function sequenceLists(maxCommands: number, lists: number): number[] {
  return lists === 1 ? [maxCommands] : [Math.ceil(maxCommands / 2), Math.floor(maxCommands / 2)];
}

/** Each command list's replay path ("@…" per list): which of its commands ran, so that a path replays the shrunk sequence exactly. */
function replayOf(lists: readonly Iterable<Cmd>[] | undefined): string {
  return (lists ?? []).map((l) => `@${/replayPath="([^"]*)"/.exec(String(l))?.[1] ?? ''}`).join('');
}

async function runPhase(
  port: ExplorePort,
  p: { arbs: fc.Arbitrary<Cmd>[]; opening: Cmd[]; closing?: Cmd[]; seed: number; runs: number; maxCommands: number; lists: number; timeMs: number; path?: string; pathPrefix: string; hooks: boolean },
): Promise<Phase> {
  const counter = { commands: 0 };
  let sequences = 0;
  type Last = { violation: ModelViolation | null; error: string | null; steps: StoryStep[] };
  const failures: Last[] = [];
  // A path names fast-check's shrink path and, after "@", each command list's replay path (which commands of it ran).
  const [fcPath, ...replayPaths] = (p.path ?? '').split('@');
  const listsOf = (arbs: fc.Arbitrary<Cmd>[]) => fc.tuple(...sequenceLists(p.maxCommands, p.lists).map((max, i) => fc.commands(arbs, { maxCommands: max, size: 'max', ...(replayPaths[i] ? { replayPath: replayPaths[i] } : {}) })));
  const property = fc.asyncProperty(listsOf(p.arbs), async (cmdLists) => {
    sequences++;
    if (port.control) {
      await port.control.reset();
      await port.control.clock?.reset();
    }
    const now = port.control ? await port.control.now() : Date.now();
    const real: Real = { port, secrets: new Map(), steps: [], counter, ...(p.hooks ? { hooks: new Map() } : {}) };
    const model: ModelState = initialState(now, port.credentials.length);
    try {
      for (const opening of p.opening) await opening.run(model, real);
      for (const cmds of cmdLists) await fc.asyncModelRun(() => ({ model, real }), cmds);
      for (const closing of p.closing ?? []) await closing.run(model, real);
      return true;
    } catch (err) {
      if (err instanceof ModelViolation) failures.push({ violation: err, error: null, steps: real.steps });
      else failures.push({ violation: null, error: err instanceof Error ? err.message : String(err), steps: real.steps });
      return false;
    }
  });
  const details = await fc.check(property, {
    seed: p.seed,
    numRuns: p.runs,
    interruptAfterTimeLimit: p.timeMs,
    markInterruptAsFailure: false,
    ...(fcPath ? { path: fcPath } : {}),
  });
  // The last failure during shrinking is the reported counterexample.
  const found = details.failed ? failures[failures.length - 1] ?? null : null;
  const v = found?.violation ?? null;
  return {
    sequences,
    commands: counter.commands,
    shrinks: details.numShrinks,
    interrupted: details.interrupted,
    finding: v && found ? {
      requirement: v.violation.rule.id,
      sentence: v.violation.rule.sentence,
      message: describeViolation(v.violation, v.answered),
      story: story(found.steps),
      path: details.counterexamplePath ? `${p.pathPrefix}${details.counterexamplePath}${replayOf(details.counterexample?.[0])}` : null,
    } : null,
    error: found && !v ? `${found.error} (after: ${story(found.steps).filter((l) => /^\d+\./.test(l)).join(' ')})` : null,
  };
}

const NONE: Phase = { sequences: 0, commands: 0, shrinks: 0, interrupted: false, finding: null, error: null };

/** How a left-out protocol phase is named among the operations left out. */
export const PROTOCOL_SEQUENCES = 'the protocol sequences (OAuth, token, refresh and API operations without webhooks)';

/**
 * Explores in two phases from one seed: sequences of the OAuth, token, refresh and API
 * operations and control steps; then (when the target can receive webhooks) sequences that
 * mix webhook registrations, overwrites, deletions, events and status checks with them,
 * fewer because each event step waits for deliveries. A path (LOCKCONF_EXPLORE_PATH)
 * replays the one phase it names.
 *
 * `protocolPhase`: a reason to leave the protocol phase out (a run whose selection holds no
 * requirement of the protocol areas: no test would report what it finds); the webhook phase
 * then runs as it would have (its own seed, seed + 1, and a reset target for each sequence),
 * and the reason is listed among the operations left out. Ignored without the webhook phase
 * or with a path.
 */
export async function explore(port: ExplorePort, opts: { seed: number; budget?: Budget; path?: string; protocolPhase?: string | null }): Promise<Exploration> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  const hookPath = opts.path?.startsWith(HOOK_PATH) ? opts.path.slice(HOOK_PATH.length) : undefined;
  const started = Date.now();
  const hooksOn = port.webhooks !== undefined && budget.hookSequences > 0;
  // The protocol phase is left out (with the reason) only where nothing reads it and the webhook phase runs instead.
  const noProtocol = typeof opts.protocolPhase === 'string' && hooksOn && !opts.path ? opts.protocolPhase : null;
  const main = noProtocol !== null ? NONE : opts.path && !hookPath ? await runPhase(port, {
    arbs: commandArbitraries(port), opening: openingSteps(port), seed: opts.seed, runs: budget.sequences, maxCommands: budget.commands,
    lists: 1, timeMs: budget.timeMs, path: opts.path, pathPrefix: '', hooks: false,
  }) : hookPath ? NONE : await runPhase(port, {
    arbs: commandArbitraries(port), opening: openingSteps(port), seed: opts.seed, runs: budget.sequences, maxCommands: budget.commands, lists: 1,
    // The protocol phase leaves a quarter of the time bound to the webhook phase.
    timeMs: hooksOn ? Math.round(budget.timeMs * 0.75) : budget.timeMs, pathPrefix: '', hooks: false,
  });
  const hooks = hooksOn && !main.finding && !main.error && (!opts.path || hookPath) ? await runPhase(port, {
    arbs: [...webhookArbitraries(port.webhooks), ...webhookSupport(port)], opening: webhookOpening(port, new RegisterHook('lock', 0, 0, true, [...LOCK_GROUPS])), closing: [new ListenQuietly()], seed: opts.seed + 1,
    runs: budget.hookSequences, maxCommands: budget.hookCommands, lists: 2, timeMs: Math.max(10_000, budget.timeMs - (Date.now() - started)),
    ...(hookPath ? { path: hookPath } : {}), pathPrefix: HOOK_PATH, hooks: true,
  }) : NONE;
  if (port.control) {
    await port.control.reset();
    await port.control.clock?.reset();
  }
  return {
    seed: opts.seed,
    budget,
    sequences: main.sequences + hooks.sequences,
    commands: main.commands + hooks.commands,
    hookSequences: hooks.sequences,
    hookCommands: hooks.commands,
    shrinks: main.shrinks + hooks.shrinks,
    interrupted: main.interrupted || hooks.interrupted,
    leftOut: noProtocol !== null ? [...port.missing, { operation: PROTOCOL_SEQUENCES, reason: noProtocol }] : port.missing,
    finding: main.finding ?? hooks.finding,
    error: main.error ?? hooks.error,
  };
}
