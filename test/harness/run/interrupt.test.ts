/**
 * Ctrl-C during a run (harness/run/interrupt.ts): the run is cancelled, not ended,
 * so the reporter still writes the reports of what ran; vitest's own handler, which
 * exits at once, is set aside while the run is on, and what listened before comes back.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Vitest } from 'vitest/node';
import { GRACEFUL_INTERRUPT, InterruptOnSignal, gracefulInterruptInstalled, interruptRequested } from '../../../harness/run/interrupt.js';

describe('InterruptOnSignal', () => {
  it('the first signal cancels the run and says so; the listeners from before come back, vitest\'s do not', () => {
    const before = vi.fn();
    process.on('SIGTERM', before);
    const lines: string[] = [];
    const interrupt = new InterruptOnSignal((l) => lines.push(l));
    const vitestsOwn = vi.fn(); // installed by vitest after the command started, before the run
    process.on('SIGTERM', vitestsOwn);
    const cancelCurrentRun = vi.fn(async () => {});
    try {
      interrupt.onInit({ cancelCurrentRun } as unknown as Vitest);
      expect(gracefulInterruptInstalled('SIGTERM')).toBe(true);
      expect(interrupt.interrupted).toBe(false);
      process.emit('SIGTERM', 'SIGTERM');
      expect(cancelCurrentRun).toHaveBeenCalledWith('keyboard-input');
      expect(interrupt.interrupted).toBe(true);
      expect(interruptRequested()).toBe(true);
      expect(lines).toEqual([expect.stringContaining('SIGTERM: stopping after the tests in progress, then writing the reports of what ran')]);
      expect(before).not.toHaveBeenCalled();
      expect(vitestsOwn).not.toHaveBeenCalled();
    } finally {
      interrupt.dispose();
    }
    expect(interruptRequested()).toBe(false); // the next run in this process starts afresh
    expect(process.listeners('SIGTERM')).toContain(before);
    expect(process.listeners('SIGTERM')).not.toContain(vitestsOwn);
    expect(process.listeners('SIGTERM').some((l) => (l as unknown as Record<symbol, unknown>)[GRACEFUL_INTERRUPT])).toBe(false);
    process.off('SIGTERM', before);
  });
});
