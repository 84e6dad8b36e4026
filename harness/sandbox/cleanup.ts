/**
 * A run against a real sandbox must leave it as it found it: every webhook
 * registration the run creates is deleted at the end, also after a failure or
 * Ctrl-C.
 *
 * Registrations are made in test workers and deleted by the main process, and a
 * run can die before its end, so they are written to a journal file before the
 * registration request is sent (a crash right after still leaves a record). The
 * end of the run (global teardown, or the interrupt handler) deletes what the
 * journal lists; the next run deletes what a killed run left behind.
 *
 * The journal holds lock IDs and the client ID only (no secret); it lives next
 * to the token cache (.lockconf/ by default, mode 0600).
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { LockconfError } from '../run/errors.js';
import { haltRefreshes } from './refresh-chain.js';
import { type TokenCache } from './token-cache.js';
import type { HttpClientLike, TargetProfile } from '../contracts.js';

const registrationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lock'), lockId: z.string().min(1), clientId: z.string().min(1) }),
  z.object({ kind: z.literal('user') }),
]);
export type Registration = z.infer<typeof registrationSchema>;

const keyOf = (r: Registration) => (r.kind === 'lock' ? `lock:${r.lockId}:${r.clientId}` : 'user');

/** The journal's default place: beside the token cache file. */
export function registrationJournalPath(tokenCachePath: string): string {
  return join(dirname(tokenCachePath), 'registrations.jsonl');
}

export class RegistrationJournal {
  constructor(readonly path: string) {}

