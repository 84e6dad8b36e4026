/**
 * The outcome bookkeeping of one conformance test, kept pure so its rules can be
 * unit-tested without vitest or a target (Autobahn/OpenID style):
 * - a failure counts against the requirement it was checked for, at that
 *   requirement's level: MUST → failed, SHOULD → warned, INFO → informational;
 * - a requirement with only passing checks is passed (INFO: informational);
 * - a requirement whose test could not be carried out is not-tested, unless a
 *   failure was already seen (a failure is evidence and is never hidden);
 * - a requirement whose test could not reach its check because a prerequisite
 *   (another requirement) failed is blocked by that requirement, again unless a
 *   failure of its own was already seen.
 * Every reason and observation passes through the redactor before it is stored.
 */
import type { Level, Requirement } from '../catalog/index.js';
import type { Observation, RequirementOutcome, RequirementStatus } from './outcome.js';
import { clip, expectedObserved, plainMessage } from './failure-words.js';

export interface RecorderDeps {
  /** The catalog entry for an ID; throws on an unknown ID. */
  lookup(id: string): Requirement;
  redact(text: string): string;
}

interface Entry {
  requirement: Requirement;
  passes: number;
  failures: string[];
  notTested: string | null;
  blocked: { by: string[]; reason: string } | null;
}

export class OutcomeRecorder {
  readonly declared: Requirement;
  readonly #deps: RecorderDeps;
  readonly #entries = new Map<string, Entry>();
  readonly #observations: Observation[] = [];

  constructor(declared: Requirement, deps: RecorderDeps) {
    this.declared = declared;
    this.#deps = deps;
    this.#entry(declared.id);
  }

  /** A check of `id` passed. */
  pass(id: string): void {
    this.#entry(id).passes += 1;
  }

  /**
   * A check of `id` failed with `error` (an assertion error or anything thrown);
   * `evidence` names what shows it (e.g. the last exchange).
   */
  fail(id: string, error: unknown, evidence?: string | null): void {
    const entry = this.#entry(id);
    const reason = describeFailure(entry.requirement, error, this.#deps.redact);
    entry.failures.push(evidence ? `${reason}\n${this.#deps.redact(evidence)}` : reason);
  }

  /**
   * One slice (t.slice: "grant=refresh_token") of `id` failed: as fail(), the reason
   * headed by the slice. Returns the reason (redacted) for the slice's own record.
   */
  failSlice(id: string, slice: string, error: unknown, evidence?: string | null): string {
    const entry = this.#entry(id);
    const reason = `[${this.#deps.redact(slice)}] ${describeFailure(entry.requirement, error, this.#deps.redact)}`;
    entry.failures.push(evidence ? `${reason}\n${this.#deps.redact(evidence)}` : reason);
    return reason;
  }

  /** The test could not check `id`; `reason` says why. */
  notTested(id: string, reason: string): void {
    this.#entry(id).notTested = this.#deps.redact(reason);
  }

  /** The test could not reach its check of `id`: the step resting on `by` failed, for `reason`. */
  blocked(id: string, by: string | readonly string[], reason: string): void {
    const entry = this.#entry(id);
    const earlier = entry.blocked;
    entry.blocked = {
      by: [...new Set([...(earlier?.by ?? []), ...(typeof by === 'string' ? [by] : by)])],
      reason: [earlier?.reason, this.#deps.redact(reason)].filter(Boolean).join('\n\n'),
    };
  }

  /** Record an observation for `id` (redacted, JSON-safe). */
  observe(id: string, label: string, value: unknown): void {
    this.#entry(id);
    this.#observations.push({ id, label: this.#deps.redact(label), value: redactJson(value, this.#deps.redact) });
  }

  /** Has `id` been touched (checked, failed, observed or marked not tested)? */
  touched(id: string): boolean {
    return this.#entries.has(id);
  }

  outcomes(): RequirementOutcome[] {
    return [...this.#entries.values()].map(settle);
  }

  observations(): Observation[] {
    return [...this.#observations];
  }

  /** The outcomes that make the vitest test fail: failed MUST requirements. */
  mustFailures(): RequirementOutcome[] {
    return this.outcomes().filter((o) => o.status === 'failed');
  }

  #entry(id: string): Entry {
    let entry = this.#entries.get(id);
    if (!entry) {
      entry = { requirement: this.#deps.lookup(id), passes: 0, failures: [], notTested: null, blocked: null };
      this.#entries.set(id, entry);
    }
    return entry;
  }
}

const FAILURE_STATUS: Record<Level, RequirementStatus> = { MUST: 'failed', SHOULD: 'warned', INFO: 'informational' };

function settle(entry: Entry): RequirementOutcome {
  const { id, level } = entry.requirement;
  if (entry.failures.length > 0) {
    return { id, status: FAILURE_STATUS[level], reason: entry.failures.join('\n\n') };
  }
  if (entry.blocked !== null) return { id, status: 'blocked', reason: entry.blocked.reason, blockedBy: entry.blocked.by };
  if (entry.notTested !== null) return { id, status: 'not-tested', reason: entry.notTested };
  return { id, status: level === 'INFO' ? 'informational' : 'passed' };
}

/**
 * An h2spec-style failure reason: the rule (quoted from the catalog), what was
 * expected and what was observed (when the assertion had both), and the
 * assertion's own words (failure-words.ts), all redacted.
 */
export function describeFailure(req: Requirement, error: unknown, redact: (text: string) => string): string {
  const lines = [`rule (${req.level}, ${req.source}: ${req.section}): "${req.rule}"`];
  const err = error as { message?: unknown; expected?: unknown; actual?: unknown } | null;
  const isAssertion = !!err && typeof err === 'object'
    && ((err as { name?: unknown }).name === 'AssertionError' || ('expected' in err && 'actual' in err));
  if (isAssertion) lines.push(...expectedObserved(err!));
  const message = err && typeof err === 'object' && typeof err.message === 'string' ? err.message : String(error);
  lines.push(`${isAssertion ? 'assertion' : 'error'}: ${clip(isAssertion ? plainMessage(message) : message)}`);
  return redact(lines.join('\n'));
}

/** A JSON-safe copy of `value` with every string redacted (undefined → null). */
export function redactJson(value: unknown, redact: (text: string) => string): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return redact(String(value));
  }
  if (json === undefined) return null;
  return deepRedact(JSON.parse(json) as unknown, redact);
}

/** Redact every string (keys included) of a JSON value. */
export function deepRedact<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => deepRedact(v, redact)) as T;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[redact(k)] = deepRedact(v, redact);
    return out as T;
  }
  return value;
}
