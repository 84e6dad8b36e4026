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
import { initialState, type ModelState, type Violation } from '../../harness/model/index.js';
import { commandArbitraries, openingSteps, ModelViolation, type Real, type StoryStep } from './commands.js';
import type { ExplorePort } from './port.js';
import { story } from './story.js';

export interface Budget {
  /** Sequences tried at most. */
  sequences: number;
  /** Commands per sequence at most. */
  commands: number;
  /** Wall-clock bound of the whole exploration (shrinking included), ms. */
  timeMs: number;
}

/** A few seconds on the embedded mock; the time bound is a safety net only (under heavy load a verdict must not depend on it). */
export const DEFAULT_BUDGET: Budget = { sequences: 20, commands: 60, timeMs: 120_000 };

/** LOCKCONF_EXPLORE: a number of sequences ("200") or a duration ("45s", "2m"); null when unset. */
export function parseBudget(text: string | undefined): Budget | null {
  const v = (text ?? '').trim();
  if (v === '') return null;
  const n = /^(\d+)$/.exec(v);
  if (n) return { ...DEFAULT_BUDGET, sequences: Math.max(1, Number(n[1])), timeMs: Math.max(DEFAULT_BUDGET.timeMs, Number(n[1]) * 2_000) };
  const d = /^(\d+)\s*(s|m|min)$/.exec(v);
  if (d) return { ...DEFAULT_BUDGET, sequences: 1_000_000, timeMs: Number(d[1]) * (d[2] === 's' ? 1_000 : 60_000) };
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
  /** Sequences run (shrinking included) and commands run over all of them. */
  sequences: number;
  commands: number;
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

export async function explore(port: ExplorePort, opts: { seed: number; budget?: Budget; path?: string }): Promise<Exploration> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  const counter = { commands: 0 };
  let sequences = 0;
  type Last = { violation: ModelViolation | null; error: string | null; steps: StoryStep[] };
  const failures: Last[] = [];
  const property = fc.asyncProperty(fc.commands(commandArbitraries(port), { maxCommands: budget.commands, size: 'max' }), async (cmds) => {
    sequences++;
    if (port.control) {
      await port.control.reset();
      await port.control.clock?.reset();
    }
    const now = port.control ? await port.control.now() : Date.now();
    const real: Real = { port, secrets: new Map(), steps: [], counter };
    const model: ModelState = initialState(now, port.credentials.length);
    try {
      for (const opening of openingSteps(port)) await opening.run(model, real);
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      return true;
    } catch (err) {
      if (err instanceof ModelViolation) failures.push({ violation: err, error: null, steps: real.steps });
      else failures.push({ violation: null, error: err instanceof Error ? err.message : String(err), steps: real.steps });
      return false;
    }
  });
  const details = await fc.check(property, {
    seed: opts.seed,
    numRuns: budget.sequences,
    interruptAfterTimeLimit: budget.timeMs,
    markInterruptAsFailure: false,
    ...(opts.path ? { path: opts.path } : {}),
  });
  if (port.control) {
    await port.control.reset();
    await port.control.clock?.reset();
  }
  // The last failure during shrinking is the reported counterexample.
  const found = details.failed ? failures[failures.length - 1] ?? null : null;
  const v = found?.violation ?? null;
  return {
    seed: opts.seed,
    budget,
    sequences,
    commands: counter.commands,
    shrinks: details.numShrinks,
    interrupted: details.interrupted,
    leftOut: port.missing,
    finding: v && found ? {
      requirement: v.violation.rule.id,
      sentence: v.violation.rule.sentence,
      message: describeViolation(v.violation, v.answered),
      story: story(found.steps),
      path: details.counterexamplePath ?? null,
    } : null,
    error: found && !v ? `${found.error} (after: ${story(found.steps).filter((l) => /^\d+\./.test(l)).join(' ')})` : null,
  };
}
