import { describe, expect, it } from 'vitest';
import { DeclarationOrder } from '../../../harness/report/declaration-order.js';

describe('progress lines in declaration order', () => {
  const declared = ['a', 'b', 'c', 'd'];

  it('a test that finishes early waits for those declared before it', () => {
    const order = new DeclarationOrder();
    const shown: string[] = [];
    const finish = (id: string) => order.finished(id, declared, () => shown.push(id));
    finish('c');
    finish('b');
    expect(shown).toEqual([]);
    finish('a');
    expect(shown).toEqual(['a', 'b', 'c']);
    finish('d');
    expect(shown).toEqual(['a', 'b', 'c', 'd']);
  });

  it('tests that finish in order are shown at once (a sequential run prints as before)', () => {
    const order = new DeclarationOrder();
    const shown: string[] = [];
    for (const id of declared) {
      order.finished(id, declared, () => shown.push(id));
      expect(shown.at(-1)).toBe(id);
    }
  });

  it('the end of the file shows what still waits behind a test that never reported', () => {
    const order = new DeclarationOrder();
    const shown: string[] = [];
    order.finished('d', declared, () => shown.push('d'));
    order.finished('b', declared, () => shown.push('b'));
    order.flush(declared);
    expect(shown).toEqual(['b', 'd']);
    order.flush(declared);
    expect(shown).toEqual(['b', 'd']);
  });
});
