/** The receiver side of `npm run matrix -- --all`: its shards and its figures (the runs themselves: receiver-self-verification.test.ts). */
import { describe, expect, it } from 'vitest';
import { RECEIVER_VARIANTS, planReceiverMatrix, receiverNamedFaults, receiverVariantRuns, type ReceiverOutcome } from '../receiver/receiver-matrix.js';
import { receiverFaultRuns } from '../receiver/receiver-slice-faults.js';
import { RECEIVER_FAULTS } from '../../examples/app/receiver-faults.js';
import { receiverFigures } from './receiver-part.js';
import { partOf } from './shard.js';

describe('the receiver part of npm run matrix -- --all', () => {
  const entries = planReceiverMatrix(receiverFaultRuns('all'), receiverVariantRuns('all'), receiverNamedFaults([], 'all'));

  it('plans every generated receiver fault alone, beside the conforming example, every legal variant and the named faults', () => {
    const generated = entries.filter((e) => e.catches);
    expect(generated.every((e) => e.catches!.length === 1)).toBe(true);
    expect(generated.length).toBeGreaterThan(100);
    expect(entries.filter((e) => e.kind !== 'fault').map((e) => e.name)).toEqual(['conforming', ...RECEIVER_VARIANTS.map((v) => v.name)]);
    expect(RECEIVER_VARIANTS.map((v) => v.name)).toEqual(expect.arrayContaining(['no-custom-header', 'hex-only', 'milliseconds-only', 'one-v-only', 'answers-202-without-body']));
    expect(receiverVariantRuns('').map((v) => v.name), 'npm test samples the variants').toEqual(['no-custom-header', 'hex-only', 'milliseconds-only']);
    expect(entries.filter((e) => e.kind === 'fault' && !e.catches).map((e) => e.name), 'every named fault').toEqual(Object.keys(RECEIVER_FAULTS));
    // npm test: a named fault only where no generated fault of its sample judges the requirement (one fault per requirement).
    const sample = receiverFaultRuns();
    const judged = new Set(sample.flat().map((f) => f.requirement));
    expect(receiverNamedFaults(sample, '')).toEqual(Object.keys(RECEIVER_FAULTS).filter((n) => !judged.has(RECEIVER_FAULTS[n as keyof typeof RECEIVER_FAULTS].requirement)));
  });

  it('splits into shards that together hold every entry once', () => {
    const parts = [1, 2, 3].map((index) => partOf(entries, { index, count: 3 }));
    expect(parts.flat().map((e) => e.name).sort()).toEqual(entries.map((e) => e.name).sort());
    expect(Math.max(...parts.map((p) => p.length)) - Math.min(...parts.map((p) => p.length))).toBeLessThanOrEqual(1);
  });

  it('counts a generated fault caught only when it was caught on its own slice, and a wrong judgement of the conforming example', () => {
    const o = (name: string, ok: boolean): ReceiverOutcome => ({ entry: entries.find((e) => e.name === name)!, ok, exitCode: 1, verdict: null, failed: [], warned: [], notTested: [], why: '', durationMs: 0 });
    const generated = entries.filter((e) => e.catches).slice(0, 2).map((e) => e.name);
    const lines = receiverFigures([o(generated[0]!, true), o(generated[1]!, false), o('conforming', false)], 1_500);
    expect(lines[0]).toMatch(/generated slice faults: 2 over \d requirements?, 1 caught on their own slice, 1 missed/);
    expect(lines[1]).toContain('1 judged wrongly of 1');
    expect(lines[2]).toBe('receiver: time: 1.5 s wall, 3 runs');
  });
});
