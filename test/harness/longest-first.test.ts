/**
 * npm test's order (vitest.config.ts LONGEST_FIRST): the files it starts first exist,
 * each once, so a renamed or removed file cannot silently drop out of the front.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LONGEST_FIRST } from '../../vitest.config.js';
import { ROOT } from '../support/cli.js';

describe('the longest unit files start first', () => {
  test('every file the list names exists, once, and is a unit test file', () => {
    expect(LONGEST_FIRST.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
    for (const file of LONGEST_FIRST) expect(file).toMatch(/^test\/.+\.test\.ts$/);
    expect(LONGEST_FIRST[0]).toBe('test/self-verification/kill-matrix.test.ts');
  });
});
