/**
 * The run's arrival watch (suites/support/arrival-watch.ts): a target that delivers nothing
 * costs one full wait, the waits in progress end with it and later ones are shortened, and a
 * target that delivers anything is never judged by a shortened wait. Attempts are fakes that
 * resolve when told (or when their time is up), so nothing here waits out real time but the
 * shortened waits themselves.
 */
import { describe, expect, it } from 'vitest';
import { ArrivalWatch, SILENT_WAIT_MS, type Attempt } from '../../../suites/support/arrival-watch.js';

/** An attempt that never sees a delivery: it ends empty after its time, or at once when aborted. */
const nothing: Attempt<string> = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(() => resolve(null), ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(null); }, { once: true });
});
const delivered = (value: string): Attempt<string> => async () => value;

describe('a target that delivers nothing is one finding, not one full wait per delivery', () => {
  it('the first empty wait declares the silence with its reason; waits in progress end, later ones are shortened and say why', async () => {
    const watch = new ArrivalWatch(async () => false);
    const inProgress = watch.wait('a delivery beside it', 60_000, nothing);
    const first = await watch.wait('the first delivery', 200, nothing);
    expect(first).toEqual({ waitedMs: expect.any(Number), shortened: null });
    expect(watch.silence?.reason).toBe('the target has delivered nothing in this run: its first expected delivery (the first delivery) did not arrive within 200 ms');
    const started = Date.now();
    const beside = await inProgress;
    expect(beside).toMatchObject({ shortened: { reason: watch.silence!.reason } });
    expect(Date.now() - started).toBeLessThan(SILENT_WAIT_MS + 5_000);
    const later = await watch.wait('a later delivery', 60_000, nothing);
    expect(later).toMatchObject({ shortened: watch.silence });
    expect((later as { waitedMs: number }).waitedMs).toBeLessThan(SILENT_WAIT_MS + 5_000);
    expect(watch.note()).toContain(`the wait was shortened to ${SILENT_WAIT_MS} ms`);
  });

  it('a delivery that comes lifts the silence: later waits are full again', async () => {
    const watch = new ArrivalWatch(async () => false);
    await watch.wait('the first delivery', 50, nothing);
    expect(watch.silence).not.toBeNull();
    expect(await watch.wait('a delivery', 60_000, delivered('d'))).toEqual({ value: 'd' });
    expect(watch.silence).toBeNull();
    expect(await watch.wait('a missing delivery', 50, nothing)).toEqual({ waitedMs: expect.any(Number), shortened: null });
    expect(watch.silence).toBeNull();
  });

  it('a target that delivered anything elsewhere in the run is never silent: an empty wait is only that', async () => {
    const watch = new ArrivalWatch(async () => true);
    expect(await watch.wait('a missing delivery', 50, nothing)).toMatchObject({ shortened: null });
    expect(watch.silence).toBeNull();
  });

  it('a shortened wait that ends empty while something came elsewhere goes on for the rest of its full time', async () => {
    let arrivedElsewhere = false;
    const watch = new ArrivalWatch(async () => arrivedElsewhere);
    await watch.wait('the first delivery', 50, nothing);
    arrivedElsewhere = true;
    let calls = 0;
    // Empty in its shortened time, then the delivery comes within the rest of the full wait.
    const lateThenThere: Attempt<string> = async (ms, signal) => (++calls === 1 ? nothing(ms, signal) : 'late');
    expect(await watch.wait('a late delivery', 60_000, lateThenThere)).toEqual({ value: 'late' });
    expect(calls).toBe(2);
    expect(watch.silence).toBeNull();
  });

  it('when the capture server cannot tell, nothing is declared', async () => {
    const watch = new ArrivalWatch(async () => null);
    expect(await watch.wait('a missing delivery', 50, nothing)).toMatchObject({ shortened: null });
    expect(watch.silence).toBeNull();
  });
});
