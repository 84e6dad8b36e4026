/**
 * The run gate: which tests may run at the same time against one target.
 *
 * A reader/writer gate with leases. A concurrent test takes a *lease* on one
 * fixture set (a shared hold: others with other sets run beside it); any other test
 * runs *exclusive* (nothing else runs while it does): those that reset the target,
 * move its clock or change what all tests share (the client-credentials permission,
 * revocation). Waiters are served first come, first served, so a waiting exclusive
 * test holds back later leases and is never starved.
 *
 * The sets start used: an earlier run may have left anything behind. A set is handed
 * out clean at most once: a test leaves things behind (registrations, a renamed lock,
 * a lock state), so a used set waits for the next reset. When no clean
 * set is left and none is still leased, the next taker brings every set back (`reset`:
 * the control protocol's reset and real time) in an exclusive phase of its own. An
 * exclusive test also marks every set that is not leased as used: it may have moved
 * the clock or changed anything else.
 *
 * Every release is idempotent, so the runner can release from a failure hook (a test
 * that timed out) and again when the abandoned body ends.
 * Pure: no I/O but the `reset` callback; tested in test/harness/run/gate.test.ts.
 */

export type Release = () => void;

export interface Lease<S> {
  /** The set this test holds for its duration. */
  readonly set: S;
  readonly index: number;
  /**
   * Runs `fn` while nothing else runs (the lease is kept, the shared hold given up
   * meanwhile), e.g. to move the target's clock; `after` (real time again) follows it.
   * It first lets the other leased tests go on (up to `yieldMs`): see GateOptions.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  release: Release;
}

export interface GateOptions {
  /** Brings every set back to a known state (control reset and real time). */
  reset(): Promise<void>;
  /** Runs after a leased test's exclusive phase (the clock back to real time). */
  afterExclusive?(): Promise<void>;
  /**
   * How long a leased test's exclusive phase waits for the gate to fall idle (no lease
   * held or asked for) before it takes its place in line (default 0: at once). While it
   * waits, tests that start later still lease their sets: otherwise every test behind it
   * waited for the longest one beside it to end, and its phase of a few hundred
   * milliseconds cost the whole run a barrier. It runs the same phase, only later.
   */
  yieldMs?: number;
}

type SetState = 'clean' | 'leased' | 'used';
type Kind = 'shared' | 'exclusive';

export class RunGate<S> {
  readonly #sets: readonly S[];
  readonly #opts: GateOptions;
  readonly #state: SetState[];
  #readers = 0;
  #writer = false;
  readonly #queue: Array<{ kind: Kind; admit: () => void }> = [];
  #releaseWaiters: Array<() => void> = [];
  #idleWaiters: Array<() => void> = [];
  #epoch = 0;
  /** What happened, in order: for the tests of the gate and for debugging a run. */
  readonly log: string[] = [];

  constructor(sets: readonly S[], opts: GateOptions) {
    if (sets.length === 0) throw new Error('a run gate needs at least one set to lease');
    this.#sets = sets;
    this.#opts = opts;
    // Nobody knows what an earlier run left on the target: the first lease resets it.
    this.#state = sets.map(() => 'used');
  }

  /** How many tests hold the gate now, and whether one holds it alone. */
  get holders(): { shared: number; exclusive: boolean } {
    return { shared: this.#readers, exclusive: this.#writer };
  }

  /** The state of every set, in order. */
  get sets(): readonly SetState[] {
    return [...this.#state];
  }

  /** Waits until nothing else runs; every set not leased counts as used afterwards. */
  async exclusive(): Promise<Release> {
    await this.#enter('exclusive');
    this.log.push('exclusive');
    this.#markUnleasedUsed();
    return once(() => this.#leave('exclusive'));
  }

  /** Waits for a clean set (resetting every set when none is left) and holds it, shared. */
  async lease(): Promise<Lease<S>> {
    for (;;) {
      await this.#enter('shared');
      const index = this.#state.indexOf('clean');
      if (index >= 0) {
        this.#state[index] = 'leased';
        this.log.push(`lease ${index}`);
        return this.#leaseOf(index);
      }
      this.#leave('shared');
      if (this.#state.includes('leased')) {
        await new Promise<void>((resolve) => this.#releaseWaiters.push(resolve));
        continue;
      }
      const epoch = this.#epoch;
      await this.#enter('exclusive');
      try {
        // Another taker may have reset while this one waited.
        if (this.#epoch === epoch && !this.#state.includes('clean')) {
          this.log.push('reset');
          await this.#opts.reset();
          this.#state.fill('clean');
          this.#epoch++;
        }
      } finally {
        this.#leave('exclusive');
      }
    }
  }

  #leaseOf(index: number): Lease<S> {
    let holding = true; // the shared hold (given up during an exclusive phase)
    let released = false;
    const release = once(() => {
      released = true;
      this.#state[index] = 'used';
      this.log.push(`release ${index}`);
      if (holding) {
        holding = false;
        this.#leave('shared');
      }
      const waiters = this.#releaseWaiters;
      this.#releaseWaiters = [];
      for (const wake of waiters) wake();
    });
    return {
      set: this.#sets[index]!,
      index,
      release,
      exclusive: async <T>(fn: () => Promise<T>): Promise<T> => {
        if (released) throw new Error('the lease was released');
        holding = false;
        this.#leave('shared');
        await this.#idle(this.#opts.yieldMs ?? 0);
        await this.#enter('exclusive');
        this.log.push(`exclusive ${index}`);
        this.#markUnleasedUsed();
        try {
          return await fn();
        } finally {
          try {
            await this.#opts.afterExclusive?.();
          } finally {
            this.#leave('exclusive');
            if (!released) {
              await this.#enter('shared');
              if (released) this.#leave('shared');
              else holding = true;
            }
          }
        }
      },
    };
  }

  /** Resolves once no test holds or waits for the gate (checked again a turn later), or after `ms`. */
  #idle(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#idleWaiters = this.#idleWaiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.#idleWaiters.push(done);
      this.#wakeIfIdle();
    });
  }

  #isIdle(): boolean {
    return this.#readers === 0 && !this.#writer && this.#queue.length === 0;
  }

  /** Wakes the idle waiters when the gate stays idle for a turn of the event loop (the next test may be about to lease). */
  #wakeIfIdle(): void {
    if (this.#idleWaiters.length === 0 || !this.#isIdle()) return;
    setImmediate(() => {
      if (!this.#isIdle()) return;
      for (const wake of [...this.#idleWaiters]) wake();
    });
  }

  #markUnleasedUsed(): void {
    for (let i = 0; i < this.#state.length; i++) if (this.#state[i] === 'clean') this.#state[i] = 'used';
  }

  #enter(kind: Kind): Promise<void> {
    if (this.#queue.length === 0 && this.#admissible(kind)) {
      this.#take(kind);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push({ kind, admit: resolve }));
  }

  #admissible(kind: Kind): boolean {
    return kind === 'shared' ? !this.#writer : !this.#writer && this.#readers === 0;
  }

  #take(kind: Kind): void {
    if (kind === 'shared') this.#readers++;
    else this.#writer = true;
  }

  #leave(kind: Kind): void {
    if (kind === 'shared') this.#readers--;
    else this.#writer = false;
    // First come, first served: admit from the front while the next one fits.
    while (this.#queue.length > 0 && this.#admissible(this.#queue[0]!.kind)) {
      const next = this.#queue.shift()!;
      this.#take(next.kind);
      next.admit();
    }
    this.#wakeIfIdle();
  }
}

function once(fn: () => void): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
