/**
 * From test outcomes to requirement statuses and the run's verdict. Pure: no
 * I/O, no clock; the reporter gathers the inputs and writes the results.
 *
 * Per requirement, over every test that touched it (its own tests and the
 * t.check calls of others):
 *   MUST    any failed → failed; else warned; else passed if any passed; else not-tested
 *   SHOULD  any failed or warned → warned; else passed; else not-tested
 *   INFO    informational once any test ran for it; else not-tested
 * Blocked (a test could not reach its check because a prerequisite failed,
 * harness/run/prerequisite.ts) ranks below failed and warned and above passed
 * and not-tested: a check that never ran proves nothing. A blocked requirement
 * keeps that status only while a root cause it names (followed through other
 * blocked requirements) failed or warned in this run; otherwise nothing in the
 * run shows the cause, and it is failed with the prerequisite's own words (never
 * passed, never quietly not tested).
 * A requirement no test touched is not-tested with the reason: the catalog's
 * `untestable`, the capability a skipped test lacked, "not selected (--only)",
 * or that no test checks it.
 *
 * Verdict (interfaces.md §3), the first that applies:
 *   interrupted     the run was stopped (Ctrl-C, SIGTERM) before it finished
 *   interfered      someone else reset the target during the run (another run
 *                   against the same target): no failure can be trusted
 *   not-conformant  a MUST failed (known deviations from --expect excepted)
 *   incomplete      none failed but a MUST in scope was not tested (requirements
 *                   the catalog marks untestable excepted: no run could ever test them),
 *                   or anything was blocked (its root cause failed, so this only matters
 *                   when the cause is a SHOULD or a deviation listed in --expect)
 *   partial         everything in scope passed, but the run was narrowed by --only
 *                   (requirements outside the selection are not judged; so are those
 *                   a setting leaves out, LOCKCONF_SIGN_IN=off), weakened
 *                   by a setting (run/weakening.ts) or a MUST failure was excused
 *                   by --expect: never a certificate
 *   conformant      otherwise
 * Only `conformant` says the target conforms; `partial` says the scope passed.
 */
import type { Level, Requirement } from '../catalog/index.js';
import type { RequirementOutcome, RequirementStatus, TestMeta } from './outcome.js';
import type { ExpectedDeviations } from './expectations.js';
import type { Weakening } from './weakening.js';

export type Verdict = 'conformant' | 'partial' | 'not-conformant' | 'incomplete' | 'interrupted' | 'interfered';

/** One vitest test case as the reporter saw it. */
export interface TestRecord {
  /** The test's own name, "<ID>: <title>". */
  name: string;
  /** Project-relative file. */
  file?: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** The note of a skipped test (ctx.skip(note)). */
  note?: string;
  /** Failure messages, already scrubbed of secrets. */
  errors?: string[];
  durationMs?: number;
  meta?: TestMeta;
  /** This record is a re-run's: the test did not finish in the run, and ran again alone at full strictness. */
  confirmation?: TimeoutConfirmation;
}

/** A test that did not finish within its timeout, run again alone (harness/commands/confirm-timeouts.ts). */
export interface TimeoutConfirmation {
  /** The first run's duration (ms) and what it said. */
  firstDurationMs: number | null;
  firstReason: string;
  /** The re-run's duration (ms), its timeouts' scale and delivery wait. */
  durationMs: number | null;
  timeoutScale: number;
  deliveryWaitMs: number;
  /** The re-run finished (its outcomes judge the requirement), or ran out of time again. */
  finished: boolean;
}

export interface ObservationRecord {
  label: string;
  value: unknown;
  test: string;
}

export interface RequirementResult {
  id: string;
  level: Level;
  area: string;
  section: string;
  source: string;
  rule: string;
  status: RequirementStatus;
  /** Why failed, warned, blocked or not tested ('' when passed). */
  reason: string;
  /** For `blocked`: the root causes, failed or warned requirements of this run. */
  blockedBy?: string[];
  /** For a failed or warned requirement: the requirements it blocked. */
  blocks?: string[];
  /** Names of the tests that touched it. */
  tests: string[];
  observations: ObservationRecord[];
  /** Listed in --expect and failed or warned: does not fail the run. */
  expected?: boolean;
  /** Listed in --expect but passed now: the entry can go. */
  stale?: boolean;
  expectComment?: string;
  /** Its test did not finish within its timeout and was run again alone: the status is the re-run's. */
  confirmedAfterTimeout?: Array<TimeoutConfirmation & { test: string }>;
}

