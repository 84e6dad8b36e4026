/**
 * The layout's promises, checked: no import cycles between modules, no module
 * over 400 lines (data excepted), and what is common to any conformance run
 * (the catalog, the run, the reports) does not reach into one kind of target.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['harness', 'mock', 'suites', 'examples', 'test', 'bench'];
/** Files that are data, not logic: allowed past the size limit. */
const DATA_FILES = new Set(['harness/catalog/service.ts', 'harness/catalog/spec-map.ts']);
const MAX_LINES = 400;

function tsFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const files = SOURCE_DIRS.flatMap((d) => tsFiles(join(ROOT, d)));
const rel = (abs: string) => relative(ROOT, abs).split('\\').join('/');

/** Relative imports of a file (static imports and re-exports, type-only included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*'(\.{1,2}\/[^']+)'|(?:^|\n)\s*import\s*'(\.{1,2}\/[^']+)'/g)) {
    const spec = m[1] ?? m[2];
    if (!spec) continue;
    out.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
  }
  return out;
}

const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));

function findCycle(): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next].map(rel);
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const f of files) {
    if (!state.has(f)) {
      const found = visit(f);
      if (found) return found;
    }
  }
  return null;
}

describe('Layout', () => {
  it('has no import cycle between modules', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(findCycle()).toBeNull();
  });

  it(`keeps every module under ${MAX_LINES} lines (data files excepted)`, () => {
    const long = files
      .map((f) => ({ file: rel(f), lines: readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.lines > MAX_LINES && !DATA_FILES.has(x.file));
    expect(long).toEqual([]);
  });

  it('keeps the catalog, the run and the reports independent of any one kind of target', () => {
    const common = files.filter((f) => /^harness\/(catalog|run|report)\//.test(rel(f)));
    const reaching = common.flatMap((f) =>
      (graph.get(f) ?? []).filter((t) => /^(harness\/(service|sandbox)|mock|suites)\//.test(rel(t))).map((t) => `${rel(f)} → ${rel(t)}`),
    );
    expect(reaching).toEqual([]);
  });
});
