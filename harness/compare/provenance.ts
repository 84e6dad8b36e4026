/**
 * Reading conformance.json `provenance` (the shared contract, issue 21: written by
 * the run, read here by `compare` and `replay`). Tolerant: a file written before
 * provenance existed has none (null); a field that does not have the documented
 * shape is dropped (undefined), never a reason to refuse the file. Nothing here
 * collects provenance: that is the run's job.
 */
import { z } from 'zod';

const nullableString = z.string().nullable().optional();

const GitSource = z.looseObject({ kind: z.literal('git'), commit: z.string(), branch: nullableString, clean: z.boolean().nullable().optional() });
const PackageSource = z.looseObject({ kind: z.literal('package'), integrity: nullableString, path: z.string().optional() });

/** One option or environment setting as the run recorded it (secret values read "(set)"). */
const Setting = z.looseObject({
  name: z.string(),
  value: z.string().nullable(),
  default: nullableString,
  changed: z.boolean(),
  source: z.string().optional(),
});

/** Each field optional and dropped when malformed: a reader copes with what is there. */
const ProvenanceSchema = z.looseObject({
  schema: z.number().optional().catch(undefined),
  suite: z.looseObject({ name: z.string().optional(), version: z.string().optional(), source: z.union([GitSource, PackageSource]).optional().catch(undefined) }).optional().catch(undefined),
  spec: z.looseObject({ path: z.string().optional(), sha256: z.string() }).optional().catch(undefined),
  catalog: z.looseObject({ sha256: z.string(), requirements: z.number().optional() }).optional().catch(undefined),
  runtime: z.looseObject({ node: z.string().optional(), platform: z.string().optional(), arch: z.string().optional(), os: z.string().optional() }).optional().catch(undefined),
  command: z.looseObject({ argv: z.array(z.string()), cwd: z.string().optional() }).optional().catch(undefined),
  mode: z.enum(['service', 'receiver', 'client']).optional().catch(undefined),
  settings: z.array(Setting).optional().catch(undefined),
  expectations: z.looseObject({ file: z.string(), sha256: z.string().optional(), content: z.string() }).nullable().optional().catch(undefined),
  seed: z.number().int().nullable().optional().catch(undefined),
  scope: z.looseObject({
    only: z.array(z.string()).nullable().optional(), partial: z.boolean().optional(), inScope: z.number().nullable().optional(), total: z.number().nullable().optional(),
  }).optional().catch(undefined),
  target: z.looseObject({
    authUrl: nullableString, baseUrl: nullableString, receiverUrl: nullableString, clientId: nullableString,
    mock: z.boolean().optional(), profileSha256: nullableString,
  }).optional().catch(undefined),
  startedAt: z.string().optional().catch(undefined),
  finishedAt: z.string().optional().catch(undefined),
  durationMs: z.number().optional().catch(undefined),
});

export type Provenance = z.infer<typeof ProvenanceSchema>;
export type ProvenanceSetting = z.infer<typeof Setting>;
export type SuiteSource = z.infer<typeof GitSource> | z.infer<typeof PackageSource>;

/** The run's provenance, or null when the file has none (older files) or it is not an object. */
export function readProvenance(raw: unknown): Provenance | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const parsed = ProvenanceSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** "git commit 1d11691c0a2b (branch main, uncommitted changes)", "package sha512-… at PATH". */
export function describeSource(source: SuiteSource | undefined): string | null {
  if (!source) return null;
  if (source.kind === 'git') {
    const notes = [source.branch ? `branch ${source.branch}` : 'detached', source.clean === false ? 'uncommitted changes' : null].filter(Boolean);
    return `git commit ${source.commit.slice(0, 12)} (${notes.join(', ')})`;
  }
  return `installed package${source.integrity ? ` ${source.integrity.slice(0, 24)}…` : ''}${source.path ? ` at ${source.path}` : ''}`;
}

/** Whether two recorded sources name the same code (a modified tree is never "the same"). */
export function sameSource(a: SuiteSource | undefined, b: SuiteSource | undefined): boolean | null {
  if (!a || !b) return null;
  if (a.kind === 'git' && b.kind === 'git') return a.commit === b.commit && a.clean !== false && b.clean !== false;
  if (a.kind === 'package' && b.kind === 'package') return a.integrity !== null && a.integrity !== undefined && a.integrity === b.integrity;
  return false;
}
