/**
 * The control steps of exploration: the target's clock moved (minutes to beyond a year)
 * and the target reset, each applied to the model too.
 */
import { DAY, HOUR, MINUTE, advance, reset, type ModelState } from '../../harness/model/index.js';
import { step, type Real } from './steps.js';
import type { Cmd } from './webhook-slots.js';

/** Clock moves: minutes to beyond a year. */
export const CLOCK_MOVES_MS = [5 * MINUTE, HOUR, 23 * HOUR, 2 * DAY, 30 * DAY, 121 * DAY, 200 * DAY, 367 * DAY] as const;

function span(ms: number): string {
  return ms >= DAY ? `${Math.round(ms / DAY)} day(s)` : ms >= HOUR ? `${Math.round(ms / HOUR)} h` : `${Math.round(ms / MINUTE)} min`;
}

export class AdvanceClock implements Cmd {
  constructor(readonly ms: number) {}
  check(): boolean { return true; }
  async run(m: ModelState, r: Real): Promise<void> {
    await step(r, `the clock moves ${span(this.ms)} (control)`, async () => {
      await r.port.control!.clock!.advance(this.ms);
      advance(m, this.ms);
      return null;
    });
  }
  toString(): string { return `AdvanceClock(${span(this.ms)})`; }
}

export class Reset implements Cmd {
  check(): boolean { return true; }
  async run(m: ModelState, r: Real): Promise<void> {
    await step(r, 'the target is reset: every token and code dropped (control)', async () => {
      await r.port.control!.reset();
      reset(m);
      r.secrets.clear();
      r.hooks?.clear();
      return null;
    });
  }
  toString(): string { return 'Reset'; }
}
