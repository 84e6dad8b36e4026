/**
 * What a replay runs: the original's mode, scope, seed, expect file content and
 * behaviour-changing settings, read from its conformance.json (provenance when
 * recorded; the seed, selection and weakening settings of older files
 * otherwise). Pure: the caller passes the current environment and the running
 * suite's identity. What cannot be replayed is a CannotReplay naming what is
 * missing.
 */
import type { LoadedRun } from '../compare/load.js';
import { runMode, runScope, runSeed } from '../compare/load.js';
import { describeSource, type ProvenanceSetting } from '../compare/provenance.js';

export class CannotReplay extends Error {}

export interface ReplayPlan {
  mode: 'service' | 'receiver' | 'client';
  seed: number;
  only: string[] | null;
  receiverUrl: string | null;
  /** The original ran on the embedded mock. */
  mock: boolean;
  /** Variables for the replay: a value to set, null to unset. */
  env: Record<string, string | null>;
  /** The expect file's recorded content (written to a scratch file for the replay). */
  expectContent: { file: string; content: string } | null;
  /** An older file's expect file, by path (its content may have changed since). */
  expectFile: string | null;
  /** The original wrote an Allure report. */
  allure: boolean;
  /** What the replay takes over, in words. */
  applied: string[];
  warnings: string[];
}

export interface ReplayContext {
  env: NodeJS.ProcessEnv;
  /** --target given, or the environment holds a profile (LOCKCONF_* profile variables). */
  profileGiven: boolean;
  /** Names of the target profile's variables (they describe the target, which comes from --target). */
  profileVariables: readonly string[];
  /** The running suite: its version, git commit (null outside a clone) and the spec's SHA-256. */
  running: { version: string; commit: string | null; specSha256: string | null };
}

/** Set by the commands themselves from the options: never taken from the recorded settings. */
const INTERNAL = new Set([
  'LOCKCONF_RUN_DIR', 'LOCKCONF_SEED', 'LOCKCONF_SELECTION', 'LOCKCONF_TARGET_FILE', 'LOCKCONF_EXPECT_FILE',
  'LOCKCONF_RECEIVER_URL', 'LOCKCONF_RECEIVER_EXPLICIT', 'LOCKCONF_NO_ALLURE',
  // Signs the package after the run; changes nothing the run does (and a replay is never certified).
  'LOCKCONF_SIGNING_KEY',
]);

/** Options that are the scope, the seed or the output, replayed otherwise or not behaviour at all. */
const HANDLED_OPTIONS = new Set(['--seed', '--only', '--out', '--target', '--receiver', '--client', '--expect', '--no-allure', '--allure', '--allow-incomplete', '--timings', '--certify', '--list', '--strict']);

const SECRET_VALUE = '(set)';

/** LOCKCONF_MOCK_OPTIONS as recorded: its credentials blanked to "(set)"; the replay's mock makes its own. */
function withoutBlankedCredentials(value: string): string {
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>;
    if (parsed && typeof parsed === 'object' && parsed.credentials === SECRET_VALUE) delete parsed.credentials;
    return JSON.stringify(parsed);
  } catch {
    return value;
  }
}

function settingsFrom(settings: readonly ProvenanceSetting[], ctx: ReplayContext, plan: ReplayPlan): void {
  const skip = new Set([...INTERNAL, ...ctx.profileVariables]);
  for (const s of settings) {
    if (s.name.startsWith('-')) {
      if (s.changed && !HANDLED_OPTIONS.has(s.name)) plan.warnings.push(`the option ${s.name}${s.value === null ? '' : `=${s.value}`} is not replayed`);
      continue;
    }
    if (skip.has(s.name)) continue;
    if (s.changed && s.value === SECRET_VALUE) {
      if (ctx.env[s.name] === undefined) plan.warnings.push(`${s.name} was set for the original (a secret: not recorded); set it again for a faithful replay`);
      continue;
    }
    if (s.changed) {
      plan.env[s.name] = s.name === 'LOCKCONF_MOCK_OPTIONS' && s.value !== null ? withoutBlankedCredentials(s.value) : s.value;
      plan.applied.push(s.value === null ? `${s.name} unset` : `${s.name}=${s.value}`);
    } else if (ctx.env[s.name] !== undefined) {
      plan.env[s.name] = null;
      plan.applied.push(`${s.name} unset (the original ran with its default)`);
    }
  }
}

