/**
 * The self-verification matrix: the conformance suites run against the reference
 * mock once as it is, once per legal variant (choices the spec leaves open), and
 * once per fault of the mock's fault catalog. A good suite judges the first two
 * conformant and catches every fault through the requirement the fault names.
 */
import { SIGN_IN_REQUIREMENTS } from '../../harness/run/sign-in-switch.js';
import { randomInt } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { CATALOG, requirement } from '../../harness/catalog/index.js';
import type { Area } from '../../harness/catalog/requirement.js';
import { FAULTS, FAULT_NAMES, type FaultName } from '../../mock/faults.js';
import { scanSuites } from '../../harness/run/selection.js';
import { packRuns, single, spillOver, splitRun, startOrder, suspectedHiders, type MatrixRun } from './packing.js';
import { LanePool } from './lanes.js';
import { currentLoad, unsafeJudgement } from './confirm.js';
import { DEFAULT_DELIVERY_WAIT_MS } from '../../harness/run/weakening.js';
import { generatedFaults, selectGenerated, type GeneratedFault } from './slice-faults.js';
import { cataloguedSample } from './sample.js';
import { freedomVariants, packedVariants } from './freedoms.js';

const ROOT = resolve(import.meta.dirname, '../..');

import type { Confirmation, MatrixEntry, MatrixOutcome, RequirementResult } from './matrix-types.js';
export type { EntryKind, MatrixEntry, MatrixOutcome, RequirementResult } from './matrix-types.js';

/**
 * The seed of the jitter variant's delays (LOCKCONF_JITTER_SEED replays a round; each round
 * of the matrix prints it with the embedded mock's start-up line).
 */
export const JITTER_SEED = Number(process.env.LOCKCONF_JITTER_SEED ?? randomInt(2 ** 31));

/**
 * Legal implementations the spec allows, each different from the mock's defaults.
 * `touches`: the spec areas whose suites can see the variant's option (what the
 * option changes on the wire: the signature's encoding reaches the signature,
 * delivery and event suites, never the token endpoint). npm test's kill matrix
 * judges such a variant on those areas only (planMatrix `variants: 'touched'`);
 * `npm run matrix -- --all` judges every variant on every suite, the check that
 * nothing outside the declared areas sees it. The plain mock and `jitter` (order
 * and speed reach every suite) always run every suite.
 */
