/**
 * One source of truth: on a failing run, the terminal, index.html, the Allure
 * results, junit.xml and conformance.json name the same failed and warned
 * requirements and the same counts.
 *
 * The run: the embedded mock with the fault refresh-error-not-oauth, scoped to
 * REFRESH-* so it is quick. It makes REFRESH-ERROR-RESPONSE fail inside other
 * tests (t.check), the case where reports used to disagree, and warns
 * REFRESH-ERROR-INVALID-GRANT (a SHOULD). The run is one other files read too
 * (test/support/shared-runs.ts: refresh-fault).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResult } from '../../../harness/report/result-file.js';
import { sharedRun, type SharedRun } from '../../support/shared-runs.js';

let dir: string;
let run: SharedRun;
let result: ConformanceResult;

interface Tally {
  failed: string[];
  warned: string[];
  counts: { passed: number; failed: number; warned: number; notTested: number; informational: number };
}

const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort();

beforeAll(async () => {
  run = await sharedRun('refresh-fault');
  dir = run.dir;
  result = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8')) as ConformanceResult;
}, 240_000);

function fromJson(): Tally {
  const c = result.counts;
  return {
    failed: sorted(result.requirements.filter((r) => r.status === 'failed').map((r) => r.id)),
    warned: sorted(result.requirements.filter((r) => r.status === 'warned').map((r) => r.id)),
    counts: { passed: c.passed, failed: c.failed, warned: c.warned, notTested: c.notTested, informational: c.informational },
  };
}

function fromTerminal(out: string): Tally {
  const m = /(\d+) passed, (\d+) failed(?: \(\d+ expected\))?, (\d+) warned, (\d+) not tested, (\d+) informational/.exec(out);
  expect(m, out.slice(-2000)).not.toBeNull();
  const [passed, failed, warned, notTested, informational] = m!.slice(1).map(Number) as [number, number, number, number, number];
  // Every ID a per-test line shows as FAILED or warned, and the summary's lists.
  const lineIds = (symbol: string) => [...out.matchAll(new RegExp(`${symbol}\\s+([A-Z][A-Z0-9-]+)`, 'g'))].map((x) => x[1]!);
  const listed = (word: string) => [...out.matchAll(new RegExp(`^ {2}${word}: ([A-Z][A-Z0-9-]+)`, 'gm'))].map((x) => x[1]!);
  expect(sorted(lineIds('✗ FAILED'))).toEqual(sorted(listed('failed')));
  expect(sorted(lineIds('! warned'))).toEqual(sorted(listed('warned')));
  return { failed: sorted(listed('failed')), warned: sorted(listed('warned')), counts: { passed, failed, warned, notTested, informational } };
}

function fromHtml(html: string): Tally {
  const count = (status: string) => Number(new RegExp(`data-status="${status}"><span class="n">(\\d+)<`).exec(html)?.[1]);
  const articles = (status: string) => [...html.matchAll(new RegExp(`<article class="req st-${status}" id="req-([A-Z0-9-]+)"`, 'g'))].map((x) => x[1]!);
  for (const status of ['passed', 'failed', 'warned', 'not-tested', 'informational']) expect(articles(status).length, status).toBe(count(status));
  return {
    failed: sorted(articles('failed')),
    warned: sorted(articles('warned')),
    counts: { passed: count('passed'), failed: count('failed'), warned: count('warned'), notTested: count('not-tested'), informational: count('informational') },
  };
}

async function fromAllure(resultsDir: string): Promise<Tally & { total: number }> {
  const results: Array<{ name: string; status: string; parameters?: Array<{ name: string; value: string }> }> = [];
  for (const f of (await readdir(resultsDir)).filter((n) => n.endsWith('-result.json'))) results.push(JSON.parse(await readFile(join(resultsDir, f), 'utf8')));
  const id = (name: string) => name.split(':')[0]!;
  const with_ = (status: string) => results.filter((r) => r.status === status);
  const informational = results.filter((r) => r.parameters?.some((p) => p.name === 'status' && p.value === 'informational')).length;
  return {
    total: results.length,
    failed: sorted(with_('failed').map((r) => id(r.name))),
    warned: sorted(with_('broken').map((r) => id(r.name))),
    counts: { passed: with_('passed').length - informational, failed: with_('failed').length, warned: with_('broken').length, notTested: with_('skipped').length, informational },
  };
}

function fromJunit(xml: string): Tally & { total: number } {
  const attrs = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/.exec(xml)!;
  const cases = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/testcase>/g)];
  const idsWhere = (test: (body: string) => boolean) => sorted(cases.filter((c) => test(c[2]!)).map((c) => c[1]!.split(':')[0]!));
  const status = (s: string) => cases.filter((c) => c[2]!.includes(`name="status" value="${s}"`)).length;
  expect(Number(attrs[2])).toBe(idsWhere((b) => b.includes('<failure')).length);
  expect(Number(attrs[4])).toBe(idsWhere((b) => b.includes('<skipped')).length);
  return {
    total: Number(attrs[1]),
    failed: idsWhere((b) => b.includes('<failure')),
    warned: idsWhere((b) => b.includes('value="warned"')),
    counts: { passed: status('passed'), failed: Number(attrs[2]), warned: status('warned'), notTested: Number(attrs[4]), informational: status('informational') },
  };
}

describe('the five reports of a failing run agree', () => {
  it('the run fails the requirement the fault breaks and warns its SHOULD neighbour', () => {
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(1);
    expect(fromJson().failed).toEqual(['REFRESH-ERROR-RESPONSE']);
    expect(fromJson().warned).toEqual(['REFRESH-ERROR-INVALID-GRANT']);
  });

  it('terminal, index.html, Allure, junit.xml and conformance.json name the same IDs with the same counts', async () => {
    const json = fromJson();
    const terminal = fromTerminal(run.stdout);
    const html = fromHtml(await readFile(join(dir, 'index.html'), 'utf8'));
    const allure = await fromAllure(join(dir, 'allure-results'));
    const junit = fromJunit(await readFile(join(dir, 'junit.xml'), 'utf8'));
    expect(terminal).toEqual(json);
    expect(html).toEqual(json);
    expect({ failed: allure.failed, warned: allure.warned, counts: allure.counts }).toEqual(json);
    expect({ failed: junit.failed, warned: junit.warned, counts: junit.counts }).toEqual(json);
    expect(allure.total).toBe(result.requirements.length);
    expect(junit.total).toBe(result.requirements.length);
  });

  it('junit.xml names every test case by its requirement ID first', async () => {
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
    const names = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((m) => m[1]!);
    expect(names).toHaveLength(result.requirements.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+: /);
  });

  it('Allure steps are named by what they check, not by matcher calls', async () => {
    const resultsDir = join(dir, 'allure-results');
    for (const f of (await readdir(resultsDir)).filter((n) => n.endsWith('-result.json'))) {
      const r = JSON.parse(await readFile(join(resultsDir, f), 'utf8')) as { steps: Array<{ name: string }> };
      for (const step of r.steps) expect(step.name).not.toMatch(/^expect\(/);
    }
  });

  it('the terminal says "not tested" where the reports do, and counts progress', () => {
    expect(run.stdout).not.toMatch(/skipped/);
    expect(run.stdout).toMatch(/^ ?1 of \d+ /m);
  });
});
