/**
 * Property-based runs against a live target: few runs, the run's seed (printed and
 * replayable with --seed), and on failure the exact (redacted) requests of the
 * counterexample recorded as an observation, so a reader can replay it by hand.
 */
import fc from 'fast-check';
import type { Exchange } from '../../harness/contracts.js';
import { INPUTS_LABEL, InputsDigest } from '../../harness/run/generated-inputs.js';
import type { SuiteContext } from './context.js';
import { isPrerequisiteFailed } from './prerequisite.js';

export function runSeed(t: SuiteContext): number {
  const seed = t.target.setup.seed;
  return Number.isSafeInteger(seed) ? seed : 0;
}

/** Marks where each property run's requests start, and keeps those of the last failing run. */
export class ReproLog {
  #mark = 0;
  #failing: Exchange[] | null = null;

  constructor(private readonly t: SuiteContext) {}

  start(): void {
    this.#mark = this.t.http.exchanges().length;
  }

  failed(): void {
    this.#failing = this.t.http.exchanges().slice(this.#mark);
  }

  /** The requests of the last failing run (during shrinking, the last failure is the reported counterexample). */
  failingRequests(): Array<{ method: string; url: string; body: string; status: number | null }> {
    return (this.#failing ?? []).map((e) => ({ method: e.request.method, url: e.request.url, body: e.request.body, status: e.response?.status ?? null }));
  }
}

/**
 * Checks an async property with the run's seed. The predicate returns a problem
 * description (a failing case) or null. On failure: observations of the seed,
 * counterexample and its requests, then a test failure naming the rule.
 */
export async function checkProperty<T>(
  t: SuiteContext,
  opts: {
    rule: string; arbitrary: fc.Arbitrary<T>; numRuns: number; examples?: T[]; show?: (value: T) => unknown;
    /** The requirement the last failure breaks, when it is not the test's own (a model test spans several rules). */
    blame?: () => string | null;
  },
  predicate: (value: T) => Promise<string | null>,
): Promise<void> {
  const seed = runSeed(t);
  const log = new ReproLog(t);
  let lastProblem = '';
  /** A step a run rests on failed (harness/run/prerequisite.ts): the test is blocked, not failed. */
  let blocked: unknown = null;
  // The values drawn from the seeded generators, up to the first counterexample (shrinking depends on the target): replay must reproduce them.
  const inputs = new InputsDigest();
  let shrinking = false;
  t.observe('fast-check', { seed, numRuns: opts.numRuns, replay: `--seed ${seed}` });
  process.stdout.write(`[${t.requirement.id}] fast-check seed ${seed} (replay with --seed ${seed})\n`);
  const property = fc.asyncProperty(opts.arbitrary, async (value) => {
    if (!shrinking) inputs.add(value);
    log.start();
    let problem: string | null;
    try {
      problem = await predicate(value);
      if (problem !== null) blocked = null;
    } catch (err) {
      // fc.pre(): this value cannot be tried on this target; fast-check skips it.
      if (fc.PreconditionFailure.isFailure(err)) throw err;
      // The last failure decides: a failed prerequisite blocks the test, a real problem fails it.
      blocked = isPrerequisiteFailed(err) ? err : null;
      problem = `the run threw: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (problem !== null) {
      shrinking = true;
      lastProblem = problem;
      log.failed();
      return false;
    }
    return true;
  });
  const details = await fc.check(property, {
    seed,
    numRuns: opts.numRuns,
    ...(opts.examples ? { examples: opts.examples.map((e) => [e] as [T]) } : {}),
  });
  t.observe(INPUTS_LABEL, inputs.result());
  if (details.failed && blocked !== null) throw blocked;
  if (details.failed) {
    const counterexample = details.counterexample?.[0] as T | undefined;
    t.observe('counterexample', counterexample === undefined ? null : opts.show ? opts.show(counterexample) : counterexample);
    t.observe('counterexample requests', log.failingRequests());
    const message = `${opts.rule}: ${lastProblem} (fast-check seed ${seed}, path ${details.counterexamplePath ?? '?'}, ${details.numRuns} run(s), ${details.numShrinks} shrink(s); replay with --seed ${seed})`;
    const blamed = opts.blame?.() ?? null;
    if (blamed && blamed !== t.requirement.id) {
      await t.check(blamed, () => t.expect.unreachable(message));
      return;
    }
    t.expect.unreachable(message);
  }
}
