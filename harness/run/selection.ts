/**
 * Which requirements a run covers (--only) and what would run (--list).
 *
 * --only takes requirement IDs or globs (WEBHOOK-*, EVENT-?SER-*); they are
 * expanded against the catalog here, so vitest gets a filter of exact IDs and a
 * typo stops the run before it starts instead of silently running nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { CATALOG, type Requirement } from '../catalog/index.js';
import { didYouMean } from './did-you-mean.js';

export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * The requirement IDs the patterns select, in catalog order. Patterns may be
 * separated by commas or spaces. Throws SelectionError for a pattern that
 * matches nothing.
 */
export function expandSelection(patterns: readonly string[], catalog: readonly Requirement[] = CATALOG): string[] {
  const parts = patterns.flatMap((p) => p.split(/[\s,]+/)).filter(Boolean);
  if (parts.length === 0) throw new SelectionError('--only needs at least one requirement ID or glob');
  const chosen = new Set<string>();
  for (const part of parts) {
    const re = globToRegExp(part);
    const hits = catalog.filter((r) => re.test(r.id));
    if (hits.length === 0) throw new SelectionError(`--only ${part}: no requirement matches${suggestion(part, catalog)} (see --list)`);
    for (const h of hits) chosen.add(h.id);
  }
  return catalog.filter((r) => chosen.has(r.id)).map((r) => r.id);
}

/** ": did you mean …?" for a pattern that matched nothing: the closest IDs, or for a glob the closest area (WEBHOOK-*). */
function suggestion(part: string, catalog: readonly Requirement[]): string {
  const ids = catalog.map((r) => r.id);
  if (!/[*?]/.test(part)) return didYouMean(part.toUpperCase(), ids);
  const areas = [...new Set(ids.map((id) => `${id.split('-')[0]}-*`))];
  return didYouMean(part.toUpperCase(), [...areas, ...ids]);
}

/**
 * A vitest testNamePattern that matches tests named "<ID>: <title>" for the
 * given IDs. Vitest matches the full name (describe titles first), so the ID
 * is anchored on a separator rather than the start of the string.
 */
export function testNamePattern(ids: readonly string[]): string {
  const alternatives = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|');
  return `(?:^|[^A-Za-z0-9-])(?:${alternatives}):`;
}

export interface DeclaredTest {
  id: string;
  title: string;
  /** The module that declares it: path relative to the project root. */
  file: string;
  /**
   * The vitest file that runs it: `file` itself, or for a suite module (`*.suite.ts`)
   * the test file that imports it (suites/leased.test.ts runs the leased suites as one).
   */
  runFile: string;
}

// conformance('ID', 'title', …) with any quote style; the title may span escaped quotes.
const DECLARATION = /\bconformance\s*\(\s*(['"`])([A-Z0-9-]+)\1\s*,\s*(['"`])((?:\\.|(?!\3)[^\\])*)\3/g;

/** Tests declared in one suite source, found statically (nothing is imported or run). */
export function scanSource(source: string, file: string, runFile = file): DeclaredTest[] {
  const out: DeclaredTest[] = [];
  for (const m of source.matchAll(DECLARATION)) {
    out.push({ id: m[2]!, title: m[4]!.replace(/\\(.)/g, '$1'), file, runFile });
  }
  return out;
}

// import './webhooks/delivery.suite.js' (a side-effect import of a suite module).
const SUITE_IMPORT = /^\s*import\s*(['"])(\.{1,2}\/[^'"]+)\.suite\.js\1/gm;

/** The suite modules a test file imports (absolute paths, `.ts`). */
export function suiteImports(source: string, testFile: string): string[] {
  return [...source.matchAll(SUITE_IMPORT)].map((m) => join(dirname(testFile), `${m[2]!}.suite.ts`));
}

async function walk(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await walk(full)));
    else if (e.isFile() && (e.name.endsWith('.test.ts') || e.name.endsWith('.suite.ts'))) files.push(full);
  }
  return files.sort();
}

/**
 * Every conformance test declared under suites/ (static scan), in test files and in
 * the suite modules a test file imports. A suite module no test file imports runs
 * nowhere, so its tests are left out.
 */
export async function scanSuites(root: string): Promise<DeclaredTest[]> {
  const files = await walk(join(root, 'suites'));
  const sources = new Map<string, string>();
  for (const f of files) sources.set(f, await readFile(f, 'utf8'));
  const runner = new Map<string, string>(); // suite module → the test file importing it
  for (const [f, source] of sources) {
    if (f.endsWith('.test.ts')) for (const m of suiteImports(source, f)) runner.set(m, f);
  }
  const out: DeclaredTest[] = [];
  for (const [f, source] of sources) {
    const runFile = f.endsWith('.suite.ts') ? runner.get(f) : f;
    if (runFile) out.push(...scanSource(source, relative(root, f), relative(root, runFile)));
  }
  return out;
}

/** The text `--list` prints: the catalog, then the tests that would run. */
export function formatList(opts: {
  catalog?: readonly Requirement[];
  tests: readonly DeclaredTest[];
  selected?: ReadonlySet<string> | null;
}): string {
  const catalog = opts.catalog ?? CATALOG;
  const selected = opts.selected ?? null;
  const testsById = new Map<string, DeclaredTest[]>();
  for (const t of opts.tests) testsById.set(t.id, [...(testsById.get(t.id) ?? []), t]);
  const idWidth = Math.max(...catalog.map((r) => r.id.length));
  const lines: string[] = ['Requirements (ID, level, section, tests):'];
  for (const r of catalog) {
    const mark = selected && !selected.has(r.id) ? ' ' : '*';
    const n = testsById.get(r.id)?.length ?? 0;
    const note = r.untestable ? 'untestable' : n === 0 ? 'no test' : `${n} test${n === 1 ? '' : 's'}`;
    lines.push(`${mark} ${r.id.padEnd(idWidth)}  ${r.level.padEnd(6)}  ${r.section}  (${note})`);
  }
  const running = opts.tests.filter((t) => !selected || selected.has(t.id));
  lines.push('', `Tests that would run (${running.length} of ${opts.tests.length}):`);
  for (const t of running) lines.push(`  ${t.file}  ${t.id}: ${t.title}`);
  return lines.join('\n');
}
