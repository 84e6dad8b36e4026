/** `npm run requirements`: rewrites docs/requirements.md from the catalog and the suites, and docs/freedoms.md from the catalog's freedoms. */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { renderRequirementsDoc } from './requirements-doc.js';
import { scanSuites } from '../run/selection.js';
import { renderFreedomsDoc } from './freedoms-doc.js';
import { CATALOG, FREEDOMS } from '../catalog/index.js';

const root = resolve(import.meta.dirname, '../..');
const path = join(root, 'docs', 'requirements.md');
await writeFile(path, renderRequirementsDoc(await scanSuites(root)));
process.stdout.write(`wrote ${path}\n`);
const freedomsPath = join(root, 'docs', 'freedoms.md');
await writeFile(freedomsPath, renderFreedomsDoc(FREEDOMS, CATALOG));
process.stdout.write(`wrote ${freedomsPath}\n`);
