/**
 * The receiver self-verification: the receiver suites run (`conformance
 * --receiver URL`, in a child process) against the example receiver
 * (examples/app/receiver.ts) as it is, in a legal variant, and with each of its
 * named faults (examples/app/receiver-faults.ts). A good suite judges the first
 * two conformant with nothing failed or warned, and catches every fault through
 * the requirement the fault names.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { requirement } from '../../harness/catalog/index.js';
import { RECEIVER_FAULTS, type ReceiverFaultName } from '../../examples/app/receiver-faults.js';
import type { ReceiverSliceFault } from '../../examples/app/receiver-slice-faults.js';
import { receiverFaultRuns, type ReceiverGeneratedFault } from './receiver-slice-faults.js';
import { startWebhookReceiver, type ReceiverOptions } from '../../examples/app/receiver.js';
import { receiverCommand } from '../../harness/commands/receiver.js';
import { prebuiltStart } from '../support/prebuilt.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Test values only: the example and the run share them, as an application and its registration would. */
export const SECRETS = {
  apiKey: 'receiver-selfcheck-api-key-4f2c9a',
  header: 'X-Lockconf-Example',
  token: 'receiver-selfcheck-token-8b1d77',
  clientSecret: 'receiver-selfcheck-client-secret-31e0',
};

export interface ReceiverEntry {
  name: string;
  kind: 'conforming' | 'variant' | 'fault';
  faults: Array<ReceiverFaultName | ReceiverSliceFault>;
  /** Generated faults: the slice (`dim=value`) of each requirement that must fail, one per fault of the entry. */
  catches?: Array<{ requirement: string; slice: string }>;
  /** Without the custom header (neither the example nor the run knows one). */
  noHeader?: boolean;
  /** Other answers of the example: another 2xx to accept (with a body or without), another non-2xx to refuse (the verdict must not depend on which). */
  answers?: { accepted: number; refused: number; acceptedBody?: boolean };
  /** A legal variant's choices where the spec leaves the receiver free (examples/app/receiver.ts options). */
  choices?: Pick<ReceiverOptions, 'vEncoding' | 'tUnit' | 'firstVOnly' | 'refusesReplays'>;
  /** A legal variant: the SHOULD requirements it is warned on, and only those (robustness it legally lacks). */
  warns?: string[];
  /** Why the variant is legal: the words of the spec that leave the choice open. */
  because?: string;
  /** A legal variant npm test runs too (the others run in npm run matrix -- --all, or with LOCKCONF_RECEIVER_MATRIX_SLICES=all). */
  sampled?: boolean;
  requirement?: string;
  /** Other requirements the fault breaks as well: each must be caught too. */
  also?: string[];
}

export interface ReceiverOutcome {
  entry: ReceiverEntry;
  exitCode: number | null;
  verdict: string | null;
  failed: string[];
  warned: string[];
  notTested: string[];
  ok: boolean;
  why: string;
  durationMs: number;
  /** Generated faults: `ID [dim=value]` of each own slice that failed. */
  slicesCaught?: string[];
}

/**
 * The legal variants of the example receiver, one per freedom the spec leaves a receiver:
 * each judged conformant, warned on exactly the SHOULD requirements it names.
 */
export const RECEIVER_VARIANTS: readonly ReceiverEntry[] = [
  { name: 'no-custom-header', kind: 'variant', sampled: true, faults: [], noHeader: true, answers: { accepted: 200, refused: 403 }, because: 'Registration: header and token are "Chosen by the application"; any 2xx accepts ("A response without an HTTP 2xx status is not retried").' },
  { name: 'answers-200-without-body', kind: 'variant', faults: [], answers: { accepted: 200, refused: 400, acceptedBody: false }, because: 'Delivery: only "without an HTTP 2xx status" is named; the answer\'s body is not shown.' },
  { name: 'answers-202-with-body', kind: 'variant', faults: [], answers: { accepted: 202, refused: 401 }, because: 'As above: 202 is a 2xx.' },
  { name: 'answers-202-without-body', kind: 'variant', faults: [], answers: { accepted: 202, refused: 422, acceptedBody: false }, because: 'As above.' },
  { name: 'one-v-only', kind: 'variant', faults: [], choices: { firstVOnly: true }, because: 'Signature: "prefix v is the signature" (one): comparing the first v only is a reading of the text.' },
  { name: 'refuses-replays', kind: 'variant', faults: [], choices: { refusesReplays: true }, because: 'Delivery: "Each event is delivered at most once.": a receiver may refuse (409) a delivery of the same t and body it already accepted.' },
  { name: 'hex-only', kind: 'variant', sampled: true, faults: [], choices: { vEncoding: 'lower-hex' }, warns: ['RECEIVER-SIGNATURE-ENCODINGS'], because: 'Signature: "Text encoding of the signature value: not shown.": a receiver may read lower-case hex only.' },
  { name: 'milliseconds-only', kind: 'variant', sampled: true, faults: [], choices: { tUnit: 'ms' }, warns: ['RECEIVER-SIGNATURE-ENCODINGS'], because: 'Signature: "Prefix t is the timestamp" gives no unit: a receiver may read epoch milliseconds only, as the samples\' timestamps.' },
];

