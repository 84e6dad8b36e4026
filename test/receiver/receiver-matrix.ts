/**
 * The receiver self-verification: the receiver suites run (`conformance
 * --receiver URL`, in a child process) against the example receiver
 * (examples/app/receiver.ts) as it is, in a legal variant, and with each of its
 * named faults (examples/app/receiver-faults.ts). A good suite judges the first
 * two conformant with nothing failed or warned, and catches every fault through
 * the requirement the fault names.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { requirement } from '../../harness/catalog/index.js';
import { RECEIVER_FAULTS, type ReceiverFaultName } from '../../examples/app/receiver-faults.js';
import { startWebhookReceiver } from '../../examples/app/receiver.js';

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
  faults: ReceiverFaultName[];
  /** Without the custom header (neither the example nor the run knows one). */
  noHeader?: boolean;
  requirement?: string;
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
}

export function planReceiverMatrix(): ReceiverEntry[] {
  return [
    { name: 'conforming', kind: 'conforming', faults: [] },
    { name: 'no-custom-header', kind: 'variant', faults: [], noHeader: true },
    ...(Object.keys(RECEIVER_FAULTS) as ReceiverFaultName[]).map((name): ReceiverEntry => ({
      name, kind: 'fault', faults: [name], requirement: RECEIVER_FAULTS[name].requirement,
    })),
  ];
}

interface Report {
  verdict: string;
  requirements: Array<{ id: string; level: string; status: string }>;
}

export function judgeReceiver(entry: ReceiverEntry, report: Report | null): Pick<ReceiverOutcome, 'verdict' | 'failed' | 'warned' | 'notTested' | 'ok' | 'why'> {
  if (!report) return { verdict: null, failed: [], warned: [], notTested: [], ok: false, why: 'the run wrote no conformance.json' };
  const having = (s: string) => report.requirements.filter((r) => r.status === s).map((r) => r.id);
  const base = { verdict: report.verdict, failed: having('failed'), warned: having('warned'), notTested: having('not-tested') };
  if (entry.kind !== 'fault') {
    if (report.verdict !== 'conformant') return { ...base, ok: false, why: `verdict ${report.verdict}, expected conformant` };
    if (base.failed.length || base.warned.length) return { ...base, ok: false, why: `false failures: ${[...base.failed, ...base.warned].join(', ')}` };
    return { ...base, ok: true, why: 'conformant, nothing failed or warned' };
  }
  const id = entry.requirement!;
  if (requirement(id).level === 'MUST') {
    if (!base.failed.includes(id)) return { ...base, ok: false, why: `${id} was not failed` };
    if (report.verdict !== 'not-conformant') return { ...base, ok: false, why: `verdict ${report.verdict}, expected not-conformant` };
    return { ...base, ok: true, why: `caught: ${id} failed` };
  }
  if (!base.warned.includes(id)) return { ...base, ok: false, why: `${id} (SHOULD) was not warned` };
  return { ...base, ok: true, why: `caught: ${id} warned` };
}

/** One run: the example with the entry's faults on 127.0.0.1, the receiver suites against it. */
export async function runReceiverEntry(entry: ReceiverEntry, outDir: string): Promise<ReceiverOutcome> {
  const started = Date.now();
  const example = await startWebhookReceiver({
    apiKey: SECRETS.apiKey,
    ...(entry.noHeader ? {} : { header: SECRETS.header, token: SECRETS.token }),
    clientSecret: SECRETS.clientSecret,
    faults: entry.faults,
  });
  try {
    const args = ['--import', 'tsx', join(ROOT, 'harness/cli.ts'), 'conformance', '--receiver', example.url, '--out', outDir, '--no-allure', '--seed', '11'];
    // A fault is judged by its own requirement's tests; the conforming runs take every test.
    if (entry.requirement) args.push('--only', entry.requirement);
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST')) env[k] = v;
    Object.assign(env, { NO_COLOR: '1', LOCKCONF_API_KEY: SECRETS.apiKey, LOCKCONF_CLIENT_SECRET: SECRETS.clientSecret });
    if (!entry.noHeader) Object.assign(env, { LOCKCONF_WEBHOOK_HEADER: SECRETS.header, LOCKCONF_WEBHOOK_TOKEN: SECRETS.token });
    const exitCode = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
      child.on('close', (code) => {
        if (code === 2) process.stderr.write(`[receiver ${entry.name}] run could not be carried out:\n${stderr}\n`);
        done(code);
      });
    });
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

/** Every entry, `concurrency` at a time. */
export async function runReceiverMatrix(entries: ReceiverEntry[], outDir: string, concurrency = 2): Promise<ReceiverOutcome[]> {
  const outcomes: ReceiverOutcome[] = new Array(entries.length);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const i = next++;
      outcomes[i] = await runReceiverEntry(entries[i]!, join(outDir, entries[i]!.name));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}
