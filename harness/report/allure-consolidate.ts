/**
 * One Allure result per requirement, built from the run's result (the same
 * statuses and counts as conformance.json, index.html, junit.xml and the
 * terminal), with the evidence allure-vitest recorded per test moved under it.
 *
 * Without this, Allure counts tests, not requirements: a requirement with two
 * tests counts twice, a test that fails because of another requirement's check
 * shows as a failure of its own ID, and a requirement checked only inside other
 * tests has no result at all.
 *
 * Status: passed → passed, informational → passed, failed → failed,
 * warned → broken (a SHOULD not met), not tested → skipped.
 *
 * Steps are named by what they check: one step per test that touched the
 * requirement ("OAUTH-STATE-ECHO: state comes back unchanged … → failed"),
 * holding its HTTP exchanges and deliveries; allure-vitest's matcher steps
 * ("expect(200).toBe(200)") are folded into one "assertions" step, with the
 * failed ones named by their message.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Requirement } from '../catalog/index.js';
import type { RequirementStatus } from '../run/outcome.js';
import type { RequirementResult } from '../run/verdict.js';
import { requirementLabels } from './allure.js';
import { requirementTitle } from './junit.js';
import type { ConformanceResult, TestEvidence } from './result-file.js';

export const ALLURE_STATUS: Record<RequirementStatus, string> = {
  passed: 'passed',
  informational: 'passed',
  failed: 'failed',
  warned: 'broken',
  'not-tested': 'skipped',
  blocked: 'skipped',
};

interface Step {
  name: string;
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  stage?: string;
  steps?: Step[];
  attachments?: Array<{ name: string; source: string; type: string }>;
  parameters?: unknown[];
  start?: number;
  stop?: number;
}

interface Result extends Step {
  uuid: string;
  fullName?: string;
  labels?: Array<{ name: string; value: string }>;
  [key: string]: unknown;
}

const MATCHER = /^expect\(/;

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
}

/** A test's steps as evidence: its exchanges and attachments kept, matcher steps folded into one. */
function evidenceSteps(steps: readonly Step[]): Step[] {
  const matchers = steps.filter((s) => MATCHER.test(s.name));
  const others = steps.filter((s) => !MATCHER.test(s.name) && s.name !== 'outcomes');
  const failed = matchers.filter((s) => s.status && s.status !== 'passed');
  const out = [...others];
  if (matchers.length) {
    out.unshift({
      name: failed.length ? `assertions: ${failed.length} of ${matchers.length} failed` : `assertions: all ${matchers.length} held`,
      status: failed.length ? 'failed' : 'passed',
      stage: 'finished',
      steps: [
        ...failed.map((s) => ({ ...s, name: `failed: ${firstLine(s.statusDetails?.message) || s.name}`.slice(0, 300) })),
        ...matchers.filter((s) => !failed.includes(s)),
      ],
      attachments: [],
      parameters: [],
      ...(matchers[0]?.start !== undefined ? { start: matchers[0].start } : {}),
      ...(matchers.at(-1)?.stop !== undefined ? { stop: matchers.at(-1)!.stop } : {}),
    });
  }
  return out;
}

/** The outcome a test recorded for one requirement (its own status when it has none). */
function outcomeIn(test: TestEvidence, id: string): { status: RequirementStatus; reason?: string } {
  const o = test.outcomes.find((x) => x.id === id);
  if (o) return o.reason === undefined ? { status: o.status } : { status: o.status, reason: o.reason };
  return { status: test.state === 'failed' ? 'failed' : test.state === 'passed' ? 'passed' : 'not-tested' };
}

function stepFor(r: RequirementResult, test: TestEvidence, recorded: Result | undefined): Step {
  const own = test.requirement === r.id;
  const outcome = outcomeIn(test, r.id);
  const title = test.name.slice(test.name.indexOf(':') + 1).trim();
  const name = own
    ? `${r.id}: ${title} → ${outcome.status}`
    : `checked within ${test.requirement ?? test.name.split(':')[0]}: ${title} → ${outcome.status}`;
  return {
    name,
    status: ALLURE_STATUS[outcome.status],
    ...(outcome.reason ? { statusDetails: { message: outcome.reason } } : {}),
    stage: 'finished',
    steps: evidenceSteps(recorded?.steps ?? []),
    attachments: recorded?.attachments ?? [],
    parameters: [],
    ...(recorded?.start !== undefined ? { start: recorded.start } : {}),
    ...(recorded?.stop !== undefined ? { stop: recorded.stop } : {}),
  };
}

async function readResults(dir: string): Promise<Array<{ file: string; result: Result }>> {
  const out: Array<{ file: string; result: Result }> = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => n.endsWith('-container.json'))) await rm(join(dir, name), { force: true });
  for (const name of names.filter((n) => n.endsWith('-result.json'))) {
    try {
      out.push({ file: join(dir, name), result: JSON.parse(await readFile(join(dir, name), 'utf8')) as Result });
    } catch {
      /* a partly written result: dropped with the others */
    }
  }
  return out;
}

/**
 * Replaces the per-test results in `dir` with one result per requirement of
 * `result`. Attachment files stay where they are and are referenced from the
 * new results. Returns how many results were written.
 */
export async function consolidateResults(dir: string, result: ConformanceResult, catalog: readonly Requirement[], now = Date.now()): Promise<number> {
  const recorded = await readResults(dir);
  const byName = new Map(recorded.map(({ result: r }) => [r.name, r]));
  const tests = new Map(result.tests.map((t) => [t.name, t]));
  const rules = new Map(catalog.map((r) => [r.id, r]));
  let written = 0;
  for (const r of result.requirements) {
    const touching = r.tests.map((n) => tests.get(n)).filter((t): t is TestEvidence => !!t);
    const steps = touching.map((t) => stepFor(r, t, byName.get(t.name)));
    const starts = steps.map((s) => s.start).filter((n): n is number => typeof n === 'number');
    const stops = steps.map((s) => s.stop).filter((n): n is number => typeof n === 'number');
    const own = touching.map((t) => byName.get(t.name)).find((x) => x && touching.some((t) => t.name === x.name && t.requirement === r.id));
    const uuid = randomUUID();
    const level = rules.get(r.id)?.level ?? r.level;
    const out: Result = {
      uuid,
      name: `${r.id}: ${requirementTitle(r, result.tests)}`,
      fullName: `lockconf#${r.id}`,
      historyId: r.id,
      testCaseId: r.id,
      status: ALLURE_STATUS[r.status],
      statusDetails: r.reason ? { message: `${r.status === 'not-tested' ? 'not tested' : r.status}${r.expected ? ' (expected, --expect)' : ''}: ${r.reason}` } : {},
      stage: 'finished',
      description: `**${r.id}** (${level}, ${r.source}: ${r.section})\n\n> ${r.rule}`,
      labels: [
        ...requirementLabels(r),
        { name: 'tag', value: level },
        { name: 'tag', value: r.status },
        { name: 'framework', value: 'lockconf' },
        ...(own?.labels ?? []).filter((l) => ['host', 'thread', 'package', 'parentSuite'].includes(l.name)),
      ],
      links: [],
      steps,
      attachments: [],
      parameters: [{ name: 'level', value: level }, { name: 'status', value: r.status }],
      start: starts.length ? Math.min(...starts) : now,
      stop: stops.length ? Math.max(...stops) : now,
    };
    await writeFile(join(dir, `${uuid}-result.json`), JSON.stringify(out), 'utf8');
    written++;
  }
  for (const { file } of recorded) await rm(file, { force: true });
  return written;
}
