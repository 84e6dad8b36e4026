/**
 * The provenance of a run (types.ts), collected by the CLI before the run starts
 * (from the environment the user gave it, before the command sets its own
 * variables) and completed by the reporter with what only the end can tell: the
 * scope judged, the target's addresses as global setup found them, the end time.
 * The draft of the run in progress is registered here, so every report writer of
 * this process (the reporter, the error reports) adds the same field.
 */
import { readFile } from 'node:fs/promises';
import { arch, platform, release, type } from 'node:os';
import { join, resolve } from 'node:path';
import { CATALOG } from '../catalog/index.js';
import { toolVersion } from '../report/result-file.js';
import type { ConformanceResult } from '../report/result-file.js';
import { makeScrubber, secretsFromEnv } from '../report/scrub.js';
import { PROFILE_ENV } from '../service/profile.js';
import { SPEC_PATH, canonicalJson, catalogDigest, sha256Hex, specDigest } from './hashes.js';
import { collectSettings, withoutUserinfo, type OptionSetting } from './settings.js';
import { suiteSource } from './source.js';
import type { Provenance, ProvenanceDraft, RunMode } from './types.js';

export interface RunInvocation {
  root: string;
  mode: RunMode;
  /** process.argv.slice(2) */
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The command's options as commander parsed them. */
  options: { target?: string; only?: string[]; seed?: number; expect?: string; allure?: boolean; allowIncomplete?: boolean; receiver?: string; certify?: boolean };
  startedAt?: Date;
}

/** Keys of a profile whose values are secrets (or tokens, codes): left out of its fingerprint. */
const SECRET_KEY = /secret|token|password|api_?key|code|credential|cookie|otp/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_KEY.test(k)).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/** The profile as the run reads it, leniently: the --target file with the LOCKCONF_<FIELD> variables over it; null when neither. */
export async function profileSeen(targetFile: string | null, env: NodeJS.ProcessEnv): Promise<Record<string, unknown> | null> {
  let profile: Record<string, unknown> | null = null;
  if (targetFile) {
    try {
      const parsed = JSON.parse(await readFile(targetFile, 'utf8')) as unknown;
      profile = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      profile = null; // unreadable: the command says so; nothing to fingerprint
    }
  }
  for (const [field, name] of Object.entries(PROFILE_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    profile ??= {};
    try {
      profile[field] = ['fixtures', 'capture', 'statusCheck'].includes(field) ? JSON.parse(raw) : raw;
    } catch {
      profile[field] = raw;
    }
  }
  return profile;
}

/** Secret values the run knows of: the scrubber of the command line. */
function secretValues(env: NodeJS.ProcessEnv, profile: Record<string, unknown> | null): string[] {
  const out = secretsFromEnv(env);
  for (const name of ['LOCKCONF_WEBHOOK_TOKEN', 'LOCKCONF_LOGIN_PASSWORD', 'LOCKCONF_SMS_CODE']) if (env[name]) out.push(env[name]!);
  const walk = (v: unknown, key = ''): void => {
    if (typeof v === 'string' && SECRET_KEY.test(key)) out.push(v);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, Array.isArray(v) ? key : k);
  };
  walk(profile);
  return out;
}

