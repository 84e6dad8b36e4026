/** Part of `npm run requirements`: rewrites docs/coverage.md from the spec, the map, the catalog, the suites and the mock's faults. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOG } from '../catalog/index.js';
import { renderCoverageDoc } from '../report/coverage-doc.js';
import { ROOT } from './common.js';
import { traceInputs } from './trace-inputs.js';

const path = join(ROOT, 'docs', 'coverage.md');
await writeFile(path, renderCoverageDoc({ ...(await traceInputs()), catalog: CATALOG }));
process.stdout.write(`wrote ${path}\n`);
