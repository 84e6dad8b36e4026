/**
 * The reports of a run that could not be carried out (interfaces.md §3): a bad
 * profile, an unreachable target, credentials refused at preflight, a global
 * setup that failed. The four report files are written all the same, with
 * `"verdict": "error"` and `"error": {code, message}`, so a CI job that uploads
 * the report shows why, and reports/latest points at this run, not an older one.
 * Every requirement is listed as not tested.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { CATALOG, type Requirement } from '../catalog/index.js';
import type { RequirementResult } from '../run/verdict.js';
import { generateAllureReport, writeAllureEnvironment, writeFinishedResult, writeNotTestedResults } from './allure.js';
import { renderIndexHtml } from './index-html.js';
import { renderJunit } from './junit.js';
import type { ConformanceResult, RunError } from './result-file.js';
import type { Weakening } from '../run/weakening.js';
import { completeProvenance, runProvenance } from '../provenance/collect.js';

export interface ErrorRunInfo {
  version: string;
  error: RunError;
  target?: { authUrl: string | null; baseUrl: string | null; mock: boolean } | null;
  startedAt: string;
  finishedAt?: string;
  seed?: number | null;
  only?: string[] | null;
  allure: boolean;
  catalog?: readonly Requirement[];
  /** Settings that weakened the run (run/weakening.ts): named in the reports even of a run that could not start. */
  weakenedBy?: Weakening[];
}

export function buildErrorResult(info: ErrorRunInfo): ConformanceResult {
  const catalog = info.catalog ?? CATALOG;
  const reason = `not run: the run could not be carried out (${info.error.code})`;
  const requirements: RequirementResult[] = catalog.map((req) => ({
    id: req.id,
    level: req.level,
    area: req.area,
    section: req.section,
    source: req.source,
    rule: req.rule,
    status: 'not-tested',
    reason,
    tests: [],
    observations: [],
  }));
  return {
    tool: { name: 'lockconf', version: info.version },
    target: info.target ?? { authUrl: null, baseUrl: null, mock: false },
    startedAt: info.startedAt,
    finishedAt: info.finishedAt ?? new Date().toISOString(),
    seed: info.seed ?? null,
    verdict: 'error',
    error: info.error,
    counts: { passed: 0, failed: 0, warned: 0, notTested: requirements.length, informational: 0, blocked: 0, expectedFailures: 0 },
    requirements,
    selection: {
      only: info.only ?? null,
      partial: !!info.only || !!info.weakenedBy?.length,
      inScope: info.only ? info.only.length : catalog.length,
      total: catalog.length,
      weakenedBy: info.weakenedBy ?? [],
    },
    expect: null,
    tests: [],
    links: { index: 'index.html', junit: 'junit.xml', allure: info.allure ? 'allure-report/index.html' : null },
    errors: [`${info.error.code}: ${info.error.message}`],
  };
}

/** A broken Allure result that carries the error, beside the not-tested ones. */
async function writeAllureError(dir: string, error: RunError, now: number): Promise<void> {
  await writeFinishedResult(dir, {
    name: `${error.code}: the run could not be carried out`,
    fullName: 'lockconf#run',
    historyId: 'lockconf-run',
    status: 'broken',
    statusDetails: { message: error.message },
    labels: [{ name: 'epic', value: 'lockconf run' }, { name: 'severity', value: 'blocker' }],
  }, now);
}

/** Writes conformance.json, index.html, junit.xml and (unless allure is off) the Allure results and report. */
export async function writeErrorReport(opts: { runDir: string; root: string; info: ErrorRunInfo }): Promise<ConformanceResult> {
  const result = buildErrorResult(opts.info);
  const provenance = runProvenance(); // registered by the CLI (harness/provenance/collect.ts)
  if (provenance) result.provenance = completeProvenance(provenance, result);
  await mkdir(opts.runDir, { recursive: true });
  await writeFileAtomic(join(opts.runDir, 'conformance.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFileAtomic(join(opts.runDir, 'index.html'), renderIndexHtml(result));
  await writeFileAtomic(join(opts.runDir, 'junit.xml'), renderJunit(result));
  if (opts.info.allure) {
    try {
      const dir = join(opts.runDir, 'allure-results');
      await mkdir(dir, { recursive: true });
      const now = Date.now();
      await writeAllureError(dir, opts.info.error, now);
      await writeNotTestedResults(dir, result.requirements, now);
      await writeAllureEnvironment(dir, result);
      await generateAllureReport({ runDir: opts.runDir, root: opts.root });
    } catch {
      // The other three files carry the error; the drill-down is a convenience.
      result.links.allure = null;
      await writeFileAtomic(join(opts.runDir, 'conformance.json'), `${JSON.stringify(result, null, 2)}\n`);
      await writeFileAtomic(join(opts.runDir, 'index.html'), renderIndexHtml(result));
    }
  }
  return result;
}
