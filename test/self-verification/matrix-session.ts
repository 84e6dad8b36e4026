/**
 * One whole self-verification session: plan (matrix.ts), run in lanes, judge,
 * write the report. Shared by the kill matrix of npm test (kill-matrix.test.ts:
 * a deterministic sample, one fault per requirement: sample.ts) and by
 * `npm run matrix` (run-matrix.ts: every catalogued fault and the generated sample;
 * every generated fault with --all, one part of them with --shard i/n).
 */
import { mkdtemp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { partOf } from './shard.js';
import { defaultConcurrency, planMatrix, runMatrix, selectFaults, type MatrixEntry, type MatrixOutcome } from './matrix.js';
import { readEarlier, summarise, writeMatrixReport, type MatrixSummary } from './matrix-report.js';
import { generatedFaults, sampleFaults, selectGenerated, type GeneratedFault } from './slice-faults.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const REPORT = join(ROOT, 'reports', 'self-verification.json');
export const SELECTION_REPORT = join(ROOT, 'reports', 'self-verification-selection.json');
export const HINTS = join(ROOT, 'test', 'self-verification', 'matrix-hints.json');

/** The most OTHER requirements one fault may fail (issue 20): what rests on its rule is blocked, not failed. */
export const MAX_COLLATERAL = 3;

/** The faults (and scope checks) that failed or warned more than MAX_COLLATERAL other requirements, named with them. */
export function cascades(outcomes: readonly MatrixOutcome[], max = MAX_COLLATERAL): string[] {
  return outcomes.filter((o) => o.collateral.length > max).map((o) => `${o.entry.name}: ${o.collateral.join(', ')}`);
}

export interface SessionOptions {
  scope: 'full' | 'area';
  seed: number;
  /** LOCKCONF_MATRIX_FAULTS: a selection of faults (named, generated, areas); null for all. */
  filter: string | null;
  /** Which generated faults run without a filter: every one, one per requirement (slice-faults.ts sampleFaults), or none. */
  slices: 'all' | 'sample' | 'none';
  /** Which catalogued faults run without a filter: every one (default), or one per requirement no generated fault covers (npm test: sample.ts). */
  catalogued?: 'all' | 'sample';
  /** 'touched': each legal variant on the spec areas its option reaches (npm test); 'full' (default): on every suite (matrix.ts VARIANTS). */
  variants?: 'touched' | 'full';
  /** `{ index, count }`: run only this part of the entries (1-based), like vitest --shard. */
  shard?: { index: number; count: number };
  concurrency?: number;
  pack?: boolean;
  /** Where the report goes (default: the whole matrix's, or the selection's). */
  report?: string;
  /**
   * What the packing and the confirmations learn from: the last reports of this working copy
   * (default: `npm run matrix`), or the committed hints alone (npm test: the same packing on
   * every machine, whatever matrix ran here before; a fault a neighbour hides is still run
   * again alone).
   */
  learnFrom?: 'reports' | 'hints';
  onOutcome?: (o: MatrixOutcome) => void;
}

export interface SessionResult {
  summary: MatrixSummary;
  outcomes: MatrixOutcome[];
  /** Every fault the session planned (catalogued and generated). */
  generated: GeneratedFault[];
  wallTimeMs: number;
  /** How many lanes ran side by side. */
  concurrency: number;
  /** Whether the session ran a selection (it reports apart from the whole matrix). */
  selection: boolean;
}

/**
 * The part `index` of `count` (1-based) of the entries: the conforming mock and the
 * variants in the first part, the faults and scope checks cut into `count`
 * contiguous parts in plan order, their sizes differing by one at most
 * (deterministic, as vitest --shard; none is left empty while another has two).
 */
export function shardEntries(entries: readonly MatrixEntry[], index: number, count: number): MatrixEntry[] {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count) {
    throw new Error(`--shard ${index}/${count}: expected i/n with 1 <= i <= n`);
  }
  const clean = entries.filter((e) => e.kind === 'conforming' || e.kind === 'variant');
  const rest = entries.filter((e) => e.kind !== 'conforming' && e.kind !== 'variant');
  return [...(index === 1 ? clean : []), ...partOf(rest, { index, count })];
}

export async function runSession(opts: SessionOptions): Promise<SessionResult> {
  const faults = selectFaults(opts.filter ?? undefined);
  const all = generatedFaults();
  const generated = opts.filter ? selectGenerated(opts.filter, all) : opts.slices === 'all' ? all : opts.slices === 'none' ? [] : sampleFaults(all);
  // A report from before `apart` would start alone for good every fault a neighbour once hid: the hints instead.
  const fromHints = opts.learnFrom === 'hints';
  const fromReport = !fromHints && existsSync(REPORT) ? await readEarlier(REPORT) : null;
  const earlier = fromReport && !fromReport.beforeApart ? fromReport : await readEarlier(HINTS);
  const alone = earlier.alone;
  // The collateral earlier matrices judged, the whole matrix's, the hints' and the last selection's: what rests on time beyond it is confirmed (confirm.ts).
  const knownCollateral = new Map<string, Set<string>>();
  for (const source of fromHints ? [earlier] : [earlier, await readEarlier(HINTS), await readEarlier(SELECTION_REPORT)]) {
    for (const [name, ids] of source.collateral) knownCollateral.set(name, new Set([...(knownCollateral.get(name) ?? []), ...ids]));
  }
  let entries = planMatrix({ scope: opts.scope, alone, generated, variants: opts.variants ?? 'full', ...(faults ? { faults } : { catalogued: opts.catalogued ?? 'all' }) });
  if (opts.shard) entries = shardEntries(entries, opts.shard.index, opts.shard.count);
  const outDir = await mkdtemp(join(tmpdir(), 'lockconf-matrix-'));
  const concurrency = opts.concurrency ?? defaultConcurrency();
  const pack = opts.pack ?? true;
  let runs = 0;
  let cpuTimeMs: number | null = 0;
  const started = Date.now();
  const outcomes = await runMatrix(entries, {
    outDir,
    seed: opts.seed,
    concurrency,
    pack,
    alone,
    apart: earlier.apart,
    earlierMs: earlier.durationMs,
    knownCollateral,
    onRun: (r) => {
      runs++;
      cpuTimeMs = r.cpuMs === null || cpuTimeMs === null ? null : cpuTimeMs + r.cpuMs;
    },
    ...(opts.onOutcome ? { onOutcome: opts.onOutcome } : {}),
  });
  const wallTimeMs = Date.now() - started;
  const filter = opts.filter ?? (opts.shard ? `--shard ${opts.shard.index}/${opts.shard.count}` : null);
  const summary = summarise(outcomes, { seed: opts.seed, scope: opts.scope, wallTimeMs, runs, concurrency, packed: pack, cpuTimeMs, filter, startedAlone: alone, keptApart: earlier.apart });
  const selection = !!faults || !!opts.shard;
  await writeMatrixReport(summary, opts.report ?? (selection ? SELECTION_REPORT : REPORT));
  return { summary, outcomes, generated, wallTimeMs, concurrency, selection };
}

/** The figures of the generated faults in a session's outcomes. */
export function generatedFigures(outcomes: readonly MatrixOutcome[]): { faults: number; caught: number; missed: string[]; requirements: number } {
  const gen = outcomes.filter((o) => o.entry.kind === 'fault' && o.entry.name.includes('@'));
  return {
    faults: gen.length,
    caught: gen.filter((o) => o.ok).length,
    missed: gen.filter((o) => !o.ok).map((o) => `${o.entry.name}: ${o.why}`),
    requirements: new Set(gen.map((o) => o.entry.requirement)).size,
  };
}
