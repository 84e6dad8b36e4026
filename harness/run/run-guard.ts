/**
 * The run's guard against other runs on its target (harness/service/target-lease.ts):
 * set by global setup, asked by the reporter once every test has ended whether
 * someone else acted on the target meanwhile. Global setup and the reporter run in
 * the same process but may load this module separately (the CLI is prebuilt, global
 * setup goes through vitest's module runner), so the guard lives on globalThis.
 */
/**
 * What guarded a run against another on its target (conformance.json `guards`; none: an empty list):
 * the control protocol's lease, the target's reset count, this machine's lease (harness/service/local-lease.ts).
 */
export type RunGuardKind = 'control-lease' | 'reset-count' | 'local-lease';

export interface RunGuard {
  /** What showed that someone else acted on the target during the run, or null when nothing did. */
  interference(): Promise<string | null>;
  /** The guards this run had. */
  guards?(): RunGuardKind[];
}

const KEY = Symbol.for('lockconf.runGuard');

type WithGuard = typeof globalThis & { [KEY]?: RunGuard | null };

export function setRunGuard(guard: RunGuard | null): void {
  (globalThis as WithGuard)[KEY] = guard;
}

export function currentRunGuard(): RunGuard | null {
  return (globalThis as WithGuard)[KEY] ?? null;
}
