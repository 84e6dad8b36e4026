/**
 * Every requirement of the catalog is tested by some suite, or says why it cannot
 * be; and every requirement a suite names exists in the catalog. Static: it reads
 * the suite sources, so it runs in `npm test` without a target.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CATALOG, isRequirementId } from '../../../harness/catalog/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const SUITES = join(ROOT, 'suites');

/** conformance('ID', …) declares a test; check('ID', …) checks another requirement inside one. */
const USE = /\b(conformance|check)\(\s*(['"`])([A-Z][A-Z0-9-]*)\2/g;

async function suiteFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await suiteFiles(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

interface Use {
  id: string;
  how: 'conformance' | 'check';
  where: string;
}

async function scan(): Promise<Use[]> {
  const uses: Use[] = [];
  for (const file of await suiteFiles(SUITES)) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(USE)) {
      const line = text.slice(0, m.index).split('\n').length;
      uses.push({ id: m[3]!, how: m[1] as Use['how'], where: `${relative(ROOT, file)}:${line}` });
    }
  }
  return uses;
}

describe('catalog coverage', () => {
  test('every catalog requirement has a test or a written reason why it cannot have one', async () => {
    const used = new Set((await scan()).map((u) => u.id));
    const uncovered = CATALOG.filter((r) => !used.has(r.id) && !r.untestable?.trim()).map((r) => `${r.id} (${r.level}, ${r.section})`);
    expect(uncovered, 'catalog requirements with no test in suites/ and no `untestable` reason').toEqual([]);
  });

  test('every requirement a suite names is in the catalog', async () => {
    const unknown = (await scan()).filter((u) => !isRequirementId(u.id)).map((u) => `${u.id} in ${u.how}() at ${u.where}`);
    expect(unknown, 'requirement IDs used in suites/ that harness/catalog/index.ts does not define').toEqual([]);
  });

  test('the scan sees the suites (a broken pattern must not pass vacuously)', async () => {
    const declared = (await scan()).filter((u) => u.how === 'conformance');
    expect(declared.length, 'conformance() declarations found under suites/').toBeGreaterThan(0);
  });

  test('a requirement marked untestable is not also tested (the reason would be stale)', async () => {
    const used = new Set((await scan()).map((u) => u.id));
    const stale = CATALOG.filter((r) => r.untestable && used.has(r.id)).map((r) => r.id);
    expect(stale, 'requirements with an `untestable` reason that a suite does test').toEqual([]);
  });
});
