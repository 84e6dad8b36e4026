/**
 * The verdict of a result file, worked out again from its own test evidence and
 * the catalog of the verifying lockconf (levels, untestable requirements: from
 * the catalog, never from the file), by the same rules the run used
 * (run/verdict.ts computeVerdict). Every place the file says something else is
 * one finding that names it: an edited verdict, a requirement moved between
 * statuses, a deleted failure, a requirement missing from the list.
 */
import { CATALOG, CLIENT_CATALOG, RECEIVER_CATALOG, SERVICE_CATALOG, type Requirement } from '../catalog/index.js';
import { catalogDigest } from '../provenance/hashes.js';
import type { RunMode } from '../provenance/types.js';
import type { ConformanceResult } from '../report/result-file.js';
import { computeVerdict, idFromTestName, type Counts, type TestRecord } from '../run/verdict.js';

const CATALOG_OF: Record<RunMode, readonly Requirement[]> = { service: SERVICE_CATALOG, receiver: RECEIVER_CATALOG, client: CLIENT_CATALOG };

export interface Rederivation {
  /** Mismatches between the file and its re-derivation (empty: consistent). */
  findings: string[];
  /** Remarks that do not make the file invalid (a different suite version). */
  notes: string[];
  /** Set when the re-derivation could not be made (exit 2). */
  cannot: string | null;
  verdict: ConformanceResult['verdict'] | null;
}

/** The catalog to judge with: this lockconf's, when the recorded one is the same (or differs nowhere that matters to this mode). */
function catalogFor(result: ConformanceResult, mode: RunMode, notes: string[]): { catalog: readonly Requirement[] } | { cannot: string } {
  const mine = CATALOG_OF[mode];
  const recorded = result.provenance?.catalog.sha256;
  if (recorded === catalogDigest(CATALOG)) return { catalog: mine };
  notes.push(`the run was judged against another requirement catalog (sha256 ${recorded ?? 'unknown'}) than this lockconf's (${catalogDigest(CATALOG)}): a different suite version`);
  const fileIds = new Set((result.requirements ?? []).map((r) => r.id));
  const myIds = new Set(mine.map((r) => r.id));
  const onlyMine = [...myIds].filter((id) => !fileIds.has(id));
  const onlyFile = [...fileIds].filter((id) => !myIds.has(id));
  const levels = mine.filter((r) => result.requirements.some((x) => x.id === r.id && x.level !== r.level)).map((r) => r.id);
  if (onlyMine.length || onlyFile.length || levels.length) {
    const parts = [onlyMine.length ? `${onlyMine.length} requirement(s) only in this catalog (${onlyMine.slice(0, 3).join(', ')})` : '', onlyFile.length ? `${onlyFile.length} only in the file (${onlyFile.slice(0, 3).join(', ')})` : '', levels.length ? `${levels.length} with another level (${levels.slice(0, 3).join(', ')})` : ''].filter(Boolean);
    const v = result.provenance?.suite.version;
    return { cannot: `the verdict cannot be re-derived with this lockconf's catalog: ${parts.join('; ')}; verify with the lockconf the run used${v ? ` (${v}${result.provenance?.suite.source.kind === 'git' ? `, commit ${result.provenance.suite.source.commit.slice(0, 12)}` : ''})` : ''}` };
  }
  notes.push(`the ${mode} requirements and their levels are the same in both catalogs: the verdict is re-derived with this lockconf's`);
  return { catalog: mine };
}

/** A test of the result file as the reporter recorded it (the fields the verdict reads: state, requirement, outcomes). */
function asRecord(t: ConformanceResult['tests'][number]): TestRecord {
  const record: TestRecord = { name: t.name, ...(t.file ? { file: t.file } : {}), state: t.state };
  if (t.requirement || t.outcomes?.length) {
    record.meta = { requirement: t.requirement ?? idFromTestName(t.name) ?? '', outcomes: t.outcomes ?? [], observations: [], exchanges: [], deliveries: [], ...(t.unfinished ? { unfinished: t.unfinished } : {}) };
  }
  if (t.confirmation) record.confirmation = t.confirmation;
  return record;
}

const COUNT_KEYS: ReadonlyArray<keyof Counts> = ['passed', 'failed', 'warned', 'notTested', 'informational', 'blocked', 'expectedFailures'];

export function rederive(result: ConformanceResult): Rederivation {
  const findings: string[] = [];
  const notes: string[] = [];
  const mode = result.provenance?.mode;
  if (!mode || !(mode in CATALOG_OF)) return { findings, notes, cannot: 'conformance.json does not say which requirements it judged (no provenance.mode)', verdict: null };
  const choice = catalogFor(result, mode, notes);
  if ('cannot' in choice) return { findings, notes, cannot: choice.cannot, verdict: null };
  const catalog = choice.catalog;
  if (!Array.isArray(result.requirements) || !Array.isArray(result.tests)) return { findings: ['conformance.json has no requirements or tests list'], notes, cannot: null, verdict: null };
  if (result.selection?.only || result.selection?.partial) findings.push('the run is narrowed or weakened (selection), which a certified run never is');
  if (result.expect) findings.push(`the run names an --expect file (${result.expect.file}), which a certified run never has`);

  const only = result.selection?.only;
  const derived = computeVerdict({ catalog, tests: result.tests.map(asRecord), selected: only ? new Set(only) : null, expected: null, weakenedBy: [] });
  const testNames = new Set(result.tests.map((t) => t.name));
  const recorded = new Map<string, ConformanceResult['requirements'][number]>();
  for (const r of result.requirements) {
    if (recorded.has(r.id)) findings.push(`${r.id}: listed twice in the requirements`);
    recorded.set(r.id, r);
  }
  const known = new Set(catalog.map((r) => r.id));
  for (const id of recorded.keys()) if (!known.has(id)) findings.push(`${id}: in the requirements list, but not a ${mode} requirement of the catalog`);
  for (const want of derived.requirements) {
    const got = recorded.get(want.id);
    if (!got) {
      findings.push(`${want.id}: missing from the requirements list (its test evidence says ${want.status})`);
      continue;
    }
    if (got.level !== want.level) findings.push(`${want.id}: level ${got.level} in the file, ${want.level} in the catalog`);
    if (got.status !== want.status) findings.push(`${want.id}: recorded as ${got.status}, but its test evidence says ${want.status}`);
    for (const name of got.tests ?? []) if (!testNames.has(name)) findings.push(`${want.id}: names the test "${name}", which is not in the test evidence (deleted?)`);
  }
  for (const key of COUNT_KEYS) {
    if (result.counts?.[key] !== derived.counts[key]) findings.push(`counts.${key}: recorded ${String(result.counts?.[key])}, re-derived ${derived.counts[key]}`);
  }
  if (result.verdict !== derived.verdict) findings.push(`verdict: recorded ${result.verdict}, but the requirements' test evidence gives ${derived.verdict}`);
  return { findings, notes, cannot: null, verdict: derived.verdict };
}
