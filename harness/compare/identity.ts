/**
 * What differs between two runs besides their results, named at the top of a
 * comparison: the suite's source, the spec text and the catalog (from
 * `provenance`), the kind of run, the target, the behaviour-changing settings and
 * the scope. Pure. A file without provenance is named once; its version and
 * weakening settings stand in where they can.
 */
import type { LoadedRun } from './load.js';
import { runMode, runScope } from './load.js';
import { describeSource, sameSource, type Provenance } from './provenance.js';

const short = (hash: string) => `${hash.slice(0, 12)}…`;

/** Options compared elsewhere (seed, scope, target, expect file) or that change no behaviour (where the reports go). */
const IDENTITY_OPTIONS = new Set(['--seed', '--only', '--out', '--target', '--expect', '--no-allure', '--timings', '--certify',
  'LOCKCONF_SIGNING_KEY']); // the signing key signs the package after the run: not a setting of the run

/** The changed settings of a run: recorded in provenance, else the settings that weakened it. */
function changedSettings(run: LoadedRun): Map<string, string> | null {
  if (run.provenance?.settings) return new Map(run.provenance.settings.filter((s) => s.changed).map((s) => [s.name, s.value ?? '(unset)']));
  const weakened = run.result.selection?.weakenedBy;
  return weakened ? new Map(weakened.map((w) => [w.setting, w.value])) : null;
}

function settingsWarning(a: LoadedRun, b: LoadedRun): string | null {
  const x = changedSettings(a);
  const y = changedSettings(b);
  if (!x || !y) return null;
  const names = [...new Set([...x.keys(), ...y.keys()])].sort();
  const differing = names.filter((n) => x.get(n) !== y.get(n) && !IDENTITY_OPTIONS.has(n));
  if (!differing.length) return null;
  return `settings differ: ${differing.map((n) => `${n} ${x.get(n) ?? '(default)'} → ${y.get(n) ?? '(default)'}`).join(', ')}`;
}

function provenanceWarnings(p: Provenance, q: Provenance): string[] {
  const out: string[] = [];
  const same = sameSource(p.suite?.source, q.suite?.source);
  if (same === false) out.push(`suite source differs: A ${describeSource(p.suite?.source)}, B ${describeSource(q.suite?.source)}`);
  else if (p.suite?.version && q.suite?.version && p.suite.version !== q.suite.version) out.push(`suite version differs: A ${p.suite.version}, B ${q.suite.version}`);
  if (p.spec && q.spec && p.spec.sha256 !== q.spec.sha256) out.push(`spec text differs: sha256 A ${short(p.spec.sha256)}, B ${short(q.spec.sha256)}`);
  if (p.catalog && q.catalog && p.catalog.sha256 !== q.catalog.sha256) {
    const n = (c: NonNullable<Provenance['catalog']>) => (c.requirements === undefined ? '' : ` (${c.requirements} requirements)`);
    out.push(`requirement catalog differs: sha256 A ${short(p.catalog.sha256)}${n(p.catalog)}, B ${short(q.catalog.sha256)}${n(q.catalog)}`);
  }
  const [x, y] = [p.expectations?.sha256 ?? null, q.expectations?.sha256 ?? null];
  if (p.expectations !== undefined && q.expectations !== undefined && x !== y) {
    const text = (e: Provenance['expectations']) => (e ? `${e.file}${e.sha256 ? ` (sha256 ${short(e.sha256)})` : ''}` : 'none');
    out.push(`known deviations (--expect) differ: A ${text(p.expectations)}, B ${text(q.expectations)}`);
  }
  const t = p.target;
  const u = q.target;
  if (t && u && !t.mock && !u.mock) {
    for (const key of ['authUrl', 'baseUrl', 'receiverUrl', 'clientId'] as const) {
      if ((t[key] ?? null) !== (u[key] ?? null)) out.push(`target differs: ${key} A ${t[key] ?? '—'}, B ${u[key] ?? '—'}`);
    }
    if (t.profileSha256 && u.profileSha256 && t.profileSha256 !== u.profileSha256) out.push('target profile differs (its fingerprint without secrets)');
  } else if (t && u && t.mock !== u.mock) {
    out.push(`target differs: A ${t.mock ? 'the embedded mock' : t.baseUrl ?? t.receiverUrl ?? 'a remote target'}, B ${u.mock ? 'the embedded mock' : u.baseUrl ?? u.receiverUrl ?? 'a remote target'}`);
  }
  return out;
}

/** The warnings, most fundamental first. */
export function identityWarnings(a: LoadedRun, b: LoadedRun): string[] {
  const out: string[] = [];
  const missing = [a.provenance ? null : 'A', b.provenance ? null : 'B'].filter(Boolean);
  if (missing.length) {
    out.push(`${missing.join(' and ')} record${missing.length === 1 ? 's' : ''} no provenance (written by an older lockconf): whether the suite, spec and catalog match cannot be told`);
    if (a.result.tool.version !== b.result.tool.version) out.push(`suite version differs: A ${a.result.tool.version}, B ${b.result.tool.version}`);
  }
  if (a.provenance && b.provenance) out.push(...provenanceWarnings(a.provenance, b.provenance));
  const [ma, mb] = [runMode(a), runMode(b)];
  if (ma !== mb) out.push(`kind of run differs: A ${ma}, B ${mb}: their requirements hardly overlap`);
  if (a.result.target?.mock !== b.result.target?.mock && !(a.provenance?.target && b.provenance?.target)) {
    out.push(`target differs: A ${a.result.target?.mock ? 'the embedded mock' : a.result.target?.baseUrl ?? 'a remote target'}, B ${b.result.target?.mock ? 'the embedded mock' : b.result.target?.baseUrl ?? 'a remote target'}`);
  }
  const settings = settingsWarning(a, b);
  if (settings) out.push(settings);
  const [sa, sb] = [runScope(a), runScope(b)];
  if (JSON.stringify(sa ? [...sa].sort() : null) !== JSON.stringify(sb ? [...sb].sort() : null)) {
    const text = (s: string[] | null) => (s ? `${s.length} requirement(s) (--only)` : 'the full scope');
    out.push(`scope differs: A ${text(sa)}, B ${text(sb)}: requirements outside either scope show as newly (not) tested`);
  }
  for (const [name, run] of [['A', a], ['B', b]] as const) {
    if (run.result.verdict === 'error') out.push(`${name} could not be carried out (${run.result.error?.code ?? 'error'}): nothing in it was judged`);
  }
  return out;
}
