/** The published requirement list (docs/requirements.md) matches the catalog and the suites. */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../../../harness/catalog/index.js';
import { renderRequirementsDoc } from '../../../harness/report/requirements-doc.js';
import { scanSuites } from '../../../harness/run/selection.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('docs/requirements.md', () => {
  test('is up to date (run `npm run requirements` after changing the catalog or a suite)', async () => {
    const expected = renderRequirementsDoc(await scanSuites(ROOT));
    const actual = await readFile(join(ROOT, 'docs', 'requirements.md'), 'utf8');
    expect(actual === expected, 'docs/requirements.md differs from the catalog: run `npm run requirements`').toBe(true);
  });

  test('lists every requirement, with a pipe in a rule kept inside its cell', () => {
    const doc = renderRequirementsDoc([], [{ ...CATALOG[0]!, rule: 'a | b' }]);
    expect(doc).toContain(`\`${CATALOG[0]!.id}\``);
    expect(doc).toContain('a \\| b');
    const full = renderRequirementsDoc([]);
    for (const r of CATALOG) expect(full).toContain(`\`${r.id}\``);
  });
});
