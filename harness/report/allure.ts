/**
 * The Allure side of a run: complete {runDir}/allure-results, generate
 * {runDir}/allure-report with the Allure 3 CLI, and make the report open with
 * no request to any other host.
 *
 * Why each step:
 * - allure-vitest writes nothing for a test that never ran (filtered out or
 *   skipped before it started), so every not-tested requirement without a result
 *   gets one written here, status skipped, with the reason;
 * - results get the requirement labels (epic = area, feature = section,
 *   story = ID, severity from the level) and, when the test recorded none, its
 *   exchanges and deliveries as steps and attachments;
 * - the Awesome report embeds an analytics script from another host; it is
 *   removed after generation.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Level, Requirement } from '../catalog/index.js';
import type { Exchange } from '../contracts.js';
import type { DeliveryEvidence } from '../run/outcome.js';
import type { RequirementResult } from '../run/verdict.js';
import type { ConformanceResult, TestEvidence } from './result-file.js';
import { runFacts } from './verdict-text.js';
import type { AllureGenerator } from './allure-generator.js';

const run = promisify(execFile);

interface AllureLabel {
  name: string;
  value: string;
}
interface AllureAttachment {
  name: string;
  source: string;
  type: string;
}
interface AllureStep {
  name: string;
  status: string;
  stage: string;
  steps: AllureStep[];
  attachments: AllureAttachment[];
  parameters: unknown[];
  start?: number;
  stop?: number;
}
interface AllureResult {
  uuid: string;
  name: string;
  fullName?: string;
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  stage?: string;
  labels: AllureLabel[];
  links?: unknown[];
  steps?: AllureStep[];
  attachments?: AllureAttachment[];
  parameters?: unknown[];
  start?: number;
  stop?: number;
  [key: string]: unknown;
}

export const SEVERITY: Record<Level, string> = { MUST: 'critical', SHOULD: 'normal', INFO: 'trivial' };

export function requirementLabels(req: { id: string; level: Level; area: string; section: string }): AllureLabel[] {
  return [
    { name: 'epic', value: req.area },
    { name: 'feature', value: req.section },
    { name: 'story', value: req.id },
    { name: 'severity', value: SEVERITY[req.level] },
  ];
}

async function resultFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('-result.json')).map((f) => join(dir, f));
  } catch {
    return [];
  }
}

function idOf(result: AllureResult): string | null {
  const story = result.labels?.find((l) => l.name === 'story')?.value;
  if (story) return story;
  const m = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+):/.exec(result.name ?? '');
  return m ? m[1]! : null;
}

function exchangeText(x: Exchange): string {
  const h = (headers: Record<string, string> | undefined) => Object.entries(headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');
  const req = `${x.request.method} ${x.request.url}\n${h(x.request.headers)}\n\n${x.request.body ?? ''}`;
  const res = x.response ? `${x.response.status}\n${h(x.response.headers)}\n\n${x.response.body ?? ''}` : `no response: ${x.error ?? ''}`;
  return `${req}\n\n---- response ----\n${res}\n`;
}

function deliveryText(d: DeliveryEvidence): string {
  const h = Object.entries(d.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `${d.method} ${d.url}\n${h}\n\n${d.body}\n\n(answered ${d.answeredStatus})\n`;
}

async function attach(dir: string, name: string, text: string): Promise<AllureAttachment> {
  const source = `${randomUUID()}-attachment.txt`;
  await writeFile(join(dir, source), text, 'utf8');
  return { name, source, type: 'text/plain' };
}

/**
 * Add requirement labels, and steps/attachments for the evidence, to the results
 * allure-vitest wrote. Status comes from our outcome, not from Allure's guess
 * (fast-check failures would otherwise read "broken").
 */
export async function enrichResults(dir: string, catalog: readonly Requirement[], tests: readonly TestEvidence[]): Promise<number> {
  const byId = new Map(catalog.map((r) => [r.id, r]));
  const byName = new Map(tests.map((t) => [t.name, t]));
  let changed = 0;
  for (const file of await resultFiles(dir)) {
    let result: AllureResult;
    try {
      result = JSON.parse(await readFile(file, 'utf8')) as AllureResult;
    } catch {
      continue;
    }
    const id = idOf(result);
    const req = id ? byId.get(id) : undefined;
    if (!req) continue;
    result.labels ??= [];
    for (const label of requirementLabels(req)) {
      if (!result.labels.some((l) => l.name === label.name)) result.labels.push(label);
    }
    const test = byName.get(result.name);
    if (test) {
      if (test.state === 'failed' && result.status === 'broken') result.status = 'failed';
      if (!result.attachments?.length && !result.steps?.length) {
        const steps: AllureStep[] = [];
        for (const [i, x] of test.exchanges.entries()) {
          const a = await attach(dir, `exchange ${i + 1}: ${x.request.method} ${x.request.url}`, exchangeText(x));
          steps.push({ name: `${x.request.method} ${x.request.url} → ${x.response?.status ?? 'no response'}`, status: 'passed', stage: 'finished', steps: [], attachments: [a], parameters: [] });
        }
        const attachments: AllureAttachment[] = [];
        for (const [i, d] of test.deliveries.entries()) attachments.push(await attach(dir, `delivery ${i + 1} (${d.inbox})`, deliveryText(d)));
        result.steps = steps;
        result.attachments = attachments;
      }
    }
    await writeFile(file, JSON.stringify(result), 'utf8');
    changed++;
  }
  return changed;
}

