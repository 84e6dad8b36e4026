/** Writes the self-verification matrix as reports/self-verification.json and a small HTML page beside it. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import escapeHtml from 'escape-html';
import { NOT_CAUGHT_IN, type MatrixOutcome } from './matrix.js';
import type { Confirmation } from './matrix-types.js';
import { describeConfirmation } from './confirm.js';

export interface MatrixSummary {
  generatedAt: string;
  seed: number;
  scope: 'full' | 'area';
  wallTimeMs: number;
  faults: number;
  faultsCaught: number;
  killRate: number;
  falseFailures: number;
  variants: number;
  /** The plain mock was judged here (npm test's sample leaves it to full-run.test.ts). */
  plainMock: boolean;
  /** Faults run again with every suite, one per spec area; each must be judged as in its scoped run. */
  scopeChecks: number;
  scopeChecksAgreeing: number;
  /** Child conformance runs started (shared runs and reruns included), how many at a time, and whether faults shared runs. */
  runs: number;
  concurrency: number;
  packed: boolean;
  /** CPU time the lanes spent on the runs (their processes, worker threads included), when known. */
  cpuTimeMs: number | null;
  /** LOCKCONF_MATRIX_FAULTS when the matrix ran a selection of the faults, else null. */
  filter: string | null;
  /**
   * Faults a matrix could not judge in a shared run because they spilled over (or, in a
   * report from before `apart`, a neighbour hid them), this one or an earlier one: the
   * next matrix starts them alone (packing.ts).
   */
  alone: string[];
  /**
   * Fault → the faults of a shared run that hid it (it was caught alone), this matrix's
   * and the earlier ones': the next matrix keeps it out of their runs (packing.ts).
   */
  apart: Record<string, string[]>;
  /**
   * Per fault (and full-run scope check), the OTHER requirements its run failed or warned:
   * the most, the mean, how many faults have any, and the fault with the most. A
   * single-rule fault should fail its own requirement and block, not fail, what rests on it.
   */
  collateral: { max: number; mean: number; faultsWithAny: number; worst: string | null };
  /** Judgements that rested on time and were confirmed by a run at full strictness, and how many of those it overturned (confirm.ts). */
  confirmations: { confirmed: number; overturned: number };
  rows: Array<{
    name: string;
    kind: string;
    description: string;
    expectedRequirement: string | null;
    verdict: string | null;
    failed: string[];
    warned: string[];
    /** Other requirements failed or warned (faults only). */
    collateral: string[];
    /** How many requirements the run reported blocked. */
    blocked: number;
    ok: boolean;
    why: string;
    durationMs: number;
    /** CPU time of the run that judged the entry, when known. */
    cpuMs: number | null;
    /** The run that judged the entry, the faults it shared that run with, why it ran alone after a shared run. */
    run: string;
    sharedWith: string[];
    rerunAlone: string | null;
    /** Set when the first run's judgement rested on time and a run at full strictness judged the entry (confirm.ts). */
    confirmed?: Confirmation;
  }>;
}

