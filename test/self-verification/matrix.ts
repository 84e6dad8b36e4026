/**
 * The self-verification matrix: the conformance suites run against the reference
 * mock once as it is, once per legal variant (choices the spec leaves open), and
 * once per fault of the mock's fault catalog. A good suite judges the first two
 * conformant and catches every fault through the requirement the fault names.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { CATALOG, requirement } from '../../harness/catalog/index.js';
import { FAULTS, FAULT_NAMES, type FaultName } from '../../mock/faults.js';
import type { MockOptions } from '../../mock/context.js';
import { scanSuites } from '../../harness/run/selection.js';
import { packRuns, single, spillOver, splitRun, type MatrixRun } from './packing.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * `scope-check`: a fault run again with every suite (no --only), one per spec area, to show
 * that scoping a fault to its own area's suites changes nothing in the judgement.
 */
export type EntryKind = 'conforming' | 'variant' | 'fault' | 'scope-check';

export interface MatrixEntry {
  name: string;
  kind: EntryKind;
  description: string;
  mockOptions: MockOptions;
  /** For faults: the requirement the fault breaks. */
  requirement?: string;
  /** Requirement IDs to run (--only); undefined runs everything. */
  only?: string[];
}

export interface RequirementResult {
  id: string;
  level: string;
  status: 'passed' | 'failed' | 'warned' | 'not-tested' | 'informational';
  reason?: string;
}

export interface MatrixOutcome {
  entry: MatrixEntry;
  verdict: string | null;
  failed: string[];
  warned: string[];
  notTestedMust: string[];
  /** Did the entry get the judgement it should? */
  ok: boolean;
  why: string;
  durationMs: number;
  exitCode: number | null;
  /** The run that judged the entry (its own, or a shared one: packing.ts). */
  run: string;
  /** The other faults switched on in that run. */
  sharedWith: string[];
  /** Set when a shared run could not judge the entry and it ran again (alone or in a smaller run): why. */
  rerunAlone?: string;
}

/** Legal implementations the spec allows, each different from the mock's defaults. */
export const VARIANTS: MatrixEntry[] = [
  { name: 'base64-signatures', kind: 'variant', description: 'X-Signature v values in base64 (the spec leaves the encoding open).', mockOptions: { signatureEncoding: 'base64' } },
  { name: 'lower-case-lock-ids', kind: 'variant', description: 'Lock IDs in lower-case hex.', mockOptions: { lowerCaseLockIds: true } },
  { name: 'two-day-access-tokens', kind: 'variant', description: 'Access tokens valid for two days (expires_in 172800; the spec allows any lifetime of at least 24 hours).', mockOptions: { accessTokenLifetimeSec: 172_800 } },
  { name: 'extra-fields', kind: 'variant', description: 'Unknown extra fields in token responses and webhook payloads.', mockOptions: { extraFields: true } },
  { name: 'empty-webhook-answers', kind: 'variant', description: 'The webhook endpoints answer 201 (registration) and 204 (deletion) with no body (the spec does not show their answers).', mockOptions: { emptyWebhookAnswers: true } },
  { name: 'signature-seconds', kind: 'variant', description: 'The X-Signature t element in epoch seconds (the spec does not fix its unit).', mockOptions: { signatureTimestampSeconds: true } },
  { name: 'bridge-lists-all-locks', kind: 'variant', description: 'Bridge events list every lock on the bridge in LockID ("an array of lock identifiers").', mockOptions: { bridgeListsAllLocks: true } },
];

/** The requirement IDs of the area that holds `id`: the suites that can see a fault of that rule. */
export function areaScope(id: string): string[] {
  const area = requirement(id).area;
  return CATALOG.filter((r) => r.area === area).map((r) => r.id);
}

