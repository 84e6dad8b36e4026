/**
 * t.slice() and t.slices() (issue 19): a test runs one assertion block per
 * declared slice of its requirement (harness/catalog/slices). Each slice is
 * soft: a failing slice is recorded against the requirement, headed by the slice
 * ("[grant=refresh_token] …"), and the next slice still runs; the requirement
 * fails at the end with every failing slice named. A slice whose block made no
 * assertion (no call of t.expect) fails as a suite error: a slice that checks
 * nothing certifies nothing. A slice that cannot be carried out (t.notTested,
 * a refused control call, a missing capability) is recorded not tested and the
 * others go on.
 */
import { blockersFor, isPrerequisiteFailed } from './prerequisite.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { declaredValues } from '../catalog/slices/index.js';
import type { Slice } from '../catalog/slices/index.js';
import type { OutcomeRecorder } from './outcome-recorder.js';
import type { SliceRecord } from './outcome.js';

export interface SliceRunnerDeps {
  recorder: OutcomeRecorder;
  /** The requirement a slice counts for right now: the test's own, or that of the running t.check. */
  current(): string;
  /** The reason when `err` means "could not be carried out", else null. */
  notTestedReason(err: unknown): string | null;
  redact(text: string): string;
  /** What shows a failure (the last exchange), or null. */
  evidence(): string | null;
  /** The declared values of a dimension for a requirement (default: the slice catalog). */
  declared?(id: string, dim: string): string[];
}

interface Frame {
  assertions: number;
  parent: Frame | undefined;
}

export const NO_ASSERTION = 'the slice made no assertion (a suite error: every slice must check something that can fail)';

export class SliceRunner {
  readonly #deps: SliceRunnerDeps;
  readonly #frames = new AsyncLocalStorage<Frame>();
  readonly #records: SliceRecord[] = [];

  constructor(deps: SliceRunnerDeps) {
    this.#deps = deps;
  }

  /** Once the test has ended: the slices' frames are dropped (the test's AsyncLocalStorage no longer rides on every promise). */
  release(): void {
    this.#frames.disable();
  }

  /** `expect` that counts its calls in the running slice (and the slices around it). */
  counting<E extends (...args: never[]) => unknown>(expect: E): E {
    const frames = this.#frames;
    return new Proxy(expect, {
      apply(target, thisArg, args) {
        for (let f = frames.getStore(); f; f = f.parent) f.assertions++;
        return Reflect.apply(target, thisArg, args);
      },
    });
  }

  /** The declared values of `dim` for the current requirement (or `requirement`); a dimension it is not declared over is a suite error. */
  values(dim: string, requirement?: string): string[] {
    const id = requirement ?? this.#deps.current();
    const values = (this.#deps.declared ?? declaredValues)(id, dim);
    if (values.length === 0) throw new Error(`${id} declares no slices over ${dim} (harness/catalog/slices)`);
    return values;
  }

  /** Run fn as the check of one slice of the current requirement. */
  async slice(slice: Slice, fn: () => void | Promise<void>): Promise<void> {
    const id = this.#deps.current();
    const keys = Object.entries(slice).map(([dim, value]) => {
      if (!this.values(dim, id).includes(value)) throw new Error(`${id} declares no slice ${dim}=${value} (harness/catalog/slices)`);
      return `${dim}=${value}`;
    });
    if (keys.length === 0) throw new Error('t.slice() needs a slice: { dim: value }');
    const label = keys.join(', ');
    const frame: Frame = { assertions: 0, parent: this.#frames.getStore() };
    const record = (status: SliceRecord['status'], reason?: string) => {
      for (const key of keys) this.#records.push({ requirement: id, slice: key, status, ...(reason ? { reason } : {}) });
    };
    try {
      await this.#frames.run(frame, fn);
    } catch (err) {
      // A step this slice rests on failed (harness/run/prerequisite.ts): the test is blocked, or fails as its own, as a whole.
      if (isPrerequisiteFailed(err) && blockersFor(err, id).length > 0) throw err;
      const why = this.#deps.notTestedReason(err);
      if (why !== null) return record('not-tested', this.#deps.redact(why));
      return record('failed', this.#deps.recorder.failSlice(id, label, err, this.#deps.evidence()));
    }
    if (frame.assertions === 0) return record('failed', this.#deps.recorder.failSlice(id, label, new Error(NO_ASSERTION), null));
    record('passed');
  }

  /** Run fn once per declared value of `dim` (each a slice of its own). */
  async each(dim: string, fn: (value: string) => void | Promise<void>): Promise<void> {
    for (const value of this.values(dim)) await this.slice({ [dim]: value }, () => fn(value));
  }

  /**
   * When every slice recorded for `id` could not be carried out: the first reason
   * (the requirement is then not tested, never passed); else null.
   */
  onlyNotTested(id: string): string | null {
    const mine = this.#records.filter((r) => r.requirement === id);
    if (mine.length === 0 || mine.some((r) => r.status !== 'not-tested')) return null;
    return mine[0]!.reason ?? 'not tested';
  }

  /** A check of `id` ended without failing: passed, or not tested when every slice of it was. */
  settle(id: string): void {
    const untested = this.onlyNotTested(id);
    if (untested !== null) this.#deps.recorder.notTested(id, untested);
    else this.#deps.recorder.pass(id);
  }

  /** The context methods (contracts.ts ConformanceContext: slice, slices, eachSlice). */
  api(): { slice: SliceRunner['slice']; slices: SliceRunner['values']; eachSlice: SliceRunner['each'] } {
    return { slice: (slice, fn) => this.slice(slice, fn), slices: (dim, requirement) => this.values(dim, requirement), eachSlice: (dim, fn) => this.each(dim, fn) };
  }

  records(): SliceRecord[] {
    return [...this.#records];
  }
}