export function summarise(
  outcomes: MatrixOutcome[],
  meta: {
    seed: number;
    scope: 'full' | 'area';
    wallTimeMs: number;
    runs?: number;
    concurrency?: number;
    packed?: boolean;
    cpuTimeMs?: number | null;
    filter?: string | null;
    /** The faults this matrix started alone because an earlier one could not share them. */
    startedAlone?: Iterable<string>;
    /** What an earlier matrix kept apart (EarlierMatrix.apart). */
    keptApart?: ReadonlyMap<string, ReadonlySet<string>>;
  },
): MatrixSummary {
  const faults = outcomes.filter((o) => o.entry.kind === 'fault');
  const conforming = outcomes.filter((o) => o.entry.kind === 'conforming' || o.entry.kind === 'variant');
  const scopeChecks = outcomes.filter((o) => o.entry.kind === 'scope-check');
  const caught = faults.filter((o) => o.ok).length;
  const judged = outcomes.filter((o) => o.entry.kind === 'fault' || o.entry.kind === 'scope-check');
  const sizes = judged.map((o) => (o.collateral ?? []).length);
  const max = sizes.length ? Math.max(...sizes) : 0;
  return {
    generatedAt: new Date().toISOString(),
    seed: meta.seed,
    scope: meta.scope,
    wallTimeMs: meta.wallTimeMs,
    faults: faults.length,
    faultsCaught: caught,
    killRate: faults.length ? caught / faults.length : 1,
    falseFailures: conforming.reduce((n, o) => n + o.failed.length + o.warned.length, 0),
    variants: conforming.filter((o) => o.entry.kind === 'variant').length,
    plainMock: conforming.some((o) => o.entry.kind === 'conforming'),
    scopeChecks: scopeChecks.length,
    scopeChecksAgreeing: scopeChecks.filter((o) => o.ok).length,
    runs: meta.runs ?? outcomes.length,
    concurrency: meta.concurrency ?? 1,
    packed: meta.packed ?? false,
    cpuTimeMs: meta.cpuTimeMs ?? null,
    filter: meta.filter ?? null,
    alone: learnedAlone(outcomes, meta.startedAlone ?? []),
    apart: learnedApart(outcomes, meta.keptApart),
    collateral: {
      max,
      mean: sizes.length ? Math.round((sizes.reduce((a, b) => a + b, 0) / sizes.length) * 100) / 100 : 0,
      faultsWithAny: sizes.filter((n) => n > 0).length,
      worst: max > 0 ? judged[sizes.indexOf(max)]!.entry.name : null,
    },
    confirmations: { confirmed: outcomes.filter((o) => o.confirmed).length, overturned: outcomes.filter((o) => o.confirmed?.overturned).length },
    rows: outcomes.map((o) => ({
      name: o.entry.name,
      kind: o.entry.kind,
      description: o.entry.description,
      expectedRequirement: o.entry.requirement ?? null,
      verdict: o.verdict,
      failed: o.failed,
      warned: o.warned,
      collateral: o.collateral ?? [],
      blocked: (o.blocked ?? []).length,
      ok: o.ok,
      why: o.why,
      durationMs: o.durationMs,
      cpuMs: o.cpuMs ?? null,
      run: o.run,
      sharedWith: o.sharedWith,
      rerunAlone: o.rerunAlone ?? null,
      ...(o.confirmed ? { confirmed: o.confirmed } : {}),
    })),
  };
}

/** Did the entry's own run (after a shared one) fail or warn another requirement too? */
const spillsAlone = (o: MatrixOutcome) => [...o.failed, ...o.warned].some((id) => id !== o.entry.requirement);

/**
 * The entries the next matrix starts alone: those started alone this time, and those a
 * shared run could not judge whose run of their own failed or warned another
 * requirement too (they spill over). A suspect of a spill-over whose own run was clean
 * was not the cause: it shares again. One a neighbour hid (the shared run did not catch
 * it, its own run did) is kept apart from that run's faults instead (learnedApart).
 */
export function learnedAlone(outcomes: readonly MatrixOutcome[], startedAlone: Iterable<string>): string[] {
  const names = new Set(startedAlone);
  for (const o of outcomes) {
    if (!o.rerunAlone || o.sharedWith.length > 0) continue;
    const hidden = o.rerunAlone.startsWith(NOT_CAUGHT_IN);
    if (spillsAlone(o) || (hidden && !o.ok)) names.add(o.entry.name);
  }
  return [...names].sort();
}

/**
 * Fault → the faults it must not share a run with: the earlier matrices' (`earlier`) and,
 * for each fault a shared run hid this time (caught in its own run, nothing else failed
 * there), the other faults of that run.
 */
export function learnedApart(outcomes: readonly MatrixOutcome[], earlier: ReadonlyMap<string, ReadonlySet<string>> = new Map()): Record<string, string[]> {
  const apart = new Map([...earlier].map(([name, others]) => [name, new Set(others)]));
  for (const o of outcomes) {
    if (!o.hiddenBy?.length || !o.ok || spillsAlone(o)) continue;
    const others = apart.get(o.entry.name) ?? new Set<string>();
    for (const name of o.hiddenBy) others.add(name);
    apart.set(o.entry.name, others);
  }
  return Object.fromEntries([...apart].sort(([a], [b]) => a.localeCompare(b)).map(([name, others]) => [name, [...others].sort()]));
}

