/** `npm run requirements`: rewrites docs/requirements.md from the catalog and the suites. */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { renderRequirementsDoc } from './requirements-doc.js';
import { scanSuites } from '../run/selection.js';

const root = resolve(import.meta.dirname, '../..');
const path = join(root, 'docs', 'requirements.md');
await writeFile(path, renderRequirementsDoc(await scanSuites(root)));
process.stdout.write(`wrote ${path}\n`);
