/**
 * Delivery lanes: one per destination (origin and path), each with its own
 * connection pool, its own concurrency and its own bounded queue. A receiver
 * that never answers holds only its own lane's connections, so every other
 * destination, including another path on the same host and port (every inbox of
 * a capture server shares one port), keeps its deliveries flowing.
 */
import { Pool } from 'undici';

/** Deliveries in flight at once to one destination. */
export const LANE_CONCURRENCY = 8;
/** Deliveries waiting for one destination; beyond it new ones are dropped. */
export const LANE_QUEUE_LIMIT = 1000;
/** Deliveries waiting across every destination. */
export const TOTAL_QUEUE_LIMIT = 10_000;
/** Idle lanes kept (their pools and keep-alive sockets) before the least recently used is forgotten. */
const IDLE_LANES_KEPT = 64;

export type LaneJob = (dispatcher: Pool) => Promise<void>;

interface Lane {
  key: string;
  pool: Pool;
  active: number;
  queue: LaneJob[];
}

/** Why enqueue refused a job. */
export type Refusal = { reason: 'lane-full' | 'total-full'; waiting: number; limit: number };

/** The destination key of a URL: origin and path, without query or fragment. */
export function destinationOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export class DeliveryLanes {
  readonly #lanes = new Map<string, Lane>();

  /** Runs job on the URL's lane when a slot is free; null, or why the job was refused. */
  enqueue(url: URL, job: LaneJob): Refusal | null {
    const key = destinationOf(url);
    let lane = this.#lanes.get(key);
    if (lane && lane.queue.length >= LANE_QUEUE_LIMIT) return { reason: 'lane-full', waiting: lane.queue.length, limit: LANE_QUEUE_LIMIT };
    const waiting = this.waiting;
    if (waiting >= TOTAL_QUEUE_LIMIT) return { reason: 'total-full', waiting, limit: TOTAL_QUEUE_LIMIT };
    if (!lane) {
      lane = {
        key,
        // Its own pool: sockets are never shared with another destination.
        pool: new Pool(url.origin, { connections: LANE_CONCURRENCY, pipelining: 1, keepAliveTimeout: 1_000 }),
        active: 0,
        queue: [],
      };
      this.#lanes.set(key, lane);
    } else {
      // Most recently used last: eviction takes the front.
      this.#lanes.delete(key);
      this.#lanes.set(key, lane);
    }
    lane.queue.push(job);
    this.#pump(lane);
    return null;
  }

  #pump(lane: Lane): void {
    while (lane.active < LANE_CONCURRENCY && lane.queue.length > 0) {
      const job = lane.queue.shift()!;
      lane.active += 1;
      void job(lane.pool)
        .catch(() => {})
        .finally(() => {
          lane.active -= 1;
          this.#pump(lane);
          if (lane.active === 0 && lane.queue.length === 0) this.#trimIdle();
        });
    }
  }

  /**
   * Forgets the least recently used idle lanes beyond IDLE_LANES_KEPT. A forgotten lane
   * is not closed: it has nothing to do, its idle sockets are unreferenced and close when
   * their keep-alive ends, and its pool goes with the garbage. Were a busy lane ever
   * forgotten, its own jobs would still run on its own pool (nothing is lost; a new
   * delivery to it would open a fresh lane beside it).
   */
  #trimIdle(): void {
    let idle = 0;
    for (const lane of this.#lanes.values()) if (lane.active === 0 && lane.queue.length === 0) idle += 1;
    for (const lane of [...this.#lanes.values()]) {
      if (idle <= IDLE_LANES_KEPT) break;
      if (lane.active > 0 || lane.queue.length > 0) continue;
      this.#lanes.delete(lane.key);
      idle -= 1;
    }
  }

  /** Deliveries waiting for a slot, across every lane (counted from the queues themselves, so it cannot drift). */
  get waiting(): number {
    let waiting = 0;
    for (const lane of this.#lanes.values()) waiting += lane.queue.length;
    return waiting;
  }

  get laneCount(): number {
    return this.#lanes.size;
  }

  /** Closes every pool (after the jobs were abandoned). */
  async close(): Promise<void> {
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    await Promise.all(lanes.map((lane) => lane.pool.destroy().catch(() => {})));
  }
}