/** What an earlier matrix report tells the next one: the faults to start alone, how long each entry's run took. */
export interface EarlierMatrix {
  alone: Set<string>;
  /** Fault → the faults it must not share a run with (MatrixSummary.apart). */
  apart: Map<string, Set<string>>;
  durationMs: Map<string, number>;
  /** Entry → the collateral the earlier matrix judged for it (confirm.ts: only other collateral resting on time is confirmed). */
  collateral: Map<string, Set<string>>;
  /** A report from before `apart`: its `alone` also holds the faults a neighbour hid (start from the hints instead). */
  beforeApart: boolean;
}

/** The earlier matrix report at `jsonPath` (nothing learned when there is none or it cannot be read). */
export async function readEarlier(jsonPath: string): Promise<EarlierMatrix> {
  const earlier: EarlierMatrix = { alone: new Set(), apart: new Map(), durationMs: new Map(), collateral: new Map(), beforeApart: false };
  try {
    const previous = JSON.parse(await readFile(jsonPath, 'utf8')) as Partial<MatrixSummary>;
    earlier.beforeApart = Array.isArray(previous.alone) && previous.apart === undefined;
    for (const name of Array.isArray(previous.alone) ? previous.alone : []) if (typeof name === 'string') earlier.alone.add(name);
    const apart = previous.apart && typeof previous.apart === 'object' && !Array.isArray(previous.apart) ? previous.apart : {};
    for (const [name, others] of Object.entries(apart)) {
      if (Array.isArray(others)) earlier.apart.set(name, new Set(others.filter((o): o is string => typeof o === 'string')));
    }
    for (const row of Array.isArray(previous.rows) ? previous.rows : []) {
      if (typeof row?.name === 'string' && typeof row.durationMs === 'number') earlier.durationMs.set(row.name, row.durationMs);
      if (typeof row?.name === 'string' && Array.isArray(row.collateral) && row.collateral.length > 0) {
        earlier.collateral.set(row.name, new Set(row.collateral.filter((id): id is string => typeof id === 'string')));
      }
    }
  } catch {
    /* no earlier matrix: nothing learned */
  }
  return earlier;
}

export function formatTable(summary: MatrixSummary): string {
  const lines = [
    `self-verification: ${summary.faultsCaught}/${summary.faults} faults caught (kill rate ${(summary.killRate * 100).toFixed(1)}%), ` +
      `${summary.falseFailures} false failures on ${summary.variants + (summary.plainMock ? 1 : 0)} conforming implementations, ` +
      `${summary.scopeChecksAgreeing}/${summary.scopeChecks} full-run scope checks agree, ` +
      `collateral failures per fault: max ${summary.collateral.max}${summary.collateral.worst ? ` (${summary.collateral.worst})` : ''}, mean ${summary.collateral.mean}, ${summary.collateral.faultsWithAny} fault(s) with any, ` +
      `${(summary.wallTimeMs / 1000).toFixed(1)} s wall time${summary.cpuTimeMs !== null ? ` (${(summary.cpuTimeMs / 1000).toFixed(0)} s of CPU)` : ''} for ${summary.rows.length} entries in ${summary.runs} runs ` +
      `(${summary.concurrency} at a time${summary.packed ? ', faults sharing runs' : ''}), seed ${summary.seed}, scope ${summary.scope}` +
      (summary.confirmations?.confirmed ? `, ${summary.confirmations.confirmed} judgement(s) resting on time confirmed at full strictness (${summary.confirmations.overturned} overturned)` : '') +
      (summary.filter ? `, faults selected by LOCKCONF_MATRIX_FAULTS=${summary.filter}` : ''),
    '',
    `${'entry'.padEnd(30)} ${'expected'.padEnd(30)} ${'verdict'.padEnd(15)} result`,
  ];
  for (const row of summary.rows) {
    lines.push(
      `${row.name.padEnd(30)} ${(row.expectedRequirement ?? 'nothing failed').padEnd(30)} ${String(row.verdict).padEnd(15)} ${row.ok ? 'ok' : 'MISSED'}: ${row.why}` +
        (row.sharedWith.length ? ` [${row.run}]` : '') + (row.rerunAlone ? ' [ran alone after a shared run]' : '') +
        (row.blocked ? ` [${row.blocked} blocked]` : '') + describeConfirmation(row.confirmed),
    );
    if (row.collateral.length) lines.push(`${''.padEnd(30)} collateral: ${row.collateral.join(', ')}`);
  }
  return lines.join('\n');
}

