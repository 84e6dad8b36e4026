/**
 * Finding 1 and 2: one stuck receiver must not cost anyone else a webhook, the
 * queue is bounded, and only http:/https: URLs are delivered to.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Registration } from '../../../mock/webhooks/registry.js';
import { DeliveryLanes, LANE_CONCURRENCY, LANE_QUEUE_LIMIT } from '../../../mock/webhooks/lanes.js';
import { startApiApp, type ApiApp } from '../../support/api-app.js';
import { startHoldServer, type HoldServer } from './fixtures/hold-server.js';

let hold: HoldServer;
let app: ApiApp;
let lines: string[];

function registration(url: string): Registration {
  return {
    id: 'r', lockId: null, userId: null, clientId: app.ctx.credentials.clientId, url, method: 'POST',
    header: 'x-hook', token: 'hook-token', notificationTypes: ['operation'], createdAtMs: 0,
  };
}

beforeEach(async () => {
  lines = [];
  hold = await startHoldServer();
  app = await startApiApp({ options: { deliveryTimeoutMs: 4_000 }, log: (line) => lines.push(line) });
});
afterEach(async () => {
  await app.close();
  await hold.close();
});

describe('Delivery: one destination cannot starve another', () => {
  it('a never-answering path on the same host and port leaves the healthy path 100 of 100 deliveries', async () => {
    const stuck = registration(`${hold.url}/stuck`);
    const healthy = registration(`${hold.url}/healthy`);
    for (let i = 0; i < 100; i++) {
      app.services.deliverer.deliver(stuck, { n: i });
      app.services.deliverer.deliver(healthy, { n: i });
    }
    // Well inside the 4 s delivery timeout: nothing stuck has been given up yet.
    const arrived = await hold.waitFor('/healthy', 100, 2_500);
    expect(arrived).toBe(100);
    expect(hold.count('/stuck')).toBe(LANE_CONCURRENCY);
  });
});

describe('Delivery: the queue is bounded', () => {
  it('deliveries beyond the bound for one receiver are dropped with a clear log line', async () => {
    const stuck = registration(`${hold.url}/stuck-queue`);
    const total = LANE_CONCURRENCY + LANE_QUEUE_LIMIT + 5;
    for (let i = 0; i < total; i++) app.services.deliverer.deliver(stuck, { n: i });
    const dropped = app.services.deliverer.attempts().filter((a) => a.error === 'dropped');
    expect(dropped).toHaveLength(5);
    const dropLines = lines.filter((l) => l.includes('dropped'));
    expect(dropLines).toHaveLength(5);
    expect(dropLines[0]).toBe(`webhook delivery to ${hold.url} dropped: ${LANE_QUEUE_LIMIT} deliveries already waiting (limit ${LANE_QUEUE_LIMIT} for this receiver)`);
  });
});

describe('Delivery: only http: and https: URLs', () => {
  it('a registration URL of another scheme is never contacted', async () => {
    app.services.deliverer.deliver(registration('file:///etc/passwd'), { n: 1 });
    app.services.deliverer.deliver(registration('ftp://127.0.0.1/x'), { n: 2 });
    await app.services.events.idle();
    expect(app.services.deliverer.attempts().map((a) => a.error)).toEqual(['bad-url', 'bad-url']);
  });
});

describe('Delivery: a timeout is logged as a timeout', () => {
  it('says "timed out after N ms", with the origin only', async () => {
    await app.close();
    app = await startApiApp({ options: { deliveryTimeoutMs: 200 }, log: (line) => lines.push(line) });
    app.services.deliverer.deliver(registration(`${hold.url}/stuck-log?secret=abc`), { n: 1 });
    await app.services.events.idle();
    expect(app.services.deliverer.attempts().at(-1)).toMatchObject({ status: null, error: 'timeout' });
    expect(lines).toContain(`webhook delivery to ${hold.url} timed out after 200 ms`);
  });
});

describe('Delivery lanes: nothing is lost to their bookkeeping, however long the mock runs', () => {
  const destination = (n: number) => new URL(`http://127.0.0.1:9/inbox-${n}`);

  it('12,000 deliveries one after another are none of them refused (the waiting count cannot drift)', async () => {
    const lanes = new DeliveryLanes();
    let ran = 0;
    const refusals: unknown[] = [];
    for (let batch = 0; batch < 1_500; batch++) {
      const done: Promise<void>[] = [];
      for (let i = 0; i < LANE_CONCURRENCY; i++) {
        done.push(new Promise<void>((resolve) => {
          const refusal = lanes.enqueue(destination(i % 3), async () => { ran += 1; resolve(); });
          if (refusal) { refusals.push(refusal); resolve(); }
        }));
      }
      await Promise.all(done);
    }
    expect(refusals).toEqual([]);
    expect(ran).toBe(12_000);
    expect(lanes.waiting).toBe(0);
    await lanes.close();
  });

  it('a busy lane keeps running its queued jobs on an open pool while 100 other lanes come and go idle', async () => {
    const lanes = new DeliveryLanes();
    const release: (() => void)[] = [];
    const closedWhenRun: boolean[] = [];
    const busy = 3 * LANE_CONCURRENCY;
    for (let i = 0; i < busy; i++) {
      lanes.enqueue(destination(0), async (pool) => {
        closedWhenRun.push(pool.closed || pool.destroyed);
        await new Promise<void>((resolve) => release.push(resolve));
      });
    }
    // The busy lane is now the least recently used of 101 destinations; each other lane goes idle at once.
    for (let n = 1; n <= 100; n++) await new Promise<void>((resolve) => lanes.enqueue(destination(n), async () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lanes.laneCount).toBeLessThanOrEqual(65);
    while (closedWhenRun.length < busy) {
      release.splice(0).forEach((go) => go());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(closedWhenRun).toEqual(Array(busy).fill(false));
    await lanes.close();
  });
});
