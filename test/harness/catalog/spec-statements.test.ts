import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPEC_PATH, parseSpec, slug, specStatements } from '../../../harness/catalog/spec-statements.js';

describe('the spec, split into statements', () => {
  it('gives every statement a unique anchor', () => {
    const anchors = specStatements().map((s) => s.anchor);
    expect(anchors.length).toBeGreaterThan(100);
    expect(anchors.filter((a, i) => anchors.indexOf(a) !== i)).toEqual([]);
  });

  it('reads table rows, items and paragraphs, numbered within their section', () => {
    const md = '# T\n\nIntro line one\nline two.\n\n## A (aside)\n\n| H | I |\n|---|---|\n| a | b |\n| c | d |\n\n1. first\n2. second\n\nA closing note.\n';
    expect(parseSpec(md).map((s) => [s.anchor, s.kind, s.text])).toEqual([
      ['t/para-1', 'para', 'Intro line one line two.'],
      ['a/row-1', 'row', 'a | b'],
      ['a/row-2', 'row', 'c | d'],
      ['a/item-1', 'item', 'first'],
      ['a/item-2', 'item', 'second'],
      ['a/para-1', 'para', 'A closing note.'],
    ]);
    expect(slug('Lock events (body includes LockID and EventType)')).toBe('lock-events');
  });

  it('is the spec the project follows (the vendored copy matches the shared one where that is present)', () => {
    const shared = resolve(import.meta.dirname, '../../../../shared/spec/lock-access-service.md');
    const vendored = readFileSync(SPEC_PATH, 'utf8');
    expect(vendored).toContain('# Lock Access Service');
    if (existsSync(shared)) expect(vendored).toBe(readFileSync(shared, 'utf8'));
  });
});