/**
 * Writes one finished Allure result that lockconf made itself (no test produced it): a
 * not-tested requirement, or the error of a run that could not be carried out.
 */
export async function writeFinishedResult(
  dir: string,
  fields: Pick<AllureResult, 'name' | 'fullName' | 'status' | 'statusDetails' | 'labels'> & Record<string, unknown>,
  now: number,
): Promise<void> {
  const uuid = randomUUID();
  const result: AllureResult = {
    uuid,
    ...fields,
    stage: 'finished',
    labels: [...fields.labels, { name: 'framework', value: 'lockconf' }],
    links: [],
    steps: [],
    attachments: [],
    parameters: [],
    start: now,
    stop: now,
  };
  await writeFile(join(dir, `${uuid}-result.json`), JSON.stringify(result), 'utf8');
}

/** A .properties value or key: backslashes, line breaks and (in keys) separators escaped. */
function propertiesText(text: string, key = false): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n');
  return key ? escaped.replace(/([=:\s])/g, '\\$1') : escaped;
}

/**
 * allure-results/environment.properties: the run's verdict, scope and weakening
 * settings (verdict-text.ts runFacts), shown in the Allure report's environment.
 */
export async function writeAllureEnvironment(dir: string, result: ConformanceResult): Promise<void> {
  const lines = runFacts(result).map(([k, v]) => `${propertiesText(k, true)}=${propertiesText(v)}`);
  await writeFile(join(dir, 'environment.properties'), `${lines.join('\n')}\n`, 'utf8');
}

/** A skipped result for every not-tested requirement that has no result yet. */
export async function writeNotTestedResults(dir: string, requirements: readonly RequirementResult[], now = Date.now()): Promise<number> {
  const present = new Set<string>();
  for (const file of await resultFiles(dir)) {
    try {
      const id = idOf(JSON.parse(await readFile(file, 'utf8')) as AllureResult);
      if (id) present.add(id);
    } catch {
      /* a partly written result: ignore */
    }
  }
  let written = 0;
  for (const r of requirements) {
    if (r.status !== 'not-tested' || present.has(r.id)) continue;
    await writeFinishedResult(dir, {
      name: `${r.id}: not tested`,
      fullName: `lockconf#${r.id}`,
      historyId: r.id,
      testCaseId: r.id,
      status: 'skipped',
      statusDetails: { message: r.reason },
      description: r.rule,
      labels: requirementLabels(r),
    }, now);
    written++;
  }
  return written;
}

/** Remove every script, link or iframe that loads from another host. Returns the cleaned HTML. */
export function stripExternalRequests(html: string): string {
  const external = /^\s*(?:https?:)?\/\//i;
  let out = html.replace(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi, (whole, attrs: string, body: string) => {
    const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (src && external.test(src)) return '';
    // The analytics bootstrap that goes with the removed script.
    if (/\bgtag\s*\(|dataLayer/.test(body)) return '';
    return whole;
  });
  out = out.replace(/<link\b[^>]*>/gi, (tag) => {
    const href = /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
    return href && external.test(href) ? '' : tag;
  });
  out = out.replace(/<iframe\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\/[^>]*>[\s\S]*?<\/iframe>/gi, '');
  return out;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(full)));
    else if (entry.name.endsWith('.html')) out.push(full);
  }
  return out;
}

/** The Allure CLI: beside the project (a clone), or wherever node resolves `allure` from here (an installed package). */
export function allureCli(root: string): string {
  const local = join(root, 'node_modules', 'allure', 'cli.js');
  if (existsSync(local)) return local;
  return join(dirname(createRequire(import.meta.url).resolve('allure')), '..', 'cli.js');
}

/**
 * `allure generate` (Allure 3, Awesome report) from {runDir}/allure-results
 * into {runDir}/allure-report, then strip outside requests from its pages.
 */
export async function generateAllureReport(opts: {
  runDir: string;
  root: string;
  name?: string;
  timeoutMs?: number;
  /** The generator started ahead of time (allure-generator.ts); the Allure CLI runs when there is none or it fails. */
  generator?: AllureGenerator | null;
}): Promise<string> {
  const runDir = resolve(opts.runDir);
  const output = join(runDir, 'allure-report');
  const configDir = await mkdtemp(join(tmpdir(), 'lockconf-allure-'));
  const config = join(configDir, 'allurerc.json');
  try {
    await writeFile(
      config,
      JSON.stringify({ name: opts.name ?? 'lockconf conformance', output, plugins: { awesome: { options: { reportName: opts.name ?? 'lockconf conformance', singleFile: false, groupBy: ['epic', 'feature', 'story'] } } } }),
      'utf8',
    );
    const timeout = opts.timeoutMs ?? 120_000;
    let done = false;
    if (opts.generator) {
      try {
        await opts.generator.generate({ cwd: runDir, config, resultsDir: join(runDir, 'allure-results'), output }, timeout);
        done = true;
      } catch {
        // The CLI below gets its turn, and names the cause if it fails too.
      }
    }
    if (!done) {
      const cli = allureCli(opts.root);
      await run(process.execPath, [cli, 'generate', '--config', config, '--cwd', runDir, join(runDir, 'allure-results'), '--output', output], {
        cwd: runDir,
        timeout,
        env: { ...process.env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1' },
      });
    }
  } finally {
    await rm(configDir, { recursive: true, force: true });
  }
  for (const file of await htmlFiles(output)) {
    const html = await readFile(file, 'utf8');
    const clean = stripExternalRequests(html);
    if (clean !== html) await writeFile(file, clean, 'utf8');
  }
  return join(output, 'index.html');
}
