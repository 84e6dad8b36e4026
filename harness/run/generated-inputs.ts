/**
 * The generated inputs of a run, as digests: what a replay with the same seed must
 * reproduce (`lockconf replay`, `lockconf compare`). A property test
 * (suites/support/property.ts) draws its values from fast-check seeded with the
 * run's seed; it digests every value it tried up to and including the first
 * counterexample (the values fast-check tries while shrinking depend on the
 * target's answers, so they are left out) and records the digest as the
 * observation `generated inputs`. The result file gathers them:
 * conformance.json `inputs` = { digest, tests, values, perTest }.
 *
 * Digests, never the values: a generated state or lock name is harmless, but
 * the report need not repeat them. Values drawn outside fast-check (webhook
 * tokens, header names) are fresh on every run by design and are not covered.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';

/** The observation label a property test records its digest under. */
export const INPUTS_LABEL = 'generated inputs';

/** One test's generated inputs: the SHA-256 over the values in the order tried, and how many. */
export interface TestInputs {
  sha256: string;
  values: number;
}

/** conformance.json `inputs`: `digest` over every test's, by test name (order-free). */
export interface RunInputs {
  digest: string;
  tests: number;
  values: number;
  perTest: Record<string, TestInputs>;
}

/** One value as text: fast-check's own rendering; a command sequence (fc.commands) as all its commands, whether they ran or not. */
export function inputText(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Symbol.iterator in value) {
    return fc.stringify([...(value as Iterable<unknown>)].map(String));
  }
  return fc.stringify(value);
}

/** Digests values one at a time, in the order they were tried. */
export class InputsDigest {
  readonly #hash = createHash('sha256');
  #values = 0;

  add(value: unknown): void {
    const text = inputText(value);
    this.#hash.update(`${text.length}:${text}\n`);
    this.#values++;
  }

  /** The digest so far; ends the digest (call once). */
  result(): TestInputs {
    return { sha256: this.#hash.digest('hex'), values: this.#values };
  }
}

function isTestInputs(value: unknown): value is TestInputs {
  const v = value as Partial<TestInputs> | null;
  return typeof v === 'object' && v !== null && typeof v.sha256 === 'string' && typeof v.values === 'number';
}

/** The run's `inputs`, from the observations of its tests (a test with two properties: both, in order). */
export function runInputs(tests: ReadonlyArray<{ name: string; meta?: { observations?: ReadonlyArray<{ label: string; value: unknown }> } }>): RunInputs {
  const perTest: Record<string, TestInputs> = {};
  for (const test of tests) {
    for (const o of test.meta?.observations ?? []) {
      if (o.label !== INPUTS_LABEL || !isTestInputs(o.value)) continue;
      const before = perTest[test.name];
      perTest[test.name] = before
        ? { sha256: createHash('sha256').update(`${before.sha256}\n${o.value.sha256}`).digest('hex'), values: before.values + o.value.values }
        : { sha256: o.value.sha256, values: o.value.values };
    }
  }
  const names = Object.keys(perTest).sort();
  const all = createHash('sha256');
  for (const name of names) all.update(`${name}\n${perTest[name]!.sha256}\n`);
  return {
    digest: all.digest('hex'),
    tests: names.length,
    values: names.reduce((n, name) => n + perTest[name]!.values, 0),
    perTest: Object.fromEntries(names.map((n) => [n, perTest[n]!])),
  };
}
