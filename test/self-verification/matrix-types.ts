/**
 * The shapes of the self-verification matrix (matrix.ts): its entries, a run's
 * requirement results, and the outcome that judges an entry.
 */
import type { MockOptions } from '../../mock/context.js';

/**
 * `scope-check`: a fault run again with every suite (no --only), one per spec area, to show
 * that scoping a fault to its own area's suites changes nothing in the judgement.
 */
export type EntryKind = 'conforming' | 'variant' | 'fault' | 'scope-check';

export interface MatrixEntry {
  name: string;
  kind: EntryKind;
  description: string;
  mockOptions: MockOptions;
  /** For faults: the requirement the fault breaks. */
  requirement?: string;
  /** Requirement IDs to run (--only); undefined runs everything. */
  only?: string[];
  /** A legal entry judged on the sign-in screens too (Chromium: matrix.ts needsSignIn). */
  signIn?: boolean;
}

export interface RequirementResult {
  id: string;
  level: string;
  status: 'passed' | 'failed' | 'warned' | 'not-tested' | 'informational' | 'blocked';
  reason?: string;
  blockedBy?: string[];
}

export interface MatrixOutcome {
  entry: MatrixEntry;
  verdict: string | null;
  failed: string[];
  warned: string[];
  notTestedMust: string[];
  /**
   * For a fault: the OTHER requirements the run failed or warned (not the fault's own, not
   * those of the faults it shared the run with): what one bug costs beyond its own row.
   */
  collateral: string[];
  /** Requirements the run reported blocked (a prerequisite failed: harness/run/prerequisite.ts). */
  blocked: string[];
  /** Did the entry get the judgement it should? */
  ok: boolean;
  why: string;
  durationMs: number;
  /** CPU time the lane spent on the run that judged the entry (null when not known). */
  cpuMs?: number | null;
  exitCode: number | null;
  /** The run that judged the entry (its own, or a shared one: packing.ts). */
  run: string;
  /** The other faults switched on in that run. */
  sharedWith: string[];
  /** Set when a shared run could not judge the entry and it ran again (alone or in a smaller run): why. */
  rerunAlone?: string;
  /** When a shared run did not catch the entry and it ran again alone: the faults of that run that may have hidden it (packing.ts suspectedHiders). */
  hiddenBy?: string[];
  /**
   * The most other runs in flight at once while the run that judged the entry ran (the lanes
   * outnumber the cores): the conforming entries' verdicts were reached under that load.
   */
  alongside?: number;
  /**
   * Set when the first run's judgement rested on time (a delivery not arriving within the
   * lanes' shortened wait, a test timeout) and the entry ran again alone at the harness's
   * own strictness, which judged it (confirm.ts).
   */
  confirmed?: Confirmation;
}

/** A judgement that rested on time, and the run at full strictness that made it final (confirm.ts). */
export interface Confirmation {
  /** The requirements whose results rested on time in the first run. */
  restedOn: string[];
  /** The first run's judgement. */
  firstWhy: string;
  /** The delivery wait of the confirming run (the harness's default). */
  waitMs: number;
  /** The load average (1 min) when the confirming run started. */
  load: number;
  /** true: the confirming run judged otherwise than the first (the first was the machine's speed). */
  overturned: boolean;
}
