/**
 * One run per target on this machine, whatever the target offers: a lease file
 * keyed by the target's URLs (its authUrl, baseUrl and controlUrl), created
 * exclusively in the machine's temporary folder (LOCKCONF_LEASE_DIR to name
 * another). A second run started on the same machine against the same target (a
 * CI job retried, a second terminal) waits for the first up to
 * LOCKCONF_LEASE_WAIT_MS, then refuses with ERR_TARGET_BUSY (exit 2) naming the
 * process that holds it. A file left by a process that is gone is taken over.
 *
 * It stands beside the control protocol's lease (target-lease.ts), which also
 * covers runs on other machines but needs the target's help.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockconfError } from '../run/errors.js';
import { interruptRequested } from '../run/interrupt.js';

export interface LocalLeaseTarget {
  authUrl: string;
  baseUrl: string;
  controlUrl?: string | null;
}

interface Holder {
  runId: string;
  pid: number;
  startedAt: string;
  baseUrl: string;
}

/** The folder that holds the lease files. */
export function localLeaseDir(env: NodeJS.ProcessEnv): string {
  return env.LOCKCONF_LEASE_DIR?.trim() || join(tmpdir(), 'lockconf-leases');
}

function normal(url: string | null | undefined): string {
  if (!url) return '';
  try {
    return new URL(url).href.replace(/\/+$/, '');
  } catch {
    return url;
  }
}

/** The lease file of a target: one name per (authUrl, baseUrl, controlUrl), however each is spelled. */
export function localLeaseFile(target: LocalLeaseTarget, env: NodeJS.ProcessEnv): string {
  const key = createHash('sha256').update(JSON.stringify([normal(target.authUrl), normal(target.baseUrl), normal(target.controlUrl)])).digest('hex').slice(0, 32);
  return join(localLeaseDir(env), `${key}.lease`);
}

/** Whether a process of this machine still runs (a lease or a run mark left by a dead one is taken over). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function holderOf(file: string): Promise<Holder | null> {
  try {
    const held = JSON.parse(await readFile(file, 'utf8')) as Partial<Holder>;
    return typeof held.pid === 'number' && typeof held.runId === 'string' ? (held as Holder) : null;
  } catch {
    return null;
  }
}

export interface LocalLease {
  /** Gives the lease back (only this run's own file goes). Never throws. */
  release(): Promise<void>;
}

export interface LocalLeaseOptions {
  target: LocalLeaseTarget;
  runId: string;
  env: NodeJS.ProcessEnv;
  waitMs: number;
  log: (line: string) => void;
  /** How often a held lease is looked at again while waiting (default 500 ms). */
  pollMs?: number;
}

/** Takes this machine's lease on the target, waiting for another run's up to `waitMs`; ERR_TARGET_BUSY past that. */
export async function takeLocalLease(opts: LocalLeaseOptions): Promise<LocalLease> {
  const file = localLeaseFile(opts.target, opts.env);
  await mkdir(localLeaseDir(opts.env), { recursive: true });
  const mine: Holder = { runId: opts.runId, pid: process.pid, startedAt: new Date().toISOString(), baseUrl: opts.target.baseUrl };
  const text = JSON.stringify(mine);
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      await writeFile(file, text, { flag: 'wx', mode: 0o600 });
      return {
        async release() {
          if ((await readFile(file, 'utf8').catch(() => '')) === text) await rm(file, { force: true }).catch(() => {});
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await holderOf(file);
    if (!holder || !processAlive(holder.pid)) {
      // Left by a run that is gone (or half written by one that is starting: then its own write fails and it waits).
      if (!holder && Date.now() - started < 1000) {
        await sleep(50);
        continue;
      }
      await rm(file, { force: true });
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= opts.waitMs || interruptRequested()) {
      throw new LockconfError('ERR_TARGET_BUSY',
        `another lockconf run on this machine is running against ${holder.baseUrl} (process ${holder.pid}, ${holder.runId}, since ${holder.startedAt})`
        + ` (waited ${Math.round(waited / 1000)} s, LOCKCONF_LEASE_WAIT_MS=${opts.waitMs}). Two runs against one target reset each other's state;`
        + ' run again when that run has ended, or point this one at another target.');
    }
    if (!told) {
      told = true;
      opts.log(`the target is in use by another lockconf run on this machine (process ${holder.pid}, ${holder.runId}); waiting up to ${Math.round(opts.waitMs / 1000)} s (LOCKCONF_LEASE_WAIT_MS)`);
    }
    await sleep(Math.min(opts.pollMs ?? 500, Math.max(1, opts.waitMs - waited)));
  }
}
