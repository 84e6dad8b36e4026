/**
 * Shared runs of the self-verification matrix. Each run of the suites costs a
 * vitest start-up and its area's waits; faults that the suites judge by
 * different requirements of the same spec area can be switched on together in
 * one mock and judged from one run, each by its own requirement.
 *
 * The packing is worked out from the plan alone (FAULTS and the catalog, through
 * planMatrix), never from a hand-written list:
 * - only faults scoped to one area share a run (the same `only`), never a fault
 *   with anything else in its mock options, never a variant or the plain mock;
 * - the full-run scope checks (one fault of each area, every suite) share full
 *   runs with each other, never with a scoped fault;
 * - no two faults of one run name the same requirement (one failure could not
 *   tell which of them was caught);
 * - at most `maxPerRun` faults a run;
 * - a fault an earlier matrix could not judge in a shared run because it spilled over
 *   (`alone`: matrix-report.ts keeps the list) starts alone;
 * - a fault a neighbour hid in an earlier shared run (it was not caught there, and was
 *   alone) never shares a run with the faults that may have hidden it again (`apart`:
 *   suspectedHiders; the faults of one area switch on code paths that can mask each
 *   other, e.g. filter-ignored delivers every group's events, so a group filter's fault
 *   shows nothing; a refused registration blocks what rests on it), and shares with the
 *   others.
 *
 * A shared run must not hide a fault. Only a shared run whose failures and
 * warnings are all its members' own requirements judges its members. One that
 * failed or warned anything else (a fault that spills over into other tests could
 * be what failed a neighbour's requirement) judges none of them: splitRun() runs
 * the suspects (members whose requirement is tested in the suite file of a
 * spilled requirement) alone and the others together again, or, with no suspect,
 * two halves. A member a clean shared run did not catch runs again alone (a
 * neighbour may have kept its test from running).
 */
import { createHash } from 'node:crypto';
import type { MockOptions } from '../../mock/context.js';

/** What packing needs of a matrix entry (matrix.ts's MatrixEntry). */
export interface PackableEntry {
  name: string;
  kind: string;
  mockOptions: MockOptions;
  requirement?: string;
  only?: string[];
}

export interface MatrixRun<MatrixEntry extends PackableEntry = PackableEntry> {
  /** A directory-safe name: the entry's for a run of one, `shared-<area>-<n>` otherwise. */
  name: string;
  /** The entries judged from this run (one, or the faults of a shared run). */
  entries: MatrixEntry[];
  mockOptions: MockOptions;
  only?: string[];
}

/**
 * At most this many faults a shared run. 16, not 12: npm test's sample holds 23 faults of the
 * event payloads (one field of one row each), which 12 cut into two runs and a third for the one
 * kept apart from a fault of the second; with 16 the one kept apart joins the second run (one run,
 * about 7 s of a lane's CPU, fewer). No other area's sample fills a run of 12.
 */
export const DEFAULT_MAX_PER_RUN = 16;

