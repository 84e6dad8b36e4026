/**
 * Crafted runs for the comparison tests: a conformance.json reduced to what
 * compare reads, requirements as data (`ID: status`, slices as `dim=value: status`).
 */
import type { LoadedRun } from '../../../harness/compare/load.js';
import type { ConformanceResult } from '../../../harness/report/result-file.js';
import type { RunInputs } from '../../../harness/run/generated-inputs.js';

export interface Req {
  level?: 'MUST' | 'SHOULD' | 'INFO';
  status: string;
  reason?: string;
  slices?: Record<string, string>;
}

export function run(
  requirements: Record<string, Req | string>,
  extra: { verdict?: string; seed?: number | null; only?: string[] | null; provenance?: Record<string, unknown>; inputs?: RunInputs | null; mock?: boolean; version?: string; label?: string } = {},
): LoadedRun {
  const result = {
    tool: { name: 'lockconf', version: extra.version ?? '0.1.0' },
    target: { authUrl: null, baseUrl: null, mock: extra.mock ?? true },
    startedAt: '2026-11-26T09:00:00.000Z',
    finishedAt: '2026-11-26T09:00:10.000Z',
    seed: extra.seed === undefined ? 7 : extra.seed,
    verdict: extra.verdict ?? 'conformant',
    counts: { passed: 0, failed: 0, warned: 0, notTested: 0, informational: 0, blocked: 0, expectedFailures: 0 },
    requirements: Object.entries(requirements).map(([id, spec]) => {
      const r: Req = typeof spec === 'string' ? { status: spec } : spec;
      return {
        id, level: r.level ?? 'MUST', area: 'Area', section: 'Section', source: 'spec', rule: 'rule', status: r.status, reason: r.reason ?? '', tests: [], observations: [],
        ...(r.slices ? { slices: Object.entries(r.slices).map(([slice, status]) => ({ slice, status, tests: [] })) } : {}),
      };
    }),
    selection: { only: extra.only ?? null, partial: false },
    expect: null,
    tests: [],
    links: { index: 'index.html', junit: 'junit.xml', allure: null },
    errors: [],
  } as unknown as ConformanceResult;
  const label = extra.label ?? '/runs/x';
  return {
    label,
    file: `${label}/conformance.json`,
    dir: label,
    result,
    provenance: (extra.provenance ?? null) as LoadedRun['provenance'],
    inputs: extra.inputs ?? null,
  };
}

/** A provenance object of the documented shape (docs: /work/wt/PROVENANCE.md, issue 21), with overrides. */
export function provenance(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: 1,
    suite: { name: 'lockconf', version: '0.1.0', source: { kind: 'git', commit: 'a'.repeat(40), branch: 'main', clean: true } },
    spec: { path: 'docs/spec/lock-access-service.md', sha256: '1'.repeat(64) },
    catalog: { sha256: '2'.repeat(64), requirements: 116 },
    runtime: { node: 'v20.19.0', platform: 'linux', arch: 'x64', os: 'Linux' },
    command: { argv: ['conformance', '--seed', '7'], cwd: '/work' },
    mode: 'service',
    settings: [],
    expectations: null,
    seed: 7,
    scope: { only: null, partial: false, inScope: 116, total: 116 },
    target: { authUrl: null, baseUrl: null, receiverUrl: null, clientId: null, mock: true, profileSha256: null },
    startedAt: '2026-11-26T09:00:00.000Z',
    finishedAt: '2026-11-26T09:00:10.000Z',
    durationMs: 10_000,
    ...over,
  };
}

export function inputs(perTest: Record<string, string>): RunInputs {
  const entries = Object.entries(perTest);
  return {
    digest: entries.map(([n, s]) => `${n}=${s}`).join(';'),
    tests: entries.length,
    values: entries.length * 10,
    perTest: Object.fromEntries(entries.map(([n, s]) => [n, { sha256: s, values: 10 }])),
  };
}