export interface Counts {
  passed: number;
  failed: number;
  warned: number;
  notTested: number;
  informational: number;
  /** Requirements whose check was not reached because a root cause failed. */
  blocked: number;
  /** Of failed + warned, how many were listed in --expect. */
  expectedFailures: number;
}

export interface VerdictResult {
  verdict: Verdict;
  counts: Counts;
  requirements: RequirementResult[];
  /** --expect entries that now pass. */
  stale: string[];
  /** True when --only narrowed the run or a setting weakened it. */
  partial: boolean;
  /** How many requirements the run was asked to judge, of how many in the catalog. */
  scope: { inScope: number; total: number };
  /** The settings that weakened the run ([] when none). */
  weakenedBy: Weakening[];
  /** Why the verdict is interfered (set only then). */
  interference?: string;
}

export interface VerdictInput {
  catalog: readonly Requirement[];
  tests: readonly TestRecord[];
  /** Requirement IDs selected with --only; null or undefined for all. */
  selected?: ReadonlySet<string> | null;
  expected?: ExpectedDeviations | null;
  /** Settings that weakened the run (run/weakening.ts). */
  weakenedBy?: readonly Weakening[];
  /** The run was stopped before it finished. */
  interrupted?: boolean;
  /** What showed that someone else acted on the target during the run; null when nothing did. */
  interference?: string | null;
}

export const NOT_SELECTED = 'not selected (--only)';
/** How the reason of a blocked requirement that no root cause of the run accounts for begins (settleBlocked): it then counts as failed (warned, informational) itself. */
export const COUNTED_HERE = 'a prerequisite step failed in this test, and no root cause failed in this run, so the failure counts here';
export const NO_TEST = 'no test checks this requirement';

/** The requirement ID a test name starts with ("<ID>: <title>"), or null. */
export function idFromTestName(name: string): string | null {
  const m = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+):/.exec(name);
  return m ? m[1]! : null;
}

interface Touch {
  outcome: RequirementOutcome;
  test: string;
}

/** The outcomes a test contributes, filling in what a test without meta implies. */
function outcomesOf(test: TestRecord, selected: ReadonlySet<string> | null | undefined): RequirementOutcome[] {
  const declared = test.meta?.requirement ?? idFromTestName(test.name);
  const outcomes = [...(test.meta?.outcomes ?? [])];
  const failure = (test.errors ?? []).join('\n') || 'the test failed';
  if (declared) {
    // A test that did not finish while the harness waited on nothing the target owes is an error of
    // the run (not tested, run/pending-work.ts), not a failure: vitest's timeout does not count against it.
    const runError = test.meta?.unfinished && !test.meta.unfinished.owed;
    if (test.state === 'failed' && !runError && !outcomes.some((o) => o.status === 'failed' || o.status === 'warned')) {
      // The test failed outside any recorded check (an exception, a timeout): it counts against its own ID.
      outcomes.push({ id: declared, status: 'failed', reason: failure });
    } else if (outcomes.length === 0) {
      if (test.state === 'passed') outcomes.push({ id: declared, status: 'passed' });
      else if (test.state === 'skipped' || test.state === 'pending') {
        const reason = test.note || (selected && !selected.has(declared) ? NOT_SELECTED : 'skipped');
        outcomes.push({ id: declared, status: 'not-tested', reason });
      }
    }
  }
  return outcomes;
}

/** The reasons, each once: the same reason again (numbers aside) is counted, not repeated. */
function distinct(reasons: Array<string | undefined>): string {
  const groups = new Map<string, { first: string; n: number }>();
  for (const reason of reasons) {
    if (!reason) continue;
    const key = reason.replace(/\d+/g, '#');
    const group = groups.get(key);
    if (group) group.n++;
    else groups.set(key, { first: reason, n: 1 });
  }
  return [...groups.values()].map((g) => (g.n > 1 ? `${g.first}\n(the same reason ${g.n} times)` : g.first)).join('\n');
}