function sourceWarnings(run: LoadedRun, ctx: ReplayContext): string[] {
  const out: string[] = [];
  const p = run.provenance;
  const source = p?.suite?.source;
  if (!p) {
    out.push(`${run.file} records no provenance (an older lockconf): the original's suite source, spec and settings other than the weakening ones are unknown`);
    if (run.result.tool.version !== ctx.running.version) out.push(`the suite's version differs: the original ran lockconf ${run.result.tool.version}, this is ${ctx.running.version}`);
    return out;
  }
  if (source?.kind === 'git' && source.commit !== ctx.running.commit) {
    out.push(`the suite's source differs: the original ran ${describeSource(source)}, this is ${ctx.running.commit ? `git commit ${ctx.running.commit.slice(0, 12)}` : 'not a git clone'}`);
  } else if (source?.kind === 'git' && source.clean === false) {
    out.push(`the original ran from a modified tree (${describeSource(source)}): its code may differ from this commit's`);
  } else if (source?.kind === 'package' && (ctx.running.commit || (p.suite?.version && p.suite.version !== ctx.running.version))) {
    out.push(`the suite's source differs: the original ran lockconf ${p.suite?.version ?? '?'} from ${describeSource(source)}, this is ${ctx.running.commit ? `git commit ${ctx.running.commit.slice(0, 12)}` : `lockconf ${ctx.running.version}`}`);
  }
  if (p.spec?.sha256 && ctx.running.specSha256 && p.spec.sha256 !== ctx.running.specSha256) {
    out.push(`the spec text differs from the one the original was judged against (sha256 ${p.spec.sha256.slice(0, 12)}… recorded, ${ctx.running.specSha256.slice(0, 12)}… here)`);
  }
  return out;
}

export function planReplay(run: LoadedRun, ctx: ReplayContext): ReplayPlan {
  const seed = runSeed(run);
  if (seed === null) {
    throw new CannotReplay(`${run.file}: cannot replay: it records no seed (${run.provenance ? 'provenance.seed and seed are null' : 'no provenance and seed is null'})`);
  }
  const mode = runMode(run);
  const receiverUrl = run.provenance?.target?.receiverUrl ?? run.result.target?.receiverUrl ?? null;
  if (mode === 'receiver' && !receiverUrl) throw new CannotReplay(`${run.file}: cannot replay: a receiver run that records no receiver URL (provenance.target.receiverUrl, target.receiverUrl)`);
  const mock = run.provenance?.target?.mock ?? run.result.target?.mock ?? false;
  if (mode === 'service' && !mock && !ctx.profileGiven) {
    const where = run.provenance?.target?.baseUrl ?? run.result.target?.baseUrl ?? 'a target other than the embedded mock';
    throw new CannotReplay(`${run.file}: cannot replay without a profile: the original judged ${where}, not the embedded mock; give its profile again with --target FILE (secrets are never recorded)`);
  }
  const only = runScope(run);
  const plan: ReplayPlan = {
    mode, seed, only, receiverUrl, mock, env: {}, expectContent: null, expectFile: null,
    allure: run.result.links ? run.result.links.allure !== null : false, applied: [], warnings: sourceWarnings(run, ctx),
  };
  if (mode === 'service' && mock && ctx.profileGiven) plan.warnings.push('the original ran on the embedded mock; this replay judges the target of the profile given');
  if (run.provenance?.settings) {
    settingsFrom(run.provenance.settings, ctx, plan);
  } else {
    // An older file: the settings that weakened it are all that is known (--expect is replayed below).
    for (const w of run.result.selection?.weakenedBy ?? []) {
      if (!/^LOCKCONF_[A-Z0-9_]+$/.test(w.setting)) continue;
      plan.env[w.setting] = w.value;
      plan.applied.push(`${w.setting}=${w.value}`);
    }
  }
  const expectations = run.provenance?.expectations;
  if (expectations) {
    plan.expectContent = { file: expectations.file, content: expectations.content };
    plan.applied.push(`the expect file's recorded content (${expectations.file})`);
  } else if (expectations === undefined && run.result.expect?.file) {
    plan.expectFile = run.result.expect.file;
  }
  return plan;
}

/** "service run, seed 7, 3 requirement(s) (--only), settings: …" */
export function describePlan(plan: ReplayPlan): string {
  const parts = [
    plan.mode === 'receiver' ? `receiver run against ${plan.receiverUrl}` : plan.mode === 'client' ? 'client grading' : `service run${plan.mock ? ' on the embedded mock' : ''}`,
    `seed ${plan.seed}`,
    plan.only ? `${plan.only.length} requirement(s) (--only)` : 'the full scope',
    plan.applied.length ? `with ${plan.applied.join(', ')}` : 'no changed settings',
  ];
  return parts.join(', ');
}
