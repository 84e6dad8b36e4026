/** Shared runs of the matrix: which faults may share one, and how a run that spilled over is split. */
import { describe, expect, test } from 'vitest';
import { requirement } from '../../harness/catalog/index.js';
import { planMatrix } from './matrix.js';
import { packRuns, single, splitRun, spillOver, startOrder, suspectedHiders } from './packing.js';

const plan = planMatrix({ scope: 'area' });
const runs = packRuns(plan, { areaOf: (id) => requirement(id).area });

describe('packRuns', () => {
  test('every entry is judged by exactly one run', () => {
    expect(runs.flatMap((r) => r.entries.map((e) => e.name)).sort()).toEqual(plan.map((e) => e.name).sort());
  });

  test('only faults of one area share a scoped run, each with a requirement of its own', () => {
    for (const run of runs.filter((r) => r.entries.length > 1 && r.only)) {
      expect(run.entries.every((e) => e.kind === 'fault')).toBe(true);
      expect(new Set(run.entries.map((e) => requirement(e.requirement!).area)).size).toBe(1);
      expect(new Set(run.entries.map((e) => e.requirement)).size).toBe(run.entries.length);
      expect([...(run.mockOptions.faults ?? [])].sort()).toEqual(run.entries.map((e) => e.name).sort());
    }
    expect(runs.length).toBeLessThan(plan.length);
  });

  test('the plain mock and the variants run alone', () => {
    for (const e of plan.filter((x) => x.kind === 'conforming' || x.kind === 'variant')) {
      expect(runs.find((r) => r.entries.includes(e))!.entries).toHaveLength(1);
    }
  });

  test('the full-run scope checks share full runs with each other only', () => {
    const checks = plan.filter((x) => x.kind === 'scope-check');
    const full = runs.filter((r) => r.entries.some((e) => e.kind === 'scope-check'));
    expect(full.flatMap((r) => r.entries)).toHaveLength(checks.length);
    for (const run of full) {
      expect(run.only, 'every suite').toBeUndefined();
      expect(run.entries.every((e) => e.kind === 'scope-check')).toBe(true);
      expect(new Set(run.entries.map((e) => e.requirement)).size).toBe(run.entries.length);
      expect([...(run.mockOptions.faults ?? [])].sort()).toEqual(run.entries.flatMap((e) => [...(e.mockOptions.faults ?? [])]).sort());
    }
    expect(full.length).toBeLessThan(checks.length);
  });

  test('maxPerRun 1 runs every entry alone', () => {
    expect(packRuns(plan, { maxPerRun: 1 })).toHaveLength(plan.length);
  });

  test('a fault an earlier matrix could not share starts alone, the others pack as before', () => {
    // A run whose scope fills no second bin: taking one fault out moves no other shared fault between runs.
    const binsOf = (run: (typeof runs)[number]) => runs.filter((r) => r.entries.length > 1 && r.only?.join() === run.only?.join()).length;
    const shared = runs.find((r) => r.entries.length > 2 && binsOf(r) === 1)!;
    expect(shared, 'a shared run alone in its scope').toBeDefined();
    const [loner, ...rest] = shared.entries;
    const again = packRuns(plan, { areaOf: (id) => requirement(id).area, alone: new Set([loner!.name]) });
    expect(again.find((r) => r.entries.includes(loner!))!.entries).toEqual([loner]);
    const restRun = again.find((r) => r.entries.includes(rest[0]!))!;
    expect(rest.every((e) => restRun.entries.includes(e))).toBe(true);
    // What joins them ran alone before: it could not share their bin only because of the loner's requirement.
    const joined = restRun.entries.filter((e) => !rest.includes(e));
    for (const e of joined) expect(runs.find((r) => r.entries.includes(e))!.entries).toEqual([e]);
    expect(again).toHaveLength(runs.length + 1 - joined.length);
  });

  test('a fault a neighbour hid before never shares a run with the faults of that run, and shares with the others', () => {
    const shared = runs.find((r) => r.entries.length > 2)!;
    const [hidden, masker, ...rest] = shared.entries;
    const again = packRuns(plan, { areaOf: (id) => requirement(id).area, apart: new Map([[hidden!.name, new Set([masker!.name])]]) });
    const home = again.find((r) => r.entries.includes(hidden!))!;
    expect(home.entries).not.toContain(masker);
    expect(home.entries.length, 'it still shares').toBeGreaterThan(1);
    expect(again.find((r) => r.entries.includes(masker!))!.entries).not.toContain(hidden);
    // Either way round: kept apart from the masker's side too.
    const reverse = packRuns(plan, { areaOf: (id) => requirement(id).area, apart: new Map([[masker!.name, new Set([hidden!.name])]]) });
    expect(reverse.find((r) => r.entries.includes(hidden!))!.entries).not.toContain(masker);
    expect(rest.length).toBeGreaterThan(0);
  });
});