function statusFor(level: Level, touches: readonly Touch[]): { status: RequirementStatus; reason: string; blockedBy?: string[] } {
  const by = (s: RequirementStatus) => touches.filter((t) => t.outcome.status === s);
  const failed = by('failed');
  const warned = by('warned');
  const blocked = by('blocked');
  const ran = touches.filter((t) => t.outcome.status !== 'not-tested' && t.outcome.status !== 'blocked');
  const blockedResult = () => ({
    status: 'blocked' as const,
    reason: distinct(blocked.map((t) => t.outcome.reason)),
    blockedBy: [...new Set(blocked.flatMap((t) => t.outcome.blockedBy ?? []))],
  });
  if (level === 'INFO') {
    if (ran.length) return { status: 'informational', reason: '' };
    if (blocked.length) return blockedResult();
  } else if (level === 'MUST') {
    if (failed.length) return { status: 'failed', reason: distinct(failed.map((t) => t.outcome.reason)) || 'a check failed' };
    if (warned.length) return { status: 'warned', reason: distinct(warned.map((t) => t.outcome.reason)) };
    if (blocked.length) return blockedResult();
    if (by('passed').length) return { status: 'passed', reason: '' };
  } else {
    const deviations = [...failed, ...warned];
    if (deviations.length) return { status: 'warned', reason: distinct(deviations.map((t) => t.outcome.reason)) || 'a check failed' };
    if (blocked.length) return blockedResult();
    if (by('passed').length) return { status: 'passed', reason: '' };
  }
  return { status: 'not-tested', reason: distinct(by('not-tested').map((t) => t.outcome.reason)) || 'not tested' };
}

/**
 * Every blocked requirement to its root causes: the failed or warned requirements
 * reached through `blockedBy` (a blocker that is itself blocked passes on its own
 * roots). One without a root in this run is failed, saying what blocked it and that
 * nothing else in the run judged that cause: the step did fail, in front of this test.
 * Each root lists what it blocked.
 */
function settleBlocked(requirements: RequirementResult[]): void {
  const byId = new Map(requirements.map((r) => [r.id, r]));
  const isRoot = (r: RequirementResult | undefined) => !!r && (r.status === 'failed' || r.status === 'warned');
  const rootsOf = (id: string, seen: Set<string>): string[] => {
    const r = byId.get(id);
    if (!r || r.status !== 'blocked' || seen.has(id)) return [];
    seen.add(id);
    return (r.blockedBy ?? []).flatMap((b) => (isRoot(byId.get(b)) ? [b] : rootsOf(b, seen)));
  };
  const blocked = () => requirements.filter((r) => r.status === 'blocked');
  for (;;) {
    const stuck = blocked().filter((r) => rootsOf(r.id, new Set()).length === 0);
    if (stuck.length === 0) break;
    // The bottom of a chain first: what it blocked then has it as a root (a cycle: all at once).
    const bottoms = stuck.filter((r) => (r.blockedBy ?? []).every((b) => byId.get(b)?.status !== 'blocked'));
    for (const r of bottoms.length ? bottoms : stuck) {
      const named = (r.blockedBy ?? []).map((b) => `${b} (${byId.get(b)?.status ?? 'unknown'} in this run)`).join(', ');
      r.reason = `${COUNTED_HERE}: ${named || 'a prerequisite'}\n${r.reason}`;
      r.status = r.level === 'MUST' ? 'failed' : r.level === 'SHOULD' ? 'warned' : 'informational';
      delete r.blockedBy;
    }
  }
  for (const r of blocked()) {
    r.blockedBy = [...new Set(rootsOf(r.id, new Set()))];
    for (const root of r.blockedBy) byId.get(root)!.blocks = [...(byId.get(root)!.blocks ?? []), r.id];
  }
}