/** The legal variants a matrix runs: every one with LOCKCONF_RECEIVER_MATRIX_SLICES=all (npm run matrix -- --all), else (npm test) the sampled ones. */
export function receiverVariantRuns(mode = process.env.LOCKCONF_RECEIVER_MATRIX_SLICES): ReceiverEntry[] {
  return RECEIVER_VARIANTS.filter((v) => mode === 'all' || v.sampled);
}

/**
 * The named faults a matrix runs: every one with LOCKCONF_RECEIVER_MATRIX_SLICES=all (npm run
 * matrix -- --all), else (npm test) those whose requirement no generated fault of the run judges:
 * one fault per requirement, as the service's sample (test/self-verification/sample.ts).
 */
export function receiverNamedFaults(generated: readonly ReceiverGeneratedFault[][], mode = process.env.LOCKCONF_RECEIVER_MATRIX_SLICES): ReceiverFaultName[] {
  const names = Object.keys(RECEIVER_FAULTS) as ReceiverFaultName[];
  if (mode === 'all') return names;
  const judged = new Set(generated.flat().map((f) => f.requirement));
  return names.filter((name) => !judged.has(RECEIVER_FAULTS[name].requirement));
}

/** The conforming example, its legal variants, the named faults (receiverNamedFaults), and the generated faults selected (receiver-slice-faults.ts). */
export function planReceiverMatrix(
  generated: readonly ReceiverGeneratedFault[][] = receiverFaultRuns(),
  variants: readonly ReceiverEntry[] = receiverVariantRuns(),
  named: readonly ReceiverFaultName[] = receiverNamedFaults(generated),
): ReceiverEntry[] {
  return [
    { name: 'conforming', kind: 'conforming', faults: [] },
    ...variants,
    ...named.map((name): ReceiverEntry => ({
      name, kind: 'fault', faults: [name], requirement: RECEIVER_FAULTS[name].requirement, also: [...RECEIVER_FAULTS[name].also],
    })),
    ...generated.map((pack, i): ReceiverEntry => ({
      name: pack.length === 1 ? pack[0]!.name : `generated-pack-${i + 1}`,
      kind: 'fault',
      faults: pack.map((f) => f.name),
      requirement: pack[0]!.requirement,
      also: pack.slice(1).map((f) => f.requirement),
      catches: pack.map((f) => ({ requirement: f.requirement, slice: `${f.dim}=${f.value}` })),
    })),
  ];
}

interface Report {
  verdict: string;
  requirements: Array<{ id: string; level: string; status: string; slices?: Array<{ slice: string; status: string }> }>;
}

export function judgeReceiver(entry: ReceiverEntry, report: Report | null): Pick<ReceiverOutcome, 'verdict' | 'failed' | 'warned' | 'notTested' | 'ok' | 'why' | 'slicesCaught'> {
  if (!report) return { verdict: null, failed: [], warned: [], notTested: [], ok: false, why: 'the run wrote no conformance.json' };
  const having = (s: string) => report.requirements.filter((r) => r.status === s).map((r) => r.id);
  const base = { verdict: report.verdict, failed: having('failed'), warned: having('warned'), notTested: having('not-tested') };
  if (entry.kind !== 'fault') {
    const warns = entry.warns ?? [];
    if (report.verdict !== 'conformant') return { ...base, ok: false, why: `verdict ${report.verdict}, expected conformant` };
    const wrong = [...base.failed, ...base.warned.filter((id) => !warns.includes(id))];
    if (wrong.length) return { ...base, ok: false, why: `false failures: ${wrong.join(', ')}` };
    const unwarned = warns.filter((id) => !base.warned.includes(id));
    if (unwarned.length) return { ...base, ok: false, why: `not warned: ${unwarned.join(', ')}` };
    // The traceability rule of the slices: every declared slice of a judged requirement was exercised.
    const gaps = report.requirements.filter((r) => r.status !== 'not-tested' && !warns.includes(r.id)).flatMap((r) => (r.slices ?? []).filter((s) => s.status !== 'passed').map((s) => `${r.id} [${s.slice}] ${s.status}`));
    if (gaps.length) return { ...base, ok: false, why: `slices not exercised: ${gaps.join(', ')}` };
    return { ...base, ok: true, why: warns.length ? `conformant, warned on ${warns.join(', ')} only` : 'conformant, nothing failed or warned' };
  }
  const ids = [entry.requirement!, ...(entry.also ?? [])];
  for (const id of ids) {
    const must = requirement(id).level === 'MUST';
    if (must && !base.failed.includes(id)) return { ...base, ok: false, why: `${id} was not failed` };
    if (!must && !base.warned.includes(id)) return { ...base, ok: false, why: `${id} (SHOULD) was not warned` };
  }
  let slicesCaught: string[] | undefined;
  if (entry.catches) {
    // A generated fault is caught on its own slice, not merely somewhere in its requirement.
    const statusOf = (c: { requirement: string; slice: string }) => report.requirements.find((r) => r.id === c.requirement)?.slices?.find((s) => s.slice === c.slice)?.status;
    slicesCaught = entry.catches.filter((c) => statusOf(c) === 'failed').map((c) => `${c.requirement} [${c.slice}]`);
    const missed = entry.catches.filter((c) => statusOf(c) !== 'failed');
    if (missed.length) return { ...base, slicesCaught, ok: false, why: `not failed on its own slice: ${missed.map((c) => `${c.requirement} [${c.slice}] ${statusOf(c) ?? 'not reported'}`).join(', ')}` };
  }
  if (ids.some((id) => requirement(id).level === 'MUST') && report.verdict !== 'not-conformant') {
    return { ...base, ok: false, why: `verdict ${report.verdict}, expected not-conformant` };
  }
  return { ...base, ...(slicesCaught ? { slicesCaught } : {}), ok: true, why: `caught: ${ids.join(', ')}` };
}