describe('startOrder', () => {
  const ordered = startOrder(runs);
  test('starts every run once', () => {
    expect(ordered.map((r) => r.name).sort()).toEqual(runs.map((r) => r.name).sort());
  });

  test('without earlier durations: shared runs first, then the full runs, then the scoped runs of one fault', () => {
    const rank = (r: (typeof runs)[number]) => (r.entries.length > 1 ? 0 : r.only === undefined ? 1 : 2);
    const ranks = ordered.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(ranks).toContain(0);
    expect(ranks).toContain(1);
    expect(ranks).toContain(2);
    expect(ordered[0]!.name).toBe(runs.find((r) => r.entries.length > 1)!.name);
  });

  test('with earlier durations: the longest first, a shared run as long as its longest member', () => {
    const shared = runs.find((r) => r.entries.length > 1)!;
    const full = runs.find((r) => r.only === undefined && r.entries.length === 1)!;
    const scoped = runs.find((r) => r.only !== undefined && r.entries.length === 1)!;
    const ms = new Map<string, number>([[scoped.entries[0]!.name, 30_000], [full.entries[0]!.name, 20_000], ...shared.entries.map((e, i): [string, number] => [e.name, 1000 + i])]);
    const order = startOrder([shared, full, scoped], (name) => ms.get(name));
    expect(order.map((r) => r.name)).toEqual([scoped.name, full.name, shared.name]);
  });
});

describe('a shared run that spilled over', () => {
  const shared = runs.find((r) => r.entries.length > 2)!;
  const [a, b] = shared.entries;
  test('judges none of its members when it failed a requirement none of them names', () => {
    expect(spillOver(shared, { requirements: [{ id: a!.requirement!, status: 'failed' }] })).toEqual([]);
    expect(spillOver(shared, { requirements: [{ id: 'SOMETHING-ELSE', status: 'warned' }] })).toEqual(['SOMETHING-ELSE']);
  });

  test('runs the suspects alone and the others together again', () => {
    const filesOf = (id: string) => [id === a!.requirement || id === 'SPILLED' ? 'suspect.test.ts' : 'other.test.ts'];
    const parts = splitRun(shared, ['SPILLED'], filesOf);
    expect(parts[0]!.entries).toEqual([a]);
    expect(parts[1]!.entries).toEqual(shared.entries.slice(1));
    expect(parts[1]!.entries).toContain(b);
  });

  test('halves when the suite files point at no member', () => {
    const parts = splitRun(shared, ['SPILLED'], () => ['nowhere.test.ts']);
    expect(parts.flatMap((p) => p.entries)).toEqual(shared.entries);
    expect(parts).toHaveLength(2);
  });
});

describe('the faults that may have hidden a member a shared run did not catch', () => {
  const shared = runs.find((r) => r.entries.length > 3)!;
  const [hidden, blocker, caught, quiet] = shared.entries;
  const isCaught = (e: (typeof shared.entries)[number]) => e === blocker || e === caught;
  test('those whose requirement its test was blocked by', () => {
    const report = { requirements: [{ id: hidden!.requirement!, status: 'blocked', blockedBy: [blocker!.requirement!] }] };
    expect(suspectedHiders(shared, hidden!, report, isCaught)).toEqual([blocker!.name]);
  });
  test('else those the run caught (a fault the suites never saw masked nothing)', () => {
    const report = { requirements: [{ id: hidden!.requirement!, status: 'passed' }] };
    expect(suspectedHiders(shared, hidden!, report, isCaught)).toEqual(shared.entries.filter((e) => e !== hidden && isCaught(e)).map((e) => e.name));
    expect(suspectedHiders(shared, hidden!, report, isCaught)).not.toContain(quiet!.name);
  });
  test('else every other member', () => {
    expect(suspectedHiders(shared, hidden!, null, () => false)).toEqual(shared.entries.slice(1).map((e) => e.name));
  });
});

describe('a run of one entry', () => {
  test('gets a directory of its own even when two names differ only in letter case', () => {
    const entry = (name: string) => ({ name, kind: 'fault', requirement: 'EVENT-USER-ACCESSTYPE-CHANGED', mockOptions: {} }) as unknown as Parameters<typeof single>[0];
    const a = single(entry('EVENT-USER-ACCESSTYPE-CHANGED@field=Timestamp'));
    const b = single(entry('EVENT-USER-ACCESSTYPE-CHANGED@field=timeStamp'));
    expect(a.name).toMatch(/^event-user-accesstype-changed-field-timestamp-[0-9a-f]{8}$/);
    expect(a.name).not.toBe(b.name);
  });
});