export function computeVerdict(input: VerdictInput): VerdictResult {
  const { catalog, tests, selected = null, expected = null } = input;
  const touches = new Map<string, Touch[]>();
  const observations = new Map<string, ObservationRecord[]>();
  const confirmations = new Map<string, Array<TimeoutConfirmation & { test: string }>>();
  for (const test of tests) {
    if (test.confirmation) {
      const own = test.meta?.requirement ?? idFromTestName(test.name);
      if (own) confirmations.set(own, [...(confirmations.get(own) ?? []), { ...test.confirmation, test: test.name }]);
    }
    for (const outcome of outcomesOf(test, selected)) {
      touches.set(outcome.id, [...(touches.get(outcome.id) ?? []), { outcome, test: test.name }]);
    }
    for (const o of test.meta?.observations ?? []) {
      observations.set(o.id, [...(observations.get(o.id) ?? []), { label: o.label, value: o.value, test: test.name }]);
    }
  }

  const requirements = catalog.map((req): RequirementResult => {
    const mine = touches.get(req.id) ?? [];
    const settled = mine.length ? statusFor(req.level, mine) : { status: 'not-tested' as RequirementStatus, reason: '' };
    let { status, reason } = settled;
    if ((status === 'passed' || status === 'informational') && selected && !selected.has(req.id)) {
      // Outside --only, a check a test in scope made on the way passes nothing: the scope is what was asked for
      // ("19 of 124 in scope" must not count a 20th as passed). A failure stays visible: it is one, whatever the scope.
      status = 'not-tested';
      reason = req.untestable ?? NOT_SELECTED;
    } else if (status === 'not-tested' && selected && !selected.has(req.id)) {
      // Outside --only: its skipped tests say nothing more (their reason, counted, is not the reason).
      reason = req.untestable ?? NOT_SELECTED;
    } else if (status === 'not-tested' && (!mine.length || reason === 'not tested')) {
      reason = req.untestable ?? (mine.length ? reason : NO_TEST);
    }
    const result: RequirementResult = {
      id: req.id,
      level: req.level,
      area: req.area,
      section: req.section,
      source: req.source,
      rule: req.rule,
      status,
      reason,
      tests: [...new Set(mine.map((t) => t.test))],
      observations: observations.get(req.id) ?? [],
      ...('blockedBy' in settled && settled.blockedBy ? { blockedBy: settled.blockedBy } : {}),
    };
    const confirmed = confirmations.get(req.id);
    if (confirmed) result.confirmedAfterTimeout = confirmed;
    return result;
  });
  settleBlocked(requirements);
  for (const result of requirements) {
    const status = result.status;
    if (expected?.has(result.id)) {
      result.expectComment = expected.get(result.id) ?? '';
      if (status === 'failed' || status === 'warned') result.expected = true;
      else if (status === 'passed') result.stale = true;
    }
  }

  const counts: Counts = { passed: 0, failed: 0, warned: 0, notTested: 0, informational: 0, blocked: 0, expectedFailures: 0 };
  for (const r of requirements) {
    if (r.status === 'not-tested') counts.notTested++;
    else counts[r.status]++;
    if (r.expected) counts.expectedFailures++;
  }

  const untestable = new Set(catalog.filter((r) => r.untestable).map((r) => r.id));
  const must = requirements.filter((r) => r.level === 'MUST');
  const weakenedBy = [...(input.weakenedBy ?? [])];
  const excused = must.filter((r) => r.status === 'failed' && r.expected).map((r) => r.id);
  if (excused.length) {
    // A MUST failure excused by --expect is a deviation, not conformance: the scope passed, the target does not conform.
    weakenedBy.push({ setting: '--expect', value: excused.join(','), effect: `${excused.length} MUST failure(s) excused as known deviations` });
  }
  const partial = !!selected || weakenedBy.length > 0;
  // Requirements a setting left out (LOCKCONF_SIGN_IN=off) are outside the scope, as --only's unselected are.
  const leftOut = new Set(weakenedBy.flatMap((w) => w.leavesOut ?? []));
  const inScope = (id: string) => (!selected || selected.has(id)) && !leftOut.has(id);
  const verdict = runVerdict({
    interrupted: !!input.interrupted,
    interfered: !!input.interference,
    mustFailed: must.some((r) => r.status === 'failed' && !r.expected),
    mustNotTested: must.some((r) => r.status === 'not-tested' && !untestable.has(r.id) && inScope(r.id))
      || requirements.some((r) => r.status === 'blocked'),
    partial,
  });

  return {
    verdict,
    counts,
    requirements,
    stale: requirements.filter((r) => r.stale).map((r) => r.id),
    partial,
    scope: { inScope: catalog.filter((r) => inScope(r.id)).length, total: catalog.length },
    weakenedBy,
    ...(input.interference ? { interference: input.interference } : {}),
  };
}

/** The run-level verdict from the facts that decide it, in the order of the header above. */
export function runVerdict(facts: { interrupted: boolean; interfered: boolean; mustFailed: boolean; mustNotTested: boolean; partial: boolean }): Verdict {
  if (facts.interrupted) return 'interrupted';
  if (facts.interfered) return 'interfered';
  if (facts.mustFailed) return 'not-conformant';
  if (facts.mustNotTested) return 'incomplete';
  return facts.partial ? 'partial' : 'conformant';
}
