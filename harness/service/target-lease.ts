/**
 * One run per target at a time. Two runs against one target wipe each other's
 * state (every test starts with POST /reset), and the target would be judged on
 * the wreck. So, before the first test (docs/control-protocol-extensions.md):
 *
 * - a target with the run lease (POST /lease): the run takes it, renews it while
 *   it runs and gives it back at the end. When another run holds it, this one
 *   waits up to LOCKCONF_LEASE_WAIT_MS (default 60 s), then refuses with
 *   ERR_TARGET_BUSY naming the holder (exit 2, nothing judged);
 * - a target without it, but whose GET /fixtures counts its resets (`resets`):
 *   the run counts its own resets (countOwnReset, from the test workers) and at
 *   the end compares: more resets than its own means someone else reset the
 *   target under it, and the verdict is *interfered*, not a list of failures;
 * - a target with neither: a line says a second run from another machine would go unnoticed.
 *
 * Beside these, whatever the target offers, runs on one machine take its lease
 * there (local-lease.ts, keyed by the target's URLs): a second run started on the
 * same machine waits or refuses, without the target's help. The guards a run had
 * are in its reports (`guards` in conformance.json). The embedded mock belongs to
 * its run alone and needs none of this.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ControlClient } from '../wire/control-client.js';
import { LockconfError } from '../run/errors.js';
import { setRunGuard, type RunGuard, type RunGuardKind } from '../run/run-guard.js';
import { interruptRequested } from '../run/interrupt.js';
import { takeLocalLease, type LocalLease, type LocalLeaseTarget } from './local-lease.js';

/** How long a lease lasts unless renewed; it is renewed every third of that. */
export const LEASE_TTL_MS = 60_000;
/** How long a run waits for another run's lease by default. */
export const DEFAULT_LEASE_WAIT_MS = 60_000;
/** Where the test workers count the resets this run makes (one byte each). */
export const OWN_RESETS_FILE = '.lockconf-resets';