function packable(entry: PackableEntry): boolean {
  if (!entry.requirement) return false;
  if (!(entry.kind === 'fault' && entry.only) && !(entry.kind === 'scope-check' && !entry.only)) return false;
  const keys = Object.keys(entry.mockOptions);
  return keys.length === 1 && keys[0] === 'faults' && [...(entry.mockOptions.faults ?? [])].length === 1;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * A run of one entry, named by the entry: its slug and a short digest of the exact name, so
 * that names the slug alone would merge (field=Timestamp and field=timeStamp) never share a
 * run directory when they run at the same time.
 */
export function single<E extends PackableEntry>(entry: E): MatrixRun<E> {
  const digest = createHash('sha256').update(entry.name).digest('hex').slice(0, 8);
  return { name: `${slug(entry.name) || 'entry'}-${digest}`, entries: [entry], mockOptions: entry.mockOptions, ...(entry.only ? { only: entry.only } : {}) };
}

/** The runs that judge every entry, in plan order of their first entry. */
export function packRuns<MatrixEntry extends PackableEntry>(
  entries: readonly MatrixEntry[],
  opts: {
    maxPerRun?: number | undefined;
    areaOf?: (requirementId: string) => string;
    alone?: ReadonlySet<string>;
    /** Fault → the faults it must not share a run with (either way round). */
    apart?: ReadonlyMap<string, ReadonlySet<string>>;
    /** What a run of the entry needs besides its scope (e.g. 'sign-in'): entries share a run only with those needing the same. */
    needs?: (entry: MatrixEntry) => string;
  } = {},
): MatrixRun<MatrixEntry>[] {
  const max = Math.max(1, opts.maxPerRun ?? DEFAULT_MAX_PER_RUN);
  const keptApart = (a: PackableEntry, b: PackableEntry) => !!opts.apart?.get(a.name)?.has(b.name) || !!opts.apart?.get(b.name)?.has(a.name);
  const runs: MatrixRun<MatrixEntry>[] = [];
  /** scope key → the open shared runs of that scope. */
  const open = new Map<string, MatrixEntry[][]>();
  const order: Array<MatrixEntry | MatrixEntry[]> = [];
  for (const entry of entries) {
    if (max === 1 || !packable(entry) || opts.alone?.has(entry.name)) {
      order.push(entry);
      continue;
    }
    const key = `${entry.only ? [...entry.only].sort().join(' ') : '(every suite)'}|${opts.needs?.(entry) ?? ''}`;
    const bins = open.get(key) ?? [];
    open.set(key, bins);
    let bin = bins.find((b) => b.length < max && !b.some((e) => e.requirement === entry.requirement || keptApart(e, entry)));
    if (!bin) {
      bin = [];
      bins.push(bin);
      order.push(bin);
    }
    bin.push(entry);
  }
  const counts = new Map<string, number>();
  for (const item of order) {
    if (!Array.isArray(item)) {
      runs.push(single(item));
      continue;
    }
    if (item.length === 1) {
      runs.push(single(item[0]!));
      continue;
    }
    const area = !item[0]!.only ? 'full-run' : slug(opts.areaOf ? opts.areaOf(item[0]!.requirement!) : item[0]!.requirement!);
    const n = (counts.get(area) ?? 0) + 1;
    counts.set(area, n);
    runs.push({
      name: `shared-${area}-${n}`,
      entries: item,
      mockOptions: { faults: item.flatMap((e) => [...(e.mockOptions.faults ?? [])]) },
      ...(item[0]!.only ? { only: item[0]!.only } : {}),
    });
  }
  return runs;
}

/** The requirements a shared run failed or warned that none of its members names ([]: it can judge them). */
export function spillOver(run: MatrixRun, report: { requirements: Array<{ id: string; status: string }> } | null): string[] {
  if (run.entries.length < 2 || !report) return [];
  const own = new Set(run.entries.map((e) => e.requirement));
  return report.requirements
    .filter((r) => (r.status === 'failed' || r.status === 'warned') && !own.has(r.id))
    .map((r) => r.id);
}

/**
 * The runs that judge again the members of a shared run that spilled over:
 * suspects alone, the others shared again; or two halves when the suite files
 * point at no member, or at all of them.
 */
export function splitRun<E extends PackableEntry>(run: MatrixRun<E>, spilled: readonly string[], filesOf: (requirementId: string) => readonly string[]): MatrixRun<E>[] {
  const files = new Set(spilled.flatMap((id) => filesOf(id)));
  const suspect = (e: E) => filesOf(e.requirement!).some((f) => files.has(f));
  let parts: E[][];
  const suspects = run.entries.filter(suspect);
  if (suspects.length > 0 && suspects.length < run.entries.length) {
    parts = [...suspects.map((e) => [e]), run.entries.filter((e) => !suspect(e))];
  } else {
    const half = Math.ceil(run.entries.length / 2);
    parts = [run.entries.slice(0, half), run.entries.slice(half)];
  }
  return parts.filter((p) => p.length > 0).map((entries, i) => entries.length === 1
    ? single(entries[0]!)
    : { ...run, name: `${run.name}-${i + 1}`, entries, mockOptions: { faults: entries.flatMap((e) => [...(e.mockOptions.faults ?? [])]) } });
}

/**
 * The order runs start in, so that the lanes end together: the longest first, by how
 * long an earlier matrix took for their entries (`earlierMs`). A run without that
 * figure counts as long when it is shared (what it spills over or misses runs again,
 * and the reruns go first too: it should start early), then full runs, then runs of
 * one fault scoped to its area. Stable among equals.
 */
export function startOrder<R extends MatrixRun>(runs: readonly R[], earlierMs: (entryName: string) => number | undefined = () => undefined): R[] {
  const guess = (r: R) => (r.entries.length > 1 ? Number.POSITIVE_INFINITY : r.only === undefined ? 20_000 : 5_000);
  const estimate = (r: R) => {
    const known = r.entries.map((e) => earlierMs(e.name)).filter((ms): ms is number => ms !== undefined);
    return known.length === r.entries.length ? Math.max(...known) : guess(r);
  };
  return runs.map((r, i) => ({ r, i, ms: estimate(r) })).sort((a, b) => b.ms - a.ms || a.i - b.i).map(({ r }) => r);
}

/**
 * The faults of a shared run that may have hidden `member` (the run did not catch it; a run
 * of its own judges it; packing's `apart` keeps it from them next time): those whose
 * requirement its test was reported blocked by; else those the run caught (a fault whose
 * change the suites never saw masked nothing, e.g. filter-ignored delivers every group's
 * events and is caught); else every other member.
 */
export function suspectedHiders<E extends PackableEntry>(
  run: MatrixRun<E>,
  member: E,
  report: { requirements: Array<{ id: string; status: string; blockedBy?: string[] }> } | null,
  caught: (entry: E) => boolean,
): string[] {
  const others = run.entries.filter((e) => e !== member);
  const own = report?.requirements.find((r) => r.id === member.requirement);
  const blockers = own?.status === 'blocked' ? others.filter((e) => own.blockedBy?.includes(e.requirement!)) : [];
  const changed = others.filter(caught);
  return (blockers.length ? blockers : changed.length ? changed : others).map((e) => e.name);
}
