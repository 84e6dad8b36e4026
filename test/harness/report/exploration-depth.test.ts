/** How deep a run explored: read from its exploration tests' observation, shown by verify and compare, asked for with --explore. */
import { describe, expect, test } from 'vitest';
import { describeDepth, explorationDepth } from '../../../harness/report/exploration-depth.js';
import { exploreOption } from '../../../harness/commands/common.js';
import { explorationLine } from '../../../harness/compare/render-terminal.js';
import type { Comparison } from '../../../harness/compare/diff.js';

const observed = {
  seed: 42, replay: '--seed 42', budget: { sequences: 20, commands: 60, hookSequences: 3, hookCommands: 40, timeMs: 120_000 },
  sequences: 23, commands: 533, hookSequences: 3, hookCommands: 69, shrinks: 0, interrupted: false,
};

describe('Exploration depth', () => {
  test('read from the first requirement that observed it; null when none did', () => {
    const depth = explorationDepth([{ observations: [{ label: 'other', value: 1 }] }, { observations: [{ label: 'exploration', value: observed }] }]);
    expect(depth).toEqual({ seed: 42, sequences: 23, commands: 533, hookSequences: 3, hookCommands: 69, budget: observed.budget, interrupted: false });
    expect(explorationDepth([{ observations: [] }, {}])).toBeNull();
  });

  test('said in one line, the webhook sequences and the time bound included', () => {
    const depth = explorationDepth([{ observations: [{ label: 'exploration', value: { ...observed, interrupted: true } }] }]);
    expect(describeDepth(depth)).toBe('23 sequences, 533 commands (3 of them webhook sequences, 69 commands), seed 42; the time bound (120 s) ended it');
    expect(describeDepth(null)).toBe('not recorded (no exploration ran)');
  });

  test('compare says whether both runs explored the same', () => {
    const d = explorationDepth([{ observations: [{ label: 'exploration', value: observed }] }]);
    expect(explorationLine({ exploration: { a: d, b: d } } as Comparison)).toMatch(/^exploration: the same in both \(23 sequences/);
    expect(explorationLine({ exploration: { a: null, b: d } } as Comparison)).toMatch(/^exploration: A not recorded .*; B 23 sequences/);
  });

  test('--explore takes a number of sequences or a duration, nothing else', () => {
    expect(exploreOption('200')).toBe('200');
    expect(exploreOption('2m')).toBe('2m');
    expect(exploreOption('45s')).toBe('45s');
    for (const bad of ['0', '-1', 'lots', '2h', '']) expect(() => exploreOption(bad)).toThrow(/--explore must be/);
  });
});
