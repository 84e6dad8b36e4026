/**
 * Ctrl-C (SIGINT), SIGTERM or SIGHUP during a run: the tests in progress finish, the rest
 * is cancelled, and the reporter writes every report of what ran with the verdict
 * *interrupted* (exit 1). vitest's own handler would end the process at once and
 * leave a run folder with only run-context.json, so while the run is on it is set
 * aside. A second signal stops the process at once.
 *
 * Passed to vitest as a reporter: onInit is the first moment the run can be cancelled.
 */
import type { Vitest } from 'vitest/node';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Marks the listener that ends a run gracefully: global setup (a sandbox run's clean-up on
 * Ctrl-C) then leaves the signal to it, since the run's own teardown deletes the registrations.
 */
export const GRACEFUL_INTERRUPT = Symbol.for('lockconf.gracefulInterrupt');

const REQUESTED = Symbol.for('lockconf.interruptRequested');

/** True once a signal asked the run in this process to stop (global setup's waits end early on it). */
export function interruptRequested(): boolean {
  return (globalThis as Record<symbol, unknown>)[REQUESTED] === true;
}

/** True when a graceful interrupt (this module's) listens for the signal. */
export function gracefulInterruptInstalled(signal: NodeJS.Signals = 'SIGINT'): boolean {
  return process.listeners(signal).some((l) => (l as unknown as Record<symbol, unknown>)[GRACEFUL_INTERRUPT] === true);
}
const NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

export class InterruptOnSignal {
  /** The signal that asked the run to stop, or null. */
  signal: NodeJS.Signals | null = null;
  readonly #setAside = new Map<NodeJS.Signals, Function[]>();
  readonly #log: (line: string) => void;
  #installed = false;

  /** The listeners there before vitest started: they come back at the end; vitest's own do not. */
  readonly #before = new Map<NodeJS.Signals, Function[]>();

  constructor(log: (line: string) => void = (line) => { process.stderr.write(`${line}\n`); }) {
    this.#log = log;
    for (const signal of SIGNALS) this.#before.set(signal, process.rawListeners(signal));
  }

  readonly #handler = (signal: NodeJS.Signals, vitest: Vitest) => {
    if (this.signal) {
      this.#log(`lockconf: ${signal} again: stopping now, without reports`);
      process.exit(128 + NUMBERS[signal as (typeof SIGNALS)[number]]);
    }
    this.signal = signal;
    (globalThis as Record<symbol, unknown>)[REQUESTED] = true;
    this.#log(`lockconf: ${signal}: stopping after the tests in progress, then writing the reports of what ran (${signal} again stops at once)`);
    void vitest.cancelCurrentRun('keyboard-input');
  };

  readonly #listeners = new Map<NodeJS.Signals, (signal: NodeJS.Signals) => void>();

  onInit(vitest: Vitest): void {
    if (this.#installed) return;
    this.#installed = true;
    (globalThis as Record<symbol, unknown>)[REQUESTED] = false;
    for (const signal of SIGNALS) {
      const earlier = process.rawListeners(signal);
      this.#setAside.set(signal, earlier);
      for (const listener of earlier) process.removeListener(signal, listener as (...args: unknown[]) => void);
      const listener = (s: NodeJS.Signals) => this.#handler(s, vitest);
      Object.assign(listener, { [GRACEFUL_INTERRUPT]: true });
      this.#listeners.set(signal, listener);
      process.on(signal, listener);
    }
  }

  /** True once a signal asked the run to stop. */
  get interrupted(): boolean {
    return this.signal !== null;
  }

  /** Our listeners go; those set aside that were there before vitest started come back. */
  dispose(): void {
    for (const [signal, listener] of this.#listeners) process.removeListener(signal, listener);
    for (const [signal, listeners] of this.#setAside) {
      for (const listener of listeners) if (this.#before.get(signal)?.includes(listener)) process.on(signal, listener as (...args: unknown[]) => void);
    }
    this.#listeners.clear();
    this.#setAside.clear();
    this.#installed = false;
    (globalThis as Record<symbol, unknown>)[REQUESTED] = false; // the next run in this process starts afresh
  }
}
