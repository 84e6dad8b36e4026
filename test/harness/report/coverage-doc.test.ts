/** The published coverage matrix (docs/coverage.md) matches the spec, the map, the catalog, the suites and the faults. */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../../../harness/catalog/index.js';
import { traceInputs } from '../../../harness/commands/trace-inputs.js';
import { renderCoverageDoc } from '../../../harness/report/coverage-doc.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('docs/coverage.md', () => {
  test('is up to date (run `npm run requirements` after changing the spec map, the catalog, a suite or a fault)', async () => {
    const expected = renderCoverageDoc({ ...(await traceInputs(ROOT)), catalog: CATALOG });
    const actual = await readFile(join(ROOT, 'docs', 'coverage.md'), 'utf8');
    expect(actual === expected, 'docs/coverage.md differs from the matrix: run `npm run requirements`').toBe(true);
  });

  test('shows every statement with its requirements, tests and faults', async () => {
    const inputs = await traceInputs(ROOT);
    const doc = renderCoverageDoc({ ...inputs, catalog: CATALOG });
    for (const s of inputs.statements) expect(doc).toContain(`\`${s.anchor}\``);
    expect(doc).toContain('`REFRESH-SINGLE-USE` MUST');
    expect(doc).toContain('`refresh-reusable`');
    const unmapped = renderCoverageDoc({ ...inputs, map: {}, catalog: CATALOG });
    expect(unmapped).toContain('**unmapped**');
  });
});