  /**
   * Records a registration the run is about to create. Call it BEFORE the POST
   * /webhook request: one appended line, fsynced.
   */
  record(reg: Registration): void {
    const parsed = registrationSchema.parse(reg);
    const fd = openSync(this.path, 'a', 0o600);
    try {
      writeSync(fd, JSON.stringify(parsed) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The registrations recorded and not yet deleted, each once. */
  async pending(): Promise<Registration[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new LockconfError('ERR_TOKEN_CACHE', `cannot read the registration journal ${this.path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { cause: err });
    }
    const byKey = new Map<string, Registration>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const reg = registrationSchema.parse(JSON.parse(line));
        byKey.set(keyOf(reg), reg);
      } catch {
        // a torn last line from a killed writer: nothing was sent for it yet
      }
    }
    return [...byKey.values()];
  }

  /** Rewrites the journal to hold only `keep` (atomically), or removes it when nothing is left. */
  async replace(keep: Registration[]): Promise<void> {
    if (keep.length === 0) {
      await unlink(this.path).catch(() => {});
      return;
    }
    await writeFileAtomic(this.path, keep.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600, fsync: true });
  }
}

/**
 * An HttpClientLike that writes every webhook registration to the journal
 * before the POST leaves (POST /webhook/user, POST /webhook/:lockID), so the
 * suites need no change to be cleaned up after.
 */
export function withRegistrationJournal(http: HttpClientLike, journal: RegistrationJournal, profile: Pick<TargetProfile, 'clientId'>): HttpClientLike {
  return {
    request: (req) => http.request(req),
    api: async (method, path, opts) => {
      const reg = registrationOf(method, path, profile.clientId);
      if (reg) journal.record(reg);
      return http.api(method, path, opts);
    },
    exchanges: () => http.exchanges(),
    inFlight: () => http.inFlight?.() ?? [],
  };
}

/** The registration a POST /webhook/… call creates, or null for any other call. */
function registrationOf(method: string, path: string, clientId: string): Registration | null {
  if (method.toUpperCase() !== 'POST') return null;
  const m = /^\/webhook\/([^/?#]+)\/?(?:[?#].*)?$/.exec(path);
  if (!m) return null;
  const segment = decodeURIComponent(m[1]!);
  return segment === 'user' ? { kind: 'user' } : segment ? { kind: 'lock', lockId: segment, clientId } : null;
}

/**
 * What a run against a target without control does at its start (leftovers of
 * a killed run) and at its end (global teardown, or after Ctrl-C): delete every
 * registration the journal beside the token cache lists, with the cached
 * user's access token. Returns lines for the run's output.
 */
export async function cleanUpRegistrations(cache: TokenCache, deps: { http: HttpClientLike }): Promise<string[]> {
  const journal = new RegistrationJournal(registrationJournalPath(cache.path));
  if ((await journal.pending()).length === 0) return [];
  const result = await deleteRegistrations(journal, {
    http: deps.http,
    accessToken: async () => {
      const record = (await cache.reload()) ?? cache.current();
      if (!record) throw new LockconfError('ERR_TOKEN_CACHE', 'the token cache is empty: cannot delete the webhook registrations the run created');
      return record.accessToken;
    },
    onResponse: (res) => cache.observeApiResponse(res),
  });
  return describeCleanup(result);
}

/** The warning a run prints before it registers webhooks on a sandbox's locks. */
export function overwriteWarning(lockIds: string[]): string {
  return `lockconf registers webhooks on ${lockIds.length === 1 ? 'lock' : 'locks'} ${lockIds.join(', ')} as the signed-in user: `
    + 'any registration this user already has on them is replaced (the spec offers no way to read it back and restore it), '
    + 'and the run deletes its own registrations at the end. Use dedicated test locks.';
}

export interface CleanupResult {
  deleted: Registration[];
  failed: Array<{ registration: Registration; status: number | null; error?: string }>;
}

/**
 * Deletes every registration the journal lists (DELETE /webhook/:lockID/:clientID,
 * DELETE /webhook/user) with the user's current access token. A 2xx or 404 counts
 * as deleted; the others stay in the journal for the next run and are reported.
 */
export async function deleteRegistrations(
  journal: RegistrationJournal,
  deps: { http: HttpClientLike; accessToken: () => string | Promise<string>; onResponse?: (res: { status: number; headers: Record<string, string> }) => unknown },
): Promise<CleanupResult> {
  const result: CleanupResult = { deleted: [], failed: [] };
  const pending = await journal.pending();
  if (pending.length === 0) return result;
  for (const registration of pending) {
    const path = registration.kind === 'lock'
      ? `/webhook/${encodeURIComponent(registration.lockId)}/${encodeURIComponent(registration.clientId)}`
      : '/webhook/user';
    try {
      const res = await deps.http.api('DELETE', path, { accessToken: await deps.accessToken() });
      await deps.onResponse?.(res);
      if ((res.status >= 200 && res.status < 300) || res.status === 404) result.deleted.push(registration);
      else result.failed.push({ registration, status: res.status });
    } catch (err) {
      result.failed.push({ registration, status: null, error: (err as Error).message });
    }
  }
  await journal.replace(result.failed.map((f) => f.registration));
  return result;
}

/** One line per registration the clean-up could not delete, for the run's output. */
export function describeCleanup(result: CleanupResult): string[] {
  const name = (r: Registration) => (r.kind === 'lock' ? `lock webhook on ${r.lockId}` : 'user webhook');
  return [
    ...(result.deleted.length > 0 ? [`deleted ${result.deleted.length} webhook registration(s) the run created`] : []),
    ...result.failed.map((f) => `could not delete the ${name(f.registration)} (${f.status === null ? f.error ?? 'no answer' : `HTTP ${f.status}`}); it stays listed and the next run retries`),
  ];
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

/**
 * On Ctrl-C, SIGTERM (a CI runner cancelling the job) or SIGHUP: first let every
 * refresh in flight store its answer (the refresh chain must not break), then run
 * `cleanup`, then exit with 128 + the signal number. A second signal exits at once.
 * Returns a function that removes the handlers.
 */
export function onInterrupt(
  cleanup: (signal: string) => Promise<void>,
  opts: { exit?: (code: number) => void; log?: (line: string) => void } = {},
): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  let stopping = false;
  const handler = (signal: (typeof SIGNALS)[number]) => {
    const code = 128 + SIGNAL_NUMBERS[signal];
    if (stopping) {
      log(`${signal} again: stopping now; registrations left behind are deleted by the next run`);
      exit(code);
      return;
    }
    stopping = true;
    log(`${signal}: finishing the token refresh in flight and deleting the webhook registrations this run created…`);
    void (async () => {
      try {
        await haltRefreshes();
        await cleanup(signal);
      } catch (err) {
        log(`clean-up after ${signal} failed: ${(err as Error).message}`);
      } finally {
        exit(code);
      }
    })();
  };
  for (const s of SIGNALS) process.on(s, handler);
  return () => {
    for (const s of SIGNALS) process.off(s, handler);
  };
}