export async function collectProvenance(inv: RunInvocation): Promise<ProvenanceDraft> {
  const { options: o, env, mode } = inv;
  // The profile the command reads: --target; for a client grading also LOCKCONF_TARGET_FILE, else the grading mock's (commands/client.ts).
  const targetFile = o.target ? resolve(inv.cwd, o.target)
    // …in the user's folder when the package is installed (node_modules/lockconf is never where the mock wrote it).
    : mode === 'client' ? resolve(inv.cwd, env.LOCKCONF_TARGET_FILE ?? join(/[\\/]node_modules[\\/]/.test(inv.root) ? inv.cwd : inv.root, '.lockconf/mock-target.json')) : null;
  const profile = await profileSeen(targetFile, env);
  const scrub = makeScrubber(secretValues(env, profile));
  const options: OptionSetting[] = [
    { name: '--target', value: o.target, default: mode === 'client' ? '.lockconf/mock-target.json' : null },
    { name: '--only', value: o.only?.length ? o.only.join(' ') : undefined, default: null },
    { name: '--seed', value: o.seed === undefined ? undefined : String(o.seed), default: null },
    { name: '--expect', value: o.expect, default: null },
    { name: '--allure', value: o.allure === false ? 'false' : undefined, default: 'true' },
    { name: '--allow-incomplete', value: o.allowIncomplete ? 'true' : undefined, default: 'false' },
    ...(mode === 'receiver' ? [{ name: '--receiver', value: o.receiver, default: null }] : []),
    { name: '--certify', value: o.certify ? 'true' : undefined, default: 'false' },
  ];
  let expectations: Provenance['expectations'] = null;
  if (o.expect) {
    const file = resolve(inv.cwd, o.expect);
    const content = await readFile(file, 'utf8').catch(() => null);
    if (content !== null) expectations = { file, sha256: sha256Hex(content), content: scrub(content) };
  }
  const clientId = typeof profile?.clientId === 'string' ? profile.clientId : null;
  const spec = await specDigest(inv.root);
  return {
    schema: 1,
    suite: { name: 'lockconf', version: await toolVersion(inv.root), source: await suiteSource(inv.root) },
    spec: { path: SPEC_PATH, sha256: spec ?? '' },
    catalog: { sha256: catalogDigest(CATALOG), requirements: CATALOG.length },
    runtime: { node: process.version, platform: platform(), arch: arch(), os: `${type()} ${release()}` },
    command: { argv: inv.argv.map((a) => withoutUserinfo(scrub(a))), cwd: inv.cwd },
    mode,
    settings: collectSettings(env, { mode, embeddedMock: mode === 'service' && !targetFile && !profile }, options).map((s) => (s.value === null ? s : { ...s, value: scrub(s.value) })),
    expectations,
    seed: o.seed ?? null,
    target: {
      authUrl: null,
      baseUrl: null,
      receiverUrl: mode === 'receiver' && o.receiver ? withoutUserinfo(o.receiver) : null,
      clientId,
      mock: mode === 'service' && !targetFile && !profile,
      profileSha256: profile ? sha256Hex(canonicalJson(withoutSecrets(profile))) : null,
    },
    startedAt: (inv.startedAt ?? new Date()).toISOString(),
  };
}

/** The draft completed by the run's result: scope, seed, the target's addresses, the end. */
export function completeProvenance(draft: ProvenanceDraft, result: Pick<ConformanceResult, 'selection' | 'seed' | 'target' | 'finishedAt'>): Provenance {
  const finishedAt = result.finishedAt;
  const t = result.target;
  return {
    ...draft,
    seed: result.seed ?? draft.seed,
    scope: { only: result.selection.only, partial: result.selection.partial, inScope: result.selection.inScope ?? null, total: result.selection.total ?? null },
    target: {
      ...draft.target,
      authUrl: t.authUrl ? withoutUserinfo(t.authUrl) : draft.target.authUrl,
      baseUrl: t.baseUrl ? withoutUserinfo(t.baseUrl) : draft.target.baseUrl,
      receiverUrl: t.receiverUrl ? withoutUserinfo(t.receiverUrl) : draft.target.receiverUrl,
      mock: t.mock || draft.target.mock,
    },
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(draft.startedAt)) || 0,
  };
}

let current: ProvenanceDraft | null = null;

/** The run in progress in this process describes itself with `draft` (null: no run, or a run outside the CLI). */
export function registerRunProvenance(draft: ProvenanceDraft | null): void {
  current = draft;
}

export function runProvenance(): ProvenanceDraft | null {
  return current;
}
