/**
 * test/mutation/log-survivors.mjs: a running scope's survivors, read from the mutation
 * log by Stryker's numbering of the scope's mutants.
 */
import { describe, expect, it } from 'vitest';
import { mutantsOfScope, verdictsOfScope } from './log-survivors.mjs';

describe('the survivors of a running scope (log-survivors.mjs)', () => {
  it('reads the verdicts of the last scope of the log, or of the one named', () => {
    const log = ['none', '0', '1', 'none', '1', '0'].map((mutant, i) => JSON.stringify({ mutant, killed: i % 2 === 0 })).join('\n');
    expect([...verdictsOfScope(log)]).toEqual([['1', true], ['0', false]]);
    expect([...verdictsOfScope(log, 1)]).toEqual([['0', false], ['1', true]]);
  });

  it('numbers the mutants of a scope from 0 across its files, as Stryker does', async () => {
    const mutants = await mutantsOfScope(['mock/webhooks/signature.ts', 'mock/webhooks/groups.ts']);
    expect(mutants.map((m) => m.id)).toEqual(mutants.map((_, i) => String(i)));
    expect(mutants.find((m) => m.id === '2')).toMatchObject({ file: 'mock/webhooks/signature.ts', line: 9, mutator: 'StringLiteral', original: "'utf8'" });
  });

  it('numbers the mutants of a line range from 0, those wholly within it, as a run of `--mutate file:START-END` does', async () => {
    const whole = await mutantsOfScope(['mock/oauth/index.ts']);
    const ranged = await mutantsOfScope(['mock/oauth/index.ts:65-69']);
    // Checked against a Stryker run of index.ts:36-43,65-69: the error handler's body (lines 65-78) is not in the range.
    const within = whole.filter((m) => m.line >= 65 && m.line <= 69 && m.mutator !== 'BlockStatement');
    expect(ranged.map((m) => m.id)).toEqual(ranged.map((_, i) => String(i)));
    expect(ranged.map((m) => `${m.line} ${m.mutator} ${m.replacement}`)).toEqual(within.map((m) => `${m.line} ${m.mutator} ${m.replacement}`));
  });
});
