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
});