export function planMatrix(opts: { scope: 'full' | 'area'; faults?: FaultName[] } = { scope: 'area' }): MatrixEntry[] {
  const faults = opts.faults ?? FAULT_NAMES;
  const firstOfEachArea = new Map<string, FaultName>();
  for (const name of faults) {
    const area = requirement(FAULTS[name].requirement).area;
    if (!firstOfEachArea.has(area)) firstOfEachArea.set(area, name);
  }
  const scopeChecks: MatrixEntry[] = opts.scope === 'area'
    ? [...firstOfEachArea.values()].map((name) => ({
        name: `${name} (full run)`,
        kind: 'scope-check',
        description: `${FAULTS[name].description} Run with every suite, to check the area scoping.`,
        mockOptions: { faults: [name] },
        requirement: FAULTS[name].requirement,
      }))
    : [];
  return [
    { name: 'conforming', kind: 'conforming', description: 'The reference mock with no fault.', mockOptions: {} },
    ...VARIANTS,
    ...faults.map((name): MatrixEntry => {
      const def = FAULTS[name];
      return {
        name,
        kind: 'fault',
        description: def.description,
        mockOptions: { faults: [name] },
        requirement: def.requirement,
        ...(opts.scope === 'area' ? { only: areaScope(def.requirement) } : {}),
      };
    }),
    ...scopeChecks,
  ];
}

/** Judge one run's conformance.json against what the entry should get. */
export function judge(entry: MatrixEntry, report: { verdict: string; requirements: RequirementResult[] } | null): Omit<MatrixOutcome, 'entry' | 'durationMs' | 'exitCode' | 'run' | 'sharedWith' | 'rerunAlone'> {
  if (!report) {
    return { verdict: null, failed: [], warned: [], notTestedMust: [], ok: false, why: 'the run wrote no conformance.json' };
  }
  const failed = report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
  const warned = report.requirements.filter((r) => r.status === 'warned').map((r) => r.id);
  const selected = new Set(entry.only ?? CATALOG.map((r) => r.id));
  const notTestedMust = report.requirements
    .filter((r) => r.level === 'MUST' && r.status === 'not-tested' && selected.has(r.id))
    .map((r) => r.id);
  const base = { verdict: report.verdict, failed, warned, notTestedMust };
  if (entry.kind === 'conforming' || entry.kind === 'variant') {
    if (report.verdict !== 'conformant') return { ...base, ok: false, why: `verdict ${report.verdict}, expected conformant` };
    if (failed.length || warned.length) return { ...base, ok: false, why: `false failures: ${[...failed, ...warned].join(', ')}` };
    return { ...base, ok: true, why: 'conformant, nothing failed or warned' };
  }
  const id = entry.requirement!;
  const level = requirement(id).level;
  if (level === 'MUST') {
    if (!failed.includes(id)) return { ...base, ok: false, why: `${id} was not failed` };
    if (report.verdict !== 'not-conformant') return { ...base, ok: false, why: `verdict ${report.verdict}, expected not-conformant` };
    return { ...base, ok: true, why: `caught: ${id} failed` };
  }
  if (!warned.includes(id) && !failed.includes(id)) return { ...base, ok: false, why: `${id} (SHOULD) was not warned` };
  return { ...base, ok: true, why: `caught: ${id} warned` };
}

type Report = { verdict: string; requirements: RequirementResult[] };

/** One conformance run in a child process, against an embedded mock built with the run's options. */
async function runChildConformance(run: MatrixRun<MatrixEntry>, outDir: string, seed: number): Promise<{ report: Report | null; durationMs: number; exitCode: number | null }> {
  await mkdir(outDir, { recursive: true });
  const args = ['--import', 'tsx', join(ROOT, 'harness/cli.ts'), 'conformance', '--out', outDir, '--seed', String(seed), '--no-allure'];
  for (const id of run.only ?? []) args.push('--only', id);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST')) env[k] = v;
  }
  env.LOCKCONF_MOCK_OPTIONS = JSON.stringify(run.mockOptions);
  // The mock delivers within milliseconds: a fault that sends nothing matching is judged after 3 s, not 15.
  env.LOCKCONF_DELIVERY_WAIT_MS = '3000';
  env.NO_COLOR = '1';
  const started = Date.now();
  const exitCode = await new Promise<number | null>((resolveExit) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
    child.on('close', (code) => {
      if (code === 2) process.stderr.write(`[${run.name}] run could not be carried out:\n${stderr}\n`);
      resolveExit(code);
    });
  });
  let report: Report | null = null;
  try {
    report = JSON.parse(await readFile(join(outDir, 'conformance.json'), 'utf8'));
  } catch {
    report = null;
  }
  return { report, durationMs: Date.now() - started, exitCode };
}

