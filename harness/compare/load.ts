/**
 * A run to compare or replay: a run folder (or its conformance.json) read and
 * checked to be a lockconf result. Whatever is wrong ends in one message naming
 * the path and what is wrong (BadRunInput: exit 2, never a stack trace). Older
 * files without `provenance` or `inputs` load as well; certified folders too
 * (the manifest and signature are `lockconf verify`'s business).
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { ConformanceResult } from '../report/result-file.js';
import type { RunInputs } from '../run/generated-inputs.js';
import { readProvenance, type Provenance } from './provenance.js';

export class BadRunInput extends Error {}

export interface LoadedRun {
  /** As the user named it. */
  label: string;
  /** The conformance.json read. */
  file: string;
  /** The run folder. */
  dir: string;
  result: ConformanceResult;
  provenance: Provenance | null;
  inputs: RunInputs | null;
}

/** Only what compare and replay read; the rest of the file passes through unchecked. */
const RunShape = z.looseObject({
  tool: z.looseObject({ name: z.literal('lockconf', { error: 'is not "lockconf"' }), version: z.string() }),
  verdict: z.string(),
  seed: z.number().nullable().optional(),
  requirements: z.array(z.looseObject({
    id: z.string(),
    level: z.string(),
    status: z.string(),
    reason: z.string().optional(),
    slices: z.array(z.looseObject({ slice: z.string(), status: z.string() })).optional(),
  })),
  selection: z.looseObject({ only: z.array(z.string()).nullable().optional() }).optional(),
  target: z.looseObject({ mock: z.boolean().optional() }).optional(),
});

const InputsShape = z.looseObject({
  digest: z.string(),
  tests: z.number(),
  values: z.number(),
  perTest: z.record(z.string(), z.looseObject({ sha256: z.string(), values: z.number() })),
});

async function kindOf(path: string): Promise<'file' | 'dir' | null> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected shape';
  const where = issue.path.length ? `${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')}: ` : '';
  return `${where}${issue.message}`;
}

/** Reads the run at `path` (a folder holding conformance.json, or the file itself). Throws BadRunInput. */
export async function loadRun(path: string): Promise<LoadedRun> {
  const abs = resolve(path);
  const kind = await kindOf(abs);
  if (kind === null) throw new BadRunInput(`${path}: no such file or folder`);
  const file = kind === 'dir' ? join(abs, 'conformance.json') : abs;
  if (kind === 'dir' && (await kindOf(file)) !== 'file') throw new BadRunInput(`${path}: not a lockconf run folder (no conformance.json in it)`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new BadRunInput(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BadRunInput(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new BadRunInput(`${file}: not a lockconf result (not a JSON object)`);
  const checked = RunShape.safeParse(raw);
  if (!checked.success) throw new BadRunInput(`${file}: not a lockconf result (${firstIssue(checked.error)})`);
  const record = raw as Record<string, unknown>;
  const inputs = InputsShape.safeParse(record.inputs);
  return {
    label: path,
    file,
    dir: kind === 'dir' ? abs : resolve(file, '..'),
    result: raw as ConformanceResult,
    provenance: readProvenance(record.provenance),
    inputs: inputs.success ? (inputs.data as RunInputs) : null,
  };
}

/** The mode of a run: recorded, or told from its content in older files. */
export function runMode(run: LoadedRun): 'service' | 'receiver' | 'client' {
  if (run.provenance?.mode) return run.provenance.mode;
  if (run.result.target?.receiverUrl || run.provenance?.target?.receiverUrl) return 'receiver';
  const ids = run.result.requirements.map((r) => r.id);
  if (ids.length && ids.every((id) => id.startsWith('CLIENT-'))) return 'client';
  if (ids.length && ids.every((id) => id.startsWith('RECEIVER-'))) return 'receiver';
  return 'service';
}

/** The seed the run used: recorded in provenance, else the result's own. */
export function runSeed(run: LoadedRun): number | null {
  return run.provenance?.seed ?? run.result.seed ?? null;
}

/** The --only selection (expanded IDs), or null for the full scope. */
export function runScope(run: LoadedRun): string[] | null {
  if (run.provenance?.scope && run.provenance.scope.only !== undefined) return run.provenance.scope.only ?? null;
  return run.result.selection?.only ?? null;
}
