/**
 * No verdict of the matrix may depend on the machine's speed (issue 19). The lanes
 * shorten the delivery wait (lanes.ts: 3 s instead of the harness's 15 s) and every
 * run has test timeouts; on a loaded machine a conforming run can miss a delivery by
 * the shortened wait, or a test can run out of its time. So a judgement that is wrong
 * (a legal entry that failed something, a fault not caught) or that names collateral
 * an earlier matrix did not see, and that rests on time, is not final: the entry runs
 * again alone at the harness's own strictness (the default delivery wait, longer test
 * timeouts and quiet windows) and that run judges it (runMatrix in matrix.ts). The outcome says so.
 *
 * What rests on time, read from the run's conformance.json: a result whose reason is a
 * delivery not arriving within the shortened wait ("expected 1 matching delivery within
 * 3000 ms", also as a blocked test's prerequisite), or a test that ran out of its
 * time ("Test timed out in 30000ms"); and any miss of a fault (below). A catch of a fault that rests on time stands:
 * a fault that drops a delivery can only show that way (confirming each would cost the
 * full wait per fault, the cost the shortened wait saves).
 */
import { loadavg } from 'node:os';
import { DEFAULT_DELIVERY_WAIT_MS, EMBEDDED_MOCK_QUIET_WINDOW_MS } from '../../harness/run/weakening.js';
import type { Confirmation, MatrixEntry, RequirementResult } from './matrix-types.js';

/** The matrix's own delivery wait (lanes.ts sets it in every lane). */
export const MATRIX_DELIVERY_WAIT_MS = 3_000;

/** Test timeouts in a confirming run: the harness's (30 s, 60 s for looping tests) times this. */
export const CONFIRM_TIMEOUT_SCALE = 4;

/** A confirming run's test timeout for tests that name none (the conformance project's 30 s, scaled). */
export const CONFIRM_TEST_TIMEOUT_MS = 30_000 * CONFIRM_TIMEOUT_SCALE;

/**
 * A confirming run's quiet window ("nothing (more) arrives"): the embedded mock's 250 ms, scaled.
 * Longer is stricter (more time to see what should not come), so it weakens nothing.
 */
export const CONFIRM_QUIET_WINDOW_MS = EMBEDDED_MOCK_QUIET_WINDOW_MS * CONFIRM_TIMEOUT_SCALE;

const SHORT_WAIT = /\bwithin (\d+) ms\b/g;
const TIMED_OUT = /\b(?:Test|Hook) timed out in \d+ ?ms|the test did not finish \(timeout/;

/** Does this reason rest on time: a delivery waited for less than the harness's default, or a test timeout? */
export function restsOnTime(reason: string | undefined): boolean {
  if (!reason) return false;
  if (TIMED_OUT.test(reason)) return true;
  for (const m of reason.matchAll(SHORT_WAIT)) if (Number(m[1]) < DEFAULT_DELIVERY_WAIT_MS) return true;
  return false;
}

type Report = { requirements: RequirementResult[] } | null;

/** The requirements the run failed, warned or blocked for a reason that rests on time. */
export function timeBound(report: Report, ids?: readonly string[]): string[] {
  if (!report) return [];
  const wanted = ids ? new Set(ids) : null;
  return report.requirements
    .filter((r) => (r.status === 'failed' || r.status === 'warned' || r.status === 'blocked') && (!wanted || wanted.has(r.id)) && restsOnTime(r.reason))
    .map((r) => r.id);
}

/**
 * The requirements whose time-bound results make this judgement unsafe ([]: it is final):
 * - a legal entry judged wrongly, by its failures and warnings that rest on time;
 * - a fault not caught: by the time-bound results of its run (one may be what hid it), else
 *   by its own requirement (what should not arrive may have come after a quiet window that
 *   load made too short, which leaves no trace in the reasons; misses are rare, so cheap);
 * - a caught fault's collateral that rests on time and that an earlier matrix did not
 *   see for it (`known`: collateral an earlier matrix judged, so confirmed or seen at
 *   rest; the plain collateral of a fault that drops deliveries costs no rerun).
 */
export function unsafeJudgement(
  entry: Pick<MatrixEntry, 'kind' | 'requirement'>,
  judged: { ok: boolean; failed: string[]; warned: string[]; collateral: string[] },
  report: Report,
  known: ReadonlySet<string> = new Set(),
): string[] {
  if (!report) return [];
  if (entry.kind === 'conforming' || entry.kind === 'variant') return judged.ok ? [] : timeBound(report, [...judged.failed, ...judged.warned]);
  if (!judged.ok) {
    const bound = timeBound(report);
    return bound.length > 0 ? bound : entry.requirement ? [entry.requirement] : [];
  }
  return timeBound(report, judged.collateral.filter((id) => !known.has(id)));
}

/** The load average over the last minute, rounded (0 where the platform has none). */
export function currentLoad(): number {
  return Math.round((loadavg()[0] ?? 0) * 10) / 10;
}

/** " [confirmed at the full 15000 ms wait, load 17.2: first run said …]" */
export function describeConfirmation(c: Confirmation | undefined): string {
  if (!c) return '';
  return ` [${c.overturned ? 'overturned' : 'confirmed'} by a run at the full ${c.waitMs} ms wait (load ${c.load}); the first run, ` +
    `at ${MATRIX_DELIVERY_WAIT_MS} ms, said: ${c.firstWhy} (resting on time: ${c.restedOn.join(', ')})]`;
}