export function renderHtml(summary: MatrixSummary): string {
  const rows = summary.rows
    .map((r) => `<tr class="${r.ok ? 'ok' : 'bad'}"><td>${escapeHtml(r.name)}</td><td>${escapeHtml(r.kind)}</td>` +
      `<td>${escapeHtml(r.description)}</td><td><code>${escapeHtml(r.expectedRequirement ?? 'nothing failed')}</code></td>` +
      `<td>${escapeHtml(String(r.verdict))}</td><td>${r.failed.map((id) => `<code>${escapeHtml(id)}</code>`).join(' ')}` +
      `${r.warned.map((id) => ` <code class="warn">${escapeHtml(id)}</code>`).join('')}</td>` +
      `<td>${r.collateral.map((id) => `<code>${escapeHtml(id)}</code>`).join(' ')}</td><td>${r.blocked || ''}</td>` +
      `<td>${r.ok ? '✔' : '✘'} ${escapeHtml(r.why + describeConfirmation(r.confirmed))}</td><td>${(r.durationMs / 1000).toFixed(1)} s</td>` +
      `<td>${escapeHtml(r.sharedWith.length ? `${r.run} (with ${r.sharedWith.join(', ')})` : r.rerunAlone ? `alone: ${r.rerunAlone}` : 'alone')}</td></tr>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lockconf self-verification</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1d2430}h1{font-size:1.6rem}
.big{font-size:2.2rem;font-weight:700}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde;padding:.35rem .5rem;text-align:left;vertical-align:top}
tr.bad{background:#fde8e8}tr.ok td:nth-child(9){color:#17692e}code{font-size:12px;background:#f2f4f8;padding:0 .2rem}code.warn{background:#fff3cd}</style></head>
<body><h1>lockconf self-verification</h1>
<p class="big">${summary.faultsCaught}/${summary.faults} faults caught · ${summary.falseFailures} false failures</p>
<p>Kill rate ${(summary.killRate * 100).toFixed(1)}% · collateral failures per fault: max ${summary.collateral.max}${summary.collateral.worst ? ` (${escapeHtml(summary.collateral.worst)})` : ''}, mean ${summary.collateral.mean}, ${summary.collateral.faultsWithAny} fault(s) with any · ${summary.variants} legal variants plus the plain mock · ${summary.scopeChecksAgreeing}/${summary.scopeChecks} full-run scope checks agree · wall time ${(summary.wallTimeMs / 1000).toFixed(1)} s${summary.cpuTimeMs !== null ? ` (${(summary.cpuTimeMs / 1000).toFixed(0)} s of CPU)` : ''} for ${summary.rows.length} entries in ${summary.runs} runs, ${summary.concurrency} at a time${summary.filter ? ` · faults selected: ${escapeHtml(summary.filter)}` : ''} · seed ${summary.seed} · scope ${escapeHtml(summary.scope)} · ${escapeHtml(summary.generatedAt)}</p>
<table><thead><tr><th>entry</th><th>kind</th><th>what it does</th><th>expected</th><th>verdict</th><th>failed / warned</th><th>collateral (other requirements failed)</th><th>blocked</th><th>judgement</th><th>time</th><th>run</th></tr></thead>
<tbody>${rows}</tbody></table></body></html>`;
}

export async function writeMatrixReport(summary: MatrixSummary, jsonPath: string): Promise<void> {
  await mkdir(dirname(jsonPath), { recursive: true });
  await writeFile(jsonPath, JSON.stringify(summary, null, 2) + '\n');
  await writeFile(jsonPath.replace(/\.json$/, '.html'), renderHtml(summary));
}