/** One conformance run in a child process, against an embedded mock built with the entry's options. */
export async function runEntry(entry: MatrixEntry, outDir: string, seed: number): Promise<MatrixOutcome> {
  const run = single(entry);
  const { report, durationMs, exitCode } = await runChildConformance(run, outDir, seed);
  return { entry, ...judge(entry, report), durationMs, exitCode, run: run.name, sharedWith: [] };
}

/**
 * Run every entry, `concurrency` runs at a time (default: the number of cores),
 * each against its own mock. With `pack` (the default), faults that may share a
 * run do (packing.ts); a shared run that cannot judge its members hands each of
 * them to a run of its own.
 */
export async function runMatrix(
  entries: MatrixEntry[],
  opts: {
    outDir: string;
    seed: number;
    concurrency?: number;
    pack?: boolean;
    onOutcome?: (o: MatrixOutcome) => void;
    /** Each child run as it ends: its name, how many entries it carried, how long it took. */
    onRun?: (r: { name: string; entries: number; durationMs: number }) => void;
  },
): Promise<MatrixOutcome[]> {
  const index = new Map(entries.map((e, i) => [e, i]));
  const outcomes: MatrixOutcome[] = new Array(entries.length);
  const queue: Array<{ run: MatrixRun<MatrixEntry>; retryOf?: string }> = packRuns(entries, {
    maxPerRun: opts.pack === false ? 1 : undefined,
    areaOf: (id) => requirement(id).area,
  }).map((run) => ({ run }));
  const settle = (o: MatrixOutcome) => {
    outcomes[index.get(o.entry)!] = o;
    opts.onOutcome?.(o);
  };
  const declared = await scanSuites(ROOT);
  const filesOf = (id: string) => declared.filter((t) => t.id === id).map((t) => t.file);
  let running = 0;
  await new Promise<void>((resolveAll, rejectAll) => {
    const pump = () => {
      if (queue.length === 0 && running === 0) return resolveAll();
      while (running < Math.max(1, opts.concurrency ?? availableParallelism()) && queue.length > 0) {
        const { run, retryOf } = queue.shift()!;
        running++;
        runChildConformance(run, join(opts.outDir, 'runs', run.name), opts.seed)
          .then(({ report, durationMs, exitCode }) => {
            opts.onRun?.({ name: run.name, entries: run.entries.length, durationMs });
            const judged = run.entries.map((entry) => ({ entry, ...judge(entry, report) }));
            const spilled = spillOver(run, report);
            if (spilled.length > 0) {
              const why = `${run.name} also failed or warned ${spilled.join(', ')}`;
              for (const part of splitRun(run, spilled, filesOf)) queue.push({ run: part, retryOf: why });
              return;
            }
            const shared = run.entries.length > 1;
            for (const j of judged) {
              if (shared && !j.ok) {
                queue.push({ run: single(j.entry), retryOf: `not caught in ${run.name} (${j.why})` });
                continue;
              }
              settle({
                ...j,
                durationMs,
                exitCode,
                run: run.name,
                sharedWith: run.entries.filter((e) => e !== j.entry).map((e) => e.name),
                ...(retryOf ? { rerunAlone: retryOf } : {}),
              });
            }
          })
          .catch(rejectAll)
          .finally(() => {
            running--;
            pump();
          });
      }
    };
    pump();
  });
  return outcomes;
}
