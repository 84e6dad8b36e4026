/**
 * The self-verification matrix: the conformance suites run against the reference
 * mock once as it is, once per legal variant (choices the spec leaves open), and
 * once per fault of the mock's fault catalog. A good suite judges the first two
 * conformant and catches every fault through the requirement the fault names.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CATALOG, requirement } from '../../harness/catalog/index.js';
import { FAULTS, FAULT_NAMES, type FaultName } from '../../mock/faults.js';
import type { MockOptions } from '../../mock/context.js';

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
export function judge(entry: MatrixEntry, report: { verdict: string; requirements: RequirementResult[] } | null): Omit<MatrixOutcome, 'entry' | 'durationMs' | 'exitCode'> {
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

/** One conformance run in a child process, against an embedded mock built with the entry's options. */
export async function runEntry(entry: MatrixEntry, outDir: string, seed: number): Promise<MatrixOutcome> {
  await mkdir(outDir, { recursive: true });
  const args = ['--import', 'tsx', join(ROOT, 'harness/cli.ts'), 'conformance', '--out', outDir, '--seed', String(seed), '--no-allure'];
  for (const id of entry.only ?? []) args.push('--only', id);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST')) env[k] = v;
  }
  env.LOCKCONF_MOCK_OPTIONS = JSON.stringify(entry.mockOptions);
  // The mock delivers within milliseconds: a fault that sends nothing matching is judged after 3 s, not 15.
  env.LOCKCONF_DELIVERY_WAIT_MS = '3000';
  env.NO_COLOR = '1';
  const started = Date.now();
  const exitCode = await new Promise<number | null>((resolveExit) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
    child.on('close', (code) => {
      if (code === 2) process.stderr.write(`[${entry.name}] run could not be carried out:\n${stderr}\n`);
      resolveExit(code);
    });
  });
  let report: { verdict: string; requirements: RequirementResult[] } | null = null;
  try {
    report = JSON.parse(await readFile(join(outDir, 'conformance.json'), 'utf8'));
  } catch {
    report = null;
  }
  return { entry, ...judge(entry, report), durationMs: Date.now() - started, exitCode };
}

/** Run every entry, `concurrency` at a time. */
export async function runMatrix(entries: MatrixEntry[], opts: { outDir: string; seed: number; concurrency?: number; onOutcome?: (o: MatrixOutcome) => void }): Promise<MatrixOutcome[]> {
  const outcomes: MatrixOutcome[] = new Array(entries.length);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const i = next++;
      const entry = entries[i]!;
      const outcome = await runEntry(entry, join(opts.outDir, 'runs', entry.name), opts.seed);
      outcomes[i] = outcome;
      opts.onOutcome?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, worker));
  return outcomes;
}
