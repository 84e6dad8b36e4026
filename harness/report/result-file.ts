/**
 * conformance.json (interfaces.md §3): the verdict file scripts and CI read.
 * The fields of the contract come first; the rest (area, rule, observations,
 * evidence, selection, links) are additions the HTML report is built from.
 */
import { explorationDepth, type ExplorationDepth } from './exploration-depth.js';
import type { RunGuardKind } from '../run/run-guard.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Exchange } from '../contracts.js';
import type { DeliveryEvidence, RequirementOutcome } from '../run/outcome.js';
import type { Unfinished } from '../run/pending-work.js';
import { NOT_SELECTED, type Counts, type RequirementResult, type TestRecord, type TimeoutConfirmation, type Verdict, type VerdictResult } from '../run/verdict.js';
import type { RunTimings } from './timings.js';
import type { Weakening } from '../run/weakening.js';
import { slicesFor, type SliceResult } from '../run/slice-results.js';
import { runInputs, type RunInputs } from '../run/generated-inputs.js';
import type { Provenance } from '../provenance/types.js';

/** What global setup leaves in {runDir}/run-context.json (no secrets). */
export interface RunContext {
  target?: { authUrl?: string; baseUrl?: string; mock?: boolean; receiverUrl?: string };
  /** Flat form, accepted as well. */
  authUrl?: string;
  baseUrl?: string;
  mock?: boolean;
  capabilities?: string[];
  missing?: Record<string, string>;
  seed?: number;
  startedAt?: string;
}

export interface TestEvidence {
  /** Stable anchor in index.html. */
  anchor: string;
  name: string;
  file: string | null;
  state: TestRecord['state'];
  durationMs: number | null;
  requirement: string | null;
  outcomes: RequirementOutcome[];
  exchanges: Exchange[];
  deliveries: DeliveryEvidence[];
  /** The test did not finish within its timeout: what the harness was waiting for (run/pending-work.ts). */
  unfinished?: Unfinished;
  /** The test ran again alone after a timeout, and this is the re-run (commands/confirm-timeouts.ts): both durations. */
  confirmation?: TimeoutConfirmation;
}

export interface ConformanceResult {
  tool: { name: 'lockconf'; version: string };
  target: { authUrl: string | null; baseUrl: string | null; mock: boolean; capabilities?: string[]; missing?: Record<string, string>; receiverUrl?: string };
  startedAt: string;
  finishedAt: string;
  seed: number | null;
  /** Digests of the values the property tests drew with the seed (run/generated-inputs.ts): a replay reproduces them. Additive; absent in older files and error reports. */
  inputs?: RunInputs;
  /** `error`: the run could not be carried out (bad profile, unreachable target, refused credentials); see `error`. */
  verdict: Verdict | 'error';
  /** Set when verdict is `error`: a stable code and the one message that names the likely cause. */
  error?: RunError;
  counts: Counts;
  /** Each requirement with declared or exercised slices also carries them (additive: `slices`). */
  requirements: Array<RequirementResult & { slices?: SliceResult[] }>;
  /**
   * The run's scope: `only` the IDs --only selected; `partial` true when narrowed or weakened;
   * `inScope` of `total` requirements judged; `weakenedBy` the settings that weakened it.
   */
  selection: { only: string[] | null; partial: boolean; inScope?: number; total?: number; weakenedBy?: Weakening[] };
  /** Set when the verdict is `interfered`: what showed that someone else acted on the target. */
  interference?: string;
  /**
   * What guarded the run against another run on its target (harness/run/run-guard.ts): the control
   * protocol's lease, the target's reset count, this machine's lease; empty: none. Absent when the
   * run's target was its own (the embedded mock, a client or receiver grading).
   */
  guards?: RunGuardKind[];
  expect: { file: string; stale: string[] } | null;
  tests: TestEvidence[];
  /** Relative links from the run directory. */
  links: { index: string; junit: string; allure: string | null };
  /** Errors outside any test (global setup, unhandled), scrubbed. */
  errors: string[];
  /** Where the run's time went, phase by phase, up to the reports (report/timings.ts); absent outside the CLI. */
  timings?: RunTimings;
  /** What the run was (suite source, spec and catalog digests, command, settings, target): harness/provenance/. Absent in older files and outside the CLI. */
  provenance?: Provenance;
  /** Set on a certified run (lockconf conformance --certify): who signed, when (harness/certify/). */
  certificate?: Certificate;
  /** How deep the run explored (report/exploration-depth.ts); absent when no exploration ran, and in older files. */
  exploration?: ExplorationDepth;
}