/** One run, in this process: the example with the entry's faults on 127.0.0.1, the receiver suites against it. */
export async function runReceiverEntry(entry: ReceiverEntry, outDir: string): Promise<ReceiverOutcome> {
  const started = Date.now();
  const example = await startWebhookReceiver({
    apiKey: SECRETS.apiKey,
    ...(entry.noHeader ? {} : { header: SECRETS.header, token: SECRETS.token }),
    ...(entry.answers ? { answers: entry.answers } : {}),
    ...entry.choices,
    clientSecret: SECRETS.clientSecret,
    faults: entry.faults,
  });
  try {
    process.env.LOCKCONF_API_KEY = SECRETS.apiKey;
    process.env.LOCKCONF_CLIENT_SECRET = SECRETS.clientSecret;
    if (entry.noHeader) {
      delete process.env.LOCKCONF_WEBHOOK_HEADER;
      delete process.env.LOCKCONF_WEBHOOK_TOKEN;
    } else {
      process.env.LOCKCONF_WEBHOOK_HEADER = SECRETS.header;
      process.env.LOCKCONF_WEBHOOK_TOKEN = SECRETS.token;
    }
    // A fault is judged by the tests of the requirements it breaks; the conforming runs take every test.
    const only = entry.requirement ? [entry.requirement, ...(entry.also ?? [])] : undefined;
    const exitCode = await receiverCommand({ receiver: example.url, out: outDir, allure: false, seed: 11, ...(only ? { only } : {}) });
    let report: Report | null = null;
    try {
      report = JSON.parse(await readFile(join(outDir, 'conformance.json'), 'utf8')) as Report;
    } catch {
      report = null;
    }
    return { entry, exitCode, ...judgeReceiver(entry, report), durationMs: Date.now() - started };
  } finally {
    await example.close();
  }
}

/**
 * Every entry, in `children` child processes (test/receiver/receiver-matrix-child.ts),
 * each running its share one after the other: one start-up per child, not per run.
 */
export async function runReceiverMatrix(entries: ReceiverEntry[], outDir: string, children = 2): Promise<ReceiverOutcome[]> {
  const shares = Array.from({ length: children }, (_, i) => entries.filter((_e, j) => j % children === i)).filter((s) => s.length > 0);
  // Prebuilt once (bin/bundle.js) and run by plain node: no tsx hooks on the children's imports.
  const start = await prebuiltStart('receiver-matrix-child', 'test/receiver/receiver-matrix-child.ts');
  const results = await Promise.all(shares.map(async (share, i) => {
    const planFile = join(outDir, `plan-${i}.json`);
    const resultFile = join(outDir, `outcomes-${i}.json`);
    await writeFile(planFile, JSON.stringify({ entries: share, outDir, resultFile }));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST')) env[k] = v;
    env.NO_COLOR = '1';
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, [...start.execArgv, start.script, planFile], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
      child.on('close', (c) => {
        if (c !== 0) process.stderr.write(`[receiver matrix child ${i}] exit ${c}:\n${stderr}\n`);
        done(c);
      });
    });
    try {
      return JSON.parse(await readFile(resultFile, 'utf8')) as ReceiverOutcome[];
    } catch {
      return share.map((entry): ReceiverOutcome => ({ entry, exitCode: code, verdict: null, failed: [], warned: [], notTested: [], ok: false, why: `the matrix child ended with ${code} before writing its outcomes`, durationMs: 0 }));
    }
  }));
  const byName = new Map(results.flat().map((o) => [o.entry.name, o]));
  return entries.map((e) => byName.get(e.name)!);
}
