/** The client side of `npm run matrix -- --all`: its plan, its shards and its figures (the gradings themselves: test/client/example-app.test.ts). */
import { describe, expect, it } from 'vitest';
import { CLIENT_FAULTS } from '../../examples/app/client-faults.js';
import { CLIENT_VARIANTS } from '../../examples/app/client-variants.js';
import { clientSliceFaults } from '../client/support/client-slice-faults.js';
import { clientFigures, planClientMatrix, type ClientOutcome } from './client-part.js';
import { partOf } from './shard.js';

describe('the client part of npm run matrix -- --all', () => {
  const entries = planClientMatrix();

  it('plans the conforming example, every named fault and every generated client fault alone', () => {
    expect(entries.filter((e) => e.kind === 'conforming').map((e) => e.name)).toEqual(['conforming']);
    expect(entries.filter((e) => e.kind === 'variant').map((e) => e.name)).toEqual(Object.keys(CLIENT_VARIANTS).map((v) => `variant:${v}`));
    expect(entries.filter((e) => e.kind === 'named').map((e) => e.name).sort()).toEqual(Object.keys(CLIENT_FAULTS).sort());
    expect(entries.filter((e) => e.kind === 'generated').map((e) => e.name)).toEqual(clientSliceFaults().map((f) => f.name));
  });

  it('splits into shards that together hold every entry once', () => {
    const parts = [1, 2, 3, 4].map((index) => partOf(entries, { index, count: 4 }));
    expect(parts.flat().map((e) => e.name).sort()).toEqual(entries.map((e) => e.name).sort());
  });

  it('counts what was caught, missed and judged wrongly', () => {
    const o = (name: string, kind: ClientOutcome['entry']['kind'], ok: boolean): ClientOutcome => ({ entry: { name, kind }, ok, why: '', durationMs: 0 });
    const lines = clientFigures([o('A@d=1', 'generated', true), o('A@d=2', 'generated', false), o('B@d=1', 'generated', true), o('n', 'named', true), o('conforming', 'conforming', false)], 2_000);
    expect(lines).toEqual([
      'client: generated slice faults: 3 over 2 requirements, 2 caught on their own slice, 1 missed',
      'client: named faults: 1, 1 caught; the conforming example: 1 judged wrongly of 1',
      'client: time: 2.0 s wall, 5 gradings',
    ]);
  });
});