export const VARIANTS: Array<MatrixEntry & { touches?: readonly Area[] }> = [
  { name: 'base64-signatures', kind: 'variant', description: 'X-Signature v values in base64 (the spec leaves the encoding open).', mockOptions: { signatureEncoding: 'base64' }, touches: ['Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'lower-case-lock-ids', kind: 'variant', description: 'Lock IDs in lower-case hex.', mockOptions: { lowerCaseLockIds: true }, touches: ['API headers', 'Webhook registration', 'Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'two-day-access-tokens', kind: 'variant', description: 'Access tokens valid for two days (expires_in 172800; the spec allows any lifetime of at least 24 hours).', mockOptions: { accessTokenLifetimeSec: 172_800 }, touches: ['OAuth authorization', 'Token endpoint', 'Client credentials', 'Refresh tokens', 'API headers'] },
  { name: 'extra-fields', kind: 'variant', description: 'Unknown extra fields in token responses and webhook payloads.', mockOptions: { extraFields: true }, touches: ['OAuth authorization', 'Token endpoint', 'Client credentials', 'Refresh tokens', 'Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'empty-webhook-answers', kind: 'variant', description: 'The webhook endpoints answer 201 (registration) and 204 (deletion) with no body (the spec does not show their answers).', mockOptions: { emptyWebhookAnswers: true }, touches: ['API headers', 'Webhook registration', 'Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'signature-layouts', kind: 'variant', description: 'Each delivery\'s X-Signature in the next legal layout of the one list of forms (v first, blanks around the comma, an element of another prefix, upper-case hex: harness/catalog/signature-forms.ts).', mockOptions: { signatureLayouts: true }, touches: ['Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'signature-seconds', kind: 'variant', description: 'The X-Signature t element in epoch seconds (the spec does not fix its unit).', mockOptions: { signatureTimestampSeconds: true }, touches: ['Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'bridge-lists-all-locks', kind: 'variant', description: 'Bridge events list every lock on the bridge in LockID ("an array of lock identifiers").', mockOptions: { bridgeListsAllLocks: true }, touches: ['Webhook delivery', 'Webhook signature', 'Event payloads'] },
  { name: 'free-system-values', kind: 'variant', description: 'lock_battery_alert\'s userID keeps the name\'s capitals ("lower-case name" is the field\'s spelling) and lock_log_timestamp_drifted\'s warningLevel is not the level the control request named (the row lists no values).', mockOptions: { freeSystemValues: true }, only: areaScope('EVENT-LOCK-BATTERY') },
  { name: 'jitter', kind: 'variant', description: 'Deliveries fan out in a random order with random latency (0-300 ms each), OAuth and API requests are answered after a random delay (0-25 ms): the spec fixes neither order nor speed (seeded: mock/jitter.ts).', mockOptions: { jitter: { seed: JITTER_SEED } } },
];

/** The requirement IDs of the spec areas named. */
export function areasScope(areas: readonly Area[]): string[] {
  return CATALOG.filter((r) => areas.includes(r.area as Area)).map((r) => r.id);
}

/** The requirement IDs of the area that holds `id`: the suites that can see a fault of that rule. */
export function areaScope(id: string): string[] {
  const area = requirement(id).area;
  return CATALOG.filter((r) => r.area === area).map((r) => r.id);
}

/**
 * The faults a LOCKCONF_MATRIX_FAULTS value selects: a comma list of fault names and
 * spec areas ("Webhook registration" or webhook-registration); undefined when empty.
 */
export function selectFaults(spec: string | undefined): FaultName[] | undefined {
  const items = (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) return undefined;
  const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const areaOf = (name: FaultName) => key(requirement(FAULTS[name].requirement).area);
  const picked = new Set<FaultName>();
  for (const item of items) {
    const named = FAULT_NAMES.filter((name) => name === item || areaOf(name) === key(item));
    if (named.length === 0 && selectGenerated(item).length > 0) continue; // a generated fault (slice-faults.ts)
    if (named.length === 0) {
      const areas = [...new Set(FAULT_NAMES.map(areaOf))].join(', ');
      throw new Error(`LOCKCONF_MATRIX_FAULTS: ${item} is neither a fault of mock/faults.ts, a generated fault (ID@dim=value, ID) nor a spec area (${areas})`);
    }
    for (const name of named) picked.add(name);
  }
  return FAULT_NAMES.filter((name) => picked.has(name));
}

/** The name of the full-run scope check of a fault. */
export function scopeCheckName(fault: string): string {
  return `${fault} (full run)`;
}

/**
 * Every entry of the matrix. With `faults` (a selection: selectFaults), only those
 * faults and one scope check per area they belong to; the plain mock and the
 * variants then run with the suites of those areas only.
 */
export function planMatrix(opts: {
  scope: 'full' | 'area';
  faults?: FaultName[];
  alone?: ReadonlySet<string>;
  generated?: readonly GeneratedFault[];
  /** 'touched': each variant on the areas its option can reach (VARIANTS `touches`); 'full' (default): every suite. */
  variants?: 'touched' | 'full';
  /**
   * 'sample' (npm test): of the catalogued faults, only the first of each requirement that no
   * generated fault covers (sample.ts); the scope checks stay those of every catalogued fault,
   * and the plain mock is left to test/harness/report/full-run.test.ts, which judges it on every
   * suite at the harness's own strictness, the sign-in screens on (jitter, the plain mock with
   * timing and order chaos, stays here). 'all' (default): every catalogued fault and the plain mock.
   */
  catalogued?: 'all' | 'sample';
  /** The legal variants: 'each' alone, or 'packed' (default with catalogued 'sample'): one alternative of each freedom a run (freedoms.ts packedVariants). */
  freedoms?: 'each' | 'packed';
} = { scope: 'area' }): MatrixEntry[] {
  const faults = opts.faults ?? FAULT_NAMES;
  const generated = opts.generated ?? [];
  const freedomsPlan = opts.freedoms ?? (opts.catalogued === 'sample' ? 'packed' : 'each');
  const judged = opts.catalogued === 'sample' ? cataloguedSample(faults, generated) : faults;
  const firstOfEachArea = new Map<string, FaultName>();
  // The scope check of an area: its first fault that an earlier matrix could share (`alone`:
  // packing.ts), so the scope checks share a full run; else its first fault.
  const shareable = (name: FaultName) => !opts.alone?.has(name) && !opts.alone?.has(scopeCheckName(name));
  for (const name of [...faults.filter(shareable), ...faults]) {
    const area = requirement(FAULTS[name].requirement).area;
    if (!firstOfEachArea.has(area)) firstOfEachArea.set(area, name);
  }
  const conformingScope = opts.faults && opts.scope === 'area'
    ? { only: [...new Set([...faults.map((name) => FAULTS[name].requirement), ...generated.map((g) => g.requirement)].flatMap((id) => areaScope(id)))] }
    : {};
  const scopeChecks: MatrixEntry[] = opts.scope === 'area'
    ? [...firstOfEachArea.values()].map((name) => ({
        name: scopeCheckName(name),
        kind: 'scope-check',
        description: `${FAULTS[name].description} Run with every suite, to check the area scoping.`,
        mockOptions: { faults: [name] },
        requirement: FAULTS[name].requirement,
      }))
    : [];
  return [
    ...(opts.catalogued === 'sample' ? [] : [{ name: 'conforming', kind: 'conforming', description: 'The reference mock with no fault.', mockOptions: {}, signIn: opts.variants !== 'touched', ...conformingScope } satisfies MatrixEntry]),
    ...(freedomsPlan === 'packed' ? packedVariants(VARIANTS) : [...VARIANTS, ...freedomVariants()]).map(({ touches, ...v }): MatrixEntry => ({
      ...v,
      signIn: opts.variants !== 'touched',
      ...(opts.variants === 'touched' && touches && opts.scope === 'area' ? { only: areasScope(touches) } : {}),
      ...conformingScope,
    })),
    ...judged.map((name): MatrixEntry => {
      const def = FAULTS[name];
      return {
        name,
        kind: 'fault',
        description: def.description,
        mockOptions: { faults: [name] },
        requirement: def.requirement,
        ...(opts.scope === 'area' ? { only: areaScope(def.requirement) } : {}),
      };
    }),
    ...generated.map((g): MatrixEntry => ({
      name: g.name,
      kind: 'fault',
      description: g.description,
      mockOptions: { faults: [g.name] },
      requirement: g.requirement,
      ...(opts.scope === 'area' ? { only: areaScope(g.requirement) } : {}),
    })),
    ...scopeChecks,
  ];
}

export { generatedFaults };

type Report = { verdict: string; requirements: RequirementResult[]; selection?: { weakenedBy?: unknown[] } };
/** What one run of the matrix left: its report (null: it wrote none), time, CPU time, exit code. */
export type RunResult = { report: Report | null; durationMs: number; cpuMs: number | null; exitCode: number | null };
/** Carries out one run: `fullWait`, at the harness's own strictness (confirm.ts). Tests give runMatrix their own. */
export type RunCarrier = (run: MatrixRun<MatrixEntry>, outDir: string, seed: number, fullWait: boolean) => Promise<RunResult>;

/**
 * Judge one run's conformance.json against what the entry should get. A clean run of a
 * conforming entry is `partial` when it was scoped (--only) or weakened (the lanes shorten
 * the delivery wait: lanes.ts), `conformant` only when it was neither: a scoped run that
 * claimed `conformant` is as wrong as one that failed something. `sharedWith`: the
 * requirements of the other faults of a shared run (their failures are not collateral).
 */
export function judge(
  entry: MatrixEntry,
  report: Report | null,
  sharedWith: readonly string[] = [],
): Omit<MatrixOutcome, 'entry' | 'durationMs' | 'cpuMs' | 'exitCode' | 'run' | 'sharedWith' | 'rerunAlone'> {
  if (!report) {
    return { verdict: null, failed: [], warned: [], notTestedMust: [], collateral: [], blocked: [], ok: false, why: 'the run wrote no conformance.json' };
  }
  const failed = report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
  const warned = report.requirements.filter((r) => r.status === 'warned').map((r) => r.id);
  const blocked = report.requirements.filter((r) => r.status === 'blocked').map((r) => r.id);
  const selected = new Set(entry.only ?? CATALOG.map((r) => r.id));
  const notTestedMust = report.requirements
    .filter((r) => r.level === 'MUST' && r.status === 'not-tested' && selected.has(r.id))
    .map((r) => r.id);
  const own = new Set([entry.requirement, ...sharedWith]);
  const collateral = entry.kind === 'fault' || entry.kind === 'scope-check' ? [...failed, ...warned].filter((id) => !own.has(id)) : [];
  const base = { verdict: report.verdict, failed, warned, notTestedMust, collateral, blocked };
  if (entry.kind === 'conforming' || entry.kind === 'variant') {
    const expected = entry.only || report.selection?.weakenedBy?.length ? 'partial' : 'conformant';
    if (report.verdict !== expected) return { ...base, ok: false, why: `verdict ${report.verdict}, expected ${expected}` };
    if (failed.length || warned.length) return { ...base, ok: false, why: `false failures: ${[...failed, ...warned].join(', ')}` };
    return { ...base, ok: true, why: `${expected}, nothing failed or warned` };
  }
  const id = entry.requirement!;
  const level = requirement(id).level;
  if (level === 'MUST') {
    if (!failed.includes(id)) return { ...base, ok: false, why: `${id} was not failed` };
    if (report.verdict !== 'not-conformant') return { ...base, ok: false, why: `verdict ${report.verdict}, expected not-conformant` };
    return { ...base, ok: true, why: `caught: ${id} failed` };
  }
  if (!warned.includes(id) && !failed.includes(id)) return { ...base, ok: false, why: `${id} (SHOULD) was not warned` };
  return { ...base, ok: true, why: `caught: ${id} warned` };
}


/** How the rerun reason of a member a clean shared run did not catch begins. */
export const NOT_CAUGHT_IN = 'not caught in';

/**
 * How many runs go side by side by default: twice the cores (a run waits on its mock
 * much of the time), and no more than one per GiB of memory (a lane holds about 0.5 GiB).
 * npm test's kill matrix takes one per core, two at least (`perCore`, `atLeast`): its
 * other files keep the cores busy.
 */
export function defaultConcurrency(cores = availableParallelism(), memoryBytes = totalmem(), { perCore = 2, atLeast = 1 } = {}): number {
  return Math.max(1, Math.min(Math.max(atLeast, perCore * cores), Math.floor(memoryBytes / 2 ** 30)));
}

/**
 * Runs that drive the sign-in screens with Chromium (LOCKCONF_SIGN_IN=on): a fault of the
 * screens, and the plain mock or a legal variant planned with `signIn` and judged on every
 * suite (under `npm run matrix`; npm test's sample leaves them out, where full-run.test.ts
 * judges the plain mock on them), so that no legal implementation is failed by them either.
 * Every other run leaves them out.
 */
export function needsSignIn(entry: MatrixEntry): boolean {
  if (entry.kind === 'conforming' || entry.kind === 'variant') return entry.signIn === true && !entry.only;
  return (SIGN_IN_REQUIREMENTS as readonly string[]).includes(entry.requirement ?? '');
}

/** One conformance run in a lane (lane.ts), against an embedded mock built with the run's options. */
async function runInLane(pool: LanePool, run: MatrixRun<MatrixEntry>, outDir: string, seed: number, fullWait = false): Promise<RunResult> {
  await mkdir(outDir, { recursive: true });
  const signIn = run.entries.some(needsSignIn);
  const { exitCode, durationMs, cpuMs, stderr } = await pool.run({ outDir, seed, mockOptions: run.mockOptions, signIn, ...(run.only ? { only: run.only } : {}), ...(fullWait ? { fullWait } : {}) });
  if (exitCode === 2 || exitCode === null) process.stderr.write(`[${run.name}] run could not be carried out:\n${stderr}\n`);
  let report: Report | null = null;
  try {
    report = JSON.parse(await readFile(join(outDir, 'conformance.json'), 'utf8'));
  } catch {
    report = null;
  }
  return { report, durationMs, cpuMs, exitCode };
}

/** One conformance run in a lane of its own, against an embedded mock built with the entry's options. */
export async function runEntry(entry: MatrixEntry, outDir: string, seed: number): Promise<MatrixOutcome> {
  const run = single(entry);
  const pool = new LanePool(1);
  try {
    const { report, durationMs, cpuMs, exitCode } = await runInLane(pool, run, outDir, seed);
    return { entry, ...judge(entry, report), durationMs, cpuMs, exitCode, run: run.name, sharedWith: [] };
  } finally {
    await pool.close();
  }
}

/**
 * Run every entry, `concurrency` runs at a time in as many lanes (lanes.ts; default:
 * twice the number of cores, since a run spends much of its time waiting), each
 * against its own mock. With `pack` (the default), faults that may share a
 * run do (packing.ts); a shared run that cannot judge its members hands each of
 * them to a run of its own.
 */
export async function runMatrix(
  entries: MatrixEntry[],
  opts: {
    outDir: string;
    seed: number;
    concurrency?: number;
    pack?: boolean;
    /** Faults that start in a run of their own (an earlier matrix could not judge them in a shared one). */
    alone?: ReadonlySet<string>;
    /** Faults that never share a run with the faults named (a neighbour hid them before: packing.ts). */
    apart?: ReadonlyMap<string, ReadonlySet<string>>;
    /** How long an earlier matrix took for each entry: the longest runs start first. */
    earlierMs?: ReadonlyMap<string, number>;
    onOutcome?: (o: MatrixOutcome) => void;
    /** Each run as it ends: its name, how many entries it carried, how long it took, the CPU time its lane spent. */
    onRun?: (r: { name: string; entries: number; durationMs: number; cpuMs: number | null }) => void;
    /** Entry → the collateral an earlier matrix judged for it: collateral resting on time outside it is confirmed (confirm.ts). */
    knownCollateral?: ReadonlyMap<string, ReadonlySet<string>>;
    /** How a run is carried out (default: in a lane of the pool). */
    carry?: RunCarrier;
  },
): Promise<MatrixOutcome[]> {
  const index = new Map(entries.map((e, i) => [e, i]));
  const outcomes: MatrixOutcome[] = new Array(entries.length);
  type Confirming = Pick<Confirmation, 'restedOn' | 'firstWhy'> & { first: { ok: boolean; collateral: string[] } };
  const queue: Array<{ run: MatrixRun<MatrixEntry>; retryOf?: string; hiddenBy?: string[]; confirming?: Confirming }> = startOrder(packRuns(entries, {
    maxPerRun: opts.pack === false ? 1 : undefined,
    areaOf: (id) => requirement(id).area,
    ...(opts.alone ? { alone: opts.alone } : {}),
    ...(opts.apart ? { apart: opts.apart } : {}),
    // The sign-in faults' runs drive Chromium: they share runs with one another only.
    needs: (e) => (needsSignIn(e) ? 'sign-in' : ''),
  }), (name) => opts.earlierMs?.get(name)).map((run) => ({ run }));
  const settle = (o: MatrixOutcome) => {
    outcomes[index.get(o.entry)!] = o;
    opts.onOutcome?.(o);
  };
  const declared = await scanSuites(ROOT);
  const filesOf = (id: string) => declared.filter((t) => t.id === id).map((t) => t.file);
  let running = 0;
  /** The runs in flight, each with the most other runs seen in flight beside it. */
  const inFlight = new Set<{ alongside: number }>();
  const pool = new LanePool(opts.concurrency ?? defaultConcurrency());
  const carry: RunCarrier = opts.carry ?? ((run, outDir, seed, fullWait) => runInLane(pool, run, outDir, seed, fullWait));
  await new Promise<void>((resolveAll, rejectAll) => {
    const pump = () => {
      if (queue.length === 0 && running === 0) return resolveAll();
      while (running < pool.size && queue.length > 0) {
        const { run, retryOf, hiddenBy, confirming } = queue.shift()!;
        const load = confirming ? currentLoad() : 0;
        running++;
        const beside = { alongside: inFlight.size };
        for (const other of inFlight) other.alongside = Math.max(other.alongside, inFlight.size);
        inFlight.add(beside);
        carry(run, join(opts.outDir, 'runs', confirming ? `${run.name}-confirmed` : run.name), opts.seed, !!confirming)
          .finally(() => inFlight.delete(beside))
          .then(({ report, durationMs, cpuMs, exitCode }) => {
            opts.onRun?.({ name: run.name, entries: run.entries.length, durationMs, cpuMs });
            const judged = run.entries.map((entry) => ({
              entry,
              ...judge(entry, report, run.entries.filter((e) => e !== entry).map((e) => e.requirement!)),
            }));
            const spilled = spillOver(run, report);
            if (spilled.length > 0) {
              const why = `${run.name} also failed or warned ${spilled.join(', ')}`;
              // Reruns go first: they are what the last lanes would otherwise wait for.
              queue.unshift(...splitRun(run, spilled, filesOf).map((part) => ({ run: part, retryOf: why })));
              return;
            }
            const shared = run.entries.length > 1;
            for (const j of judged) {
              if (shared && !j.ok) {
                queue.unshift({ run: single(j.entry), retryOf: `${NOT_CAUGHT_IN} ${run.name} (${j.why})`, hiddenBy: suspectedHiders(run, j.entry, report, (e) => judged.some((x) => x.entry === e && x.ok)) });
                continue;
              }
              // A judgement that rests on time is not final: the entry runs again at full strictness (confirm.ts).
              const restedOn = confirming || shared ? [] : unsafeJudgement(j.entry, j, report, opts.knownCollateral?.get(j.entry.name));
              if (restedOn.length > 0) {
                const firstWhy = `${j.why}${j.collateral.length ? `; collateral ${j.collateral.join(', ')}` : ''}`;
                queue.unshift({ run, ...(retryOf ? { retryOf } : {}), ...(hiddenBy ? { hiddenBy } : {}), confirming: { restedOn, firstWhy, first: { ok: j.ok, collateral: j.collateral } } });
                continue;
              }
              settle({
                ...j,
                durationMs,
                cpuMs,
                exitCode,
                run: run.name,
                sharedWith: run.entries.filter((e) => e !== j.entry).map((e) => e.name),
                ...(retryOf ? { rerunAlone: retryOf } : {}),
                ...(hiddenBy ? { hiddenBy } : {}),
                alongside: beside.alongside,
                ...(confirming ? { confirmed: {
                  restedOn: confirming.restedOn,
                  firstWhy: confirming.firstWhy,
                  waitMs: DEFAULT_DELIVERY_WAIT_MS,
                  load,
                  overturned: confirming.first.ok !== j.ok || confirming.first.collateral.join() !== j.collateral.join(),
                } } : {}),
              });
            }
          })
          .catch(rejectAll)
          .finally(() => {
            running--;
            pump();
          });
      }
    };
    pump();
  }).finally(() => pool.close());
  return outcomes;
}