/** The certificate block of a certified run (docs/certification.md). */
export interface Certificate {
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the Ed25519 public key that signed manifest.json. */
  keyFingerprint: string;
  signedAt: string;
  verdict: ConformanceResult['verdict'];
  scope: string;
  mode: Provenance['mode'];
}

/** Why a run could not be carried out (interfaces.md §3). */
export interface RunError {
  code: string;
  message: string;
}

export async function readRunContext(runDir: string): Promise<RunContext | null> {
  try {
    return JSON.parse(await readFile(join(runDir, 'run-context.json'), 'utf8')) as RunContext;
  } catch {
    return null;
  }
}

export async function toolVersion(root: string): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function testAnchor(index: number): string {
  return `test-${index + 1}`;
}

export function buildResult(opts: {
  version: string;
  context: RunContext | null;
  startedAt: string;
  finishedAt: string;
  seed: number | null;
  verdict: VerdictResult;
  tests: readonly TestRecord[];
  only: string[] | null;
  expectFile: string | null;
  /** The run's guards against another run on its target (absent: the target was the run's own). */
  guards?: RunGuardKind[] | null;
  allure: boolean;
  errors?: string[];
}): ConformanceResult {
  const ctx = opts.context ?? {};
  return {
    tool: { name: 'lockconf', version: opts.version },
    target: {
      authUrl: ctx.target?.authUrl ?? ctx.authUrl ?? null,
      baseUrl: ctx.target?.baseUrl ?? ctx.baseUrl ?? null,
      mock: ctx.target?.mock ?? ctx.mock ?? false,
      ...(ctx.target?.receiverUrl ? { receiverUrl: ctx.target.receiverUrl } : {}),
      ...(ctx.capabilities ? { capabilities: ctx.capabilities } : {}),
      ...(ctx.missing ? { missing: ctx.missing } : {}),
    },
    startedAt: ctx.startedAt ?? opts.startedAt,
    finishedAt: opts.finishedAt,
    seed: opts.seed ?? ctx.seed ?? null,
    inputs: runInputs(opts.tests),
    verdict: opts.verdict.verdict,
    counts: opts.verdict.counts,
    requirements: opts.verdict.requirements.map((r) => {
      const slices = r.reason === NOT_SELECTED ? [] : slicesFor(r.id, opts.tests); // outside --only: nothing to say
      return slices.length > 0 ? { ...r, slices } : r;
    }),
    ...((depth) => (depth ? { exploration: depth } : {}))(explorationDepth(opts.verdict.requirements as ReadonlyArray<{ observations?: Array<{ label: string; value: unknown }> }>)),
    selection: { only: opts.only, partial: opts.verdict.partial, inScope: opts.verdict.scope.inScope, total: opts.verdict.scope.total, weakenedBy: opts.verdict.weakenedBy },
    ...(opts.verdict.interference ? { interference: opts.verdict.interference } : {}),
    ...(opts.guards ? { guards: opts.guards } : {}),
    expect: opts.expectFile ? { file: opts.expectFile, stale: opts.verdict.stale } : null,
    tests: opts.tests.map((t, i) => ({
      anchor: testAnchor(i),
      name: t.name,
      file: t.file ?? null,
      state: t.state,
      durationMs: t.durationMs ?? null,
      requirement: t.meta?.requirement ?? null,
      outcomes: t.meta?.outcomes ?? [],
      exchanges: t.meta?.exchanges ?? [],
      deliveries: t.meta?.deliveries ?? [],
      ...(t.meta?.unfinished ? { unfinished: t.meta.unfinished } : {}),
      ...(t.confirmation ? { confirmation: t.confirmation } : {}),
    })),
    links: { index: 'index.html', junit: 'junit.xml', allure: opts.allure ? 'allure-report/index.html' : null },
    errors: opts.errors ?? [],
  };
}