/** A run ID a person can trace back: host, process and a random tail. */
export function newRunId(): string {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '').slice(0, 60) || 'host';
  return `lockconf-${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** LOCKCONF_LEASE_WAIT_MS, in ms (0: refuse at once). */
export function leaseWaitMs(env: NodeJS.ProcessEnv): number {
  const raw = env.LOCKCONF_LEASE_WAIT_MS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_LEASE_WAIT_MS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0 || n > 3_600_000) {
    throw new LockconfError('ERR_PROFILE_INVALID', 'LOCKCONF_LEASE_WAIT_MS must be an integer from 0 to 3600000 (milliseconds)');
  }
  return n;
}

/** Counts one reset this run is about to make (called before the request: a reset that never arrived is no interference). */
export async function countOwnReset(runDir: string | null | undefined): Promise<void> {
  if (!runDir) return;
  await appendFile(join(runDir, OWN_RESETS_FILE), '.').catch(() => {});
}

async function ownResets(runDir: string): Promise<number> {
  try {
    return (await stat(join(runDir, OWN_RESETS_FILE))).size;
  } catch {
    return 0;
  }
}

export interface TargetGuard extends RunGuard {
  /** Stops renewing, gives the lease back, forgets the count. Never throws. */
  close(): Promise<void>;
}

export interface GuardOptions {
  /** The target's control interface (null: a target without one; only this machine's lease guards it). */
  control: ControlClient | null;
  /** The target's URLs: with them, this machine's lease on the target is taken first (local-lease.ts). */
  target?: LocalLeaseTarget;
  runDir: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  runId?: string;
  ttlMs?: number;
  /** How often a busy target is asked again while waiting (default 1 s). */
  pollMs?: number;
}

/**
 * Takes the target for this run (waiting for another run's lease up to the limit) and
 * installs the guard the reporter asks at the end. Throws ERR_TARGET_BUSY when the
 * lease stays held.
 */
export async function guardTarget(opts: GuardOptions): Promise<TargetGuard> {
  const runId = opts.runId ?? newRunId();
  const waitMs = leaseWaitMs(opts.env);
  const local = opts.target ? await takeLocalLease({ target: opts.target, runId, env: opts.env, waitMs, log: opts.log }) : null;
  try {
    return opts.control ? await guardWithControl(opts, opts.control, runId, waitMs, local) : installGuard(local, []);
  } catch (err) {
    await local?.release();
    throw err;
  }
}

/** A guard with nothing to ask at the end (this machine's lease only, or none). */
function installGuard(local: LocalLease | null, kinds: RunGuardKind[]): TargetGuard {
  let closed = false;
  const guard: TargetGuard = {
    interference: async () => null,
    guards: () => [...(local ? ['local-lease' as const] : []), ...kinds],
    async close() {
      if (closed) return;
      closed = true;
      setRunGuard(null);
      await local?.release();
    },
  };
  setRunGuard(guard);
  return guard;
}

async function guardWithControl(opts: GuardOptions, control: ControlClient, runId: string, waitMs: number, local: LocalLease | null): Promise<TargetGuard> {
  const ttlMs = opts.ttlMs ?? LEASE_TTL_MS;
  const started = Date.now();
  let answer = await control.lease(runId, ttlMs);
  if (answer.status === 'held') {
    opts.log(`the target is in use by another run (${answer.heldBy}${answer.expiresAt ? `, lease until ${answer.expiresAt}` : ''}); waiting up to ${Math.round(waitMs / 1000)} s (LOCKCONF_LEASE_WAIT_MS)`);
  }
  while (answer.status === 'held' && Date.now() - started < waitMs && !interruptRequested()) {
    await sleep(Math.min(opts.pollMs ?? 1000, Math.max(0, waitMs - (Date.now() - started))));
    answer = await control.lease(runId, ttlMs);
  }
  if (answer.status === 'held') {
    throw new LockconfError('ERR_TARGET_BUSY',
      `the target is in use by another run: ${answer.heldBy} holds its lease${answer.expiresAt ? ` until ${answer.expiresAt}` : ''}`
      + ` (waited ${Math.round((Date.now() - started) / 1000)} s, LOCKCONF_LEASE_WAIT_MS=${waitMs}). Two runs against one target reset each other's state;`
      + ' run again when that run has ended, or point this one at another target.');
  }
  const leased = answer.status === 'taken';
  await rm(join(opts.runDir, OWN_RESETS_FILE), { force: true });
  // Read once the target is ours: another run's resets before that are no interference.
  const resetsAtStart = await control.fixtures().then((f) => f.resets, () => undefined);
  if (!leased && resetsAtStart === undefined) {
    opts.log(`the target offers neither the run lease nor a reset count (docs/control-protocol-extensions.md): a second run against it at the same time${local ? ' from another machine' : ''} would go unnoticed`);
  }
  const kinds: RunGuardKind[] = [...(local ? ['local-lease' as const] : []), ...(leased ? ['control-lease' as const] : []), ...(resetsAtStart !== undefined ? ['reset-count' as const] : [])];

  let lost: string | null = null;
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = leased
    ? setInterval(() => {
        renewing = control.lease(runId, ttlMs).then((renewed) => {
          if (renewed.status === 'held') lost ??= `this run's lease on the target was taken by ${renewed.heldBy} while the run went on`;
        }, () => { /* a failed renewal is tried again at the next tick, well within the lease's ttl */ });
      }, Math.max(250, Math.floor(ttlMs / 3)))
    : null;
  timer?.unref();

  let closed = false;
  const guard: TargetGuard = {
    async interference() {
      await renewing;
      if (lost) return lost;
      if (resetsAtStart === undefined) return null;
      const fixtures = await control.fixtures();
      if (fixtures.resets === undefined) return null;
      const mine = await ownResets(opts.runDir);
      const others = fixtures.resets - resetsAtStart - mine;
      if (others <= 0) return null;
      return `the target was reset ${others} time(s) by someone else during this run (GET /fixtures "resets" went from ${resetsAtStart} to ${fixtures.resets}; this run reset it ${mine} time(s)): another run against the same target? Its failures cannot be told from the other run's doing.`;
    },
    guards: () => [...kinds],
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      setRunGuard(null);
      await renewing;
      if (leased) await control.releaseLease(runId).catch(() => {});
      await rm(join(opts.runDir, OWN_RESETS_FILE), { force: true }).catch(() => {});
      await local?.release();
    },
  };
  setRunGuard(guard);
  return guard;
}
