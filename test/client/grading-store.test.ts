/** The grading store's held refresh (mock/grading/store.ts): released by a second refresh, by a probe's end, or by its bound. */
import { describe, expect, it } from 'vitest';
import { GradingStore } from '../../mock/grading/store.js';

describe('the held refresh of the refresh-in-flight probe', () => {
  it('is released when another refresh arrives, long before its bound', async () => {
    const store = new GradingStore();
    const t0 = Date.now();
    const held = store.holdRefresh(60_000);
    store.releaseHeld();
    await held;
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('is released by disarm (a probe\'s end mark) and by its bound', async () => {
    const store = new GradingStore();
    const held = store.holdRefresh(60_000);
    store.disarm();
    await held;
    await store.holdRefresh(1); // a client that sends one refresh at a time is simply let through
  });

  it('fires once per arming', () => {
    const store = new GradingStore();
    store.arm('refresh-in-flight');
    expect(store.take('refresh-in-flight')).toBe(true);
    expect(store.take('refresh-in-flight')).toBe(false);
  });
});

describe('the armed 401 at a point of the flow', () => {
  it('lets `skip` calls through, then lands once', () => {
    const store = new GradingStore();
    store.arm('api-401', null, null, { skip: 2 });
    expect([1, 2, 3, 4].map(() => store.takeApi401('GET /users/me'))).toEqual([false, false, true, false]);
  });

  it('armed after a refresh, waits for one to succeed', () => {
    const store = new GradingStore();
    store.arm('api-401', null, null, { afterRefresh: true });
    expect(store.takeApi401('GET /users/locks/mine')).toBe(false);
    store.refreshed();
    expect(store.takeApi401('GET /users/me')).toBe(true);
  });
});
