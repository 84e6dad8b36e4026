/**
 * The generated inputs of a run as digests (harness/run/generated-inputs.ts): what a
 * replay with the same seed must reproduce.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INPUTS_LABEL, InputsDigest, inputText, runInputs } from '../../../harness/run/generated-inputs.js';

function digestOf(values: unknown[]) {
  const d = new InputsDigest();
  for (const v of values) d.add(v);
  return d.result();
}

const drawn = (seed: number) => fc.sample(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }), { seed, numRuns: 10 });

describe('Digest of one test\'s inputs', () => {
  it('the same seed draws the same values: the same digest; another seed another', () => {
    expect(digestOf(drawn(7))).toEqual(digestOf(drawn(7)));
    expect(digestOf(drawn(8)).sha256).not.toBe(digestOf(drawn(7)).sha256);
    expect(digestOf(drawn(7)).values).toBe(10);
  });

  it('order and boundaries count: ["ab", "c"] is not ["a", "bc"]', () => {
    expect(digestOf(['ab', 'c']).sha256).not.toBe(digestOf(['a', 'bc']).sha256);
    expect(digestOf(['a', 'b']).sha256).not.toBe(digestOf(['b', 'a']).sha256);
  });

  it('a command sequence (fc.commands) is every command in it, whether it ran or not', () => {
    class Step { constructor(readonly n: number) {} toString() { return `Step(${this.n})`; } }
    const sequence = { *[Symbol.iterator]() { yield new Step(1); yield new Step(2); }, toString: () => '' };
    expect(inputText(sequence)).toBe('["Step(1)","Step(2)"]');
    expect(inputText('x')).toBe('"x"');
  });
});

describe('The run\'s inputs (conformance.json inputs)', () => {
  const test = (name: string, ...values: Array<{ sha256: string; values: number }>) => ({ name, meta: { observations: values.map((value) => ({ label: INPUTS_LABEL, value })) } });

  it('gathers each test\'s digest; the run digest does not depend on the order tests finished in', () => {
    const a = runInputs([test('P: one', { sha256: 'x', values: 2 }), test('Q: two', { sha256: 'y', values: 3 }), { name: 'R: none' }]);
    const b = runInputs([test('Q: two', { sha256: 'y', values: 3 }), test('P: one', { sha256: 'x', values: 2 })]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ tests: 2, values: 5, perTest: { 'P: one': { sha256: 'x', values: 2 }, 'Q: two': { sha256: 'y', values: 3 } } });
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a test with two properties: both, in order', () => {
    const one = runInputs([test('P: one', { sha256: 'x', values: 2 }, { sha256: 'y', values: 1 })]);
    expect(one.perTest['P: one']!.values).toBe(3);
    expect(one.perTest['P: one']!.sha256).not.toBe(runInputs([test('P: one', { sha256: 'y', values: 1 }, { sha256: 'x', values: 2 })]).perTest['P: one']!.sha256);
  });

  it('no property test ran: an empty record, still present', () => {
    expect(runInputs([])).toMatchObject({ tests: 0, values: 0, perTest: {} });
  });
});
