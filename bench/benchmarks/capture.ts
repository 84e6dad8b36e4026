/**
 * The capture server: how fast it takes in signed deliveries and keeps their
 * exact bytes (8 senders), and how soon a test waiting on an inbox (long poll)
 * holds a delivery once it is sent.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { CaptureClient } from '../../harness/wire/capture/client.js';
import { startCaptureServer } from '../../harness/wire/capture/server.js';
import { signatureHeader } from '../../harness/wire/signature.js';
import type { Benchmark } from '../benchmark.js';
import { LoopbackClient } from '../http.js';
import { loopMetrics } from '../latency-metrics.js';
import { runLoad } from '../load.js';
import { atLeast, atMost, metric } from '../result.js';
import { BenchError } from '../safe-error.js';
import { summarize } from '../stats.js';

const CONCURRENCY = 8;
/** Time for a long poll to reach the server before the delivery is sent. */
const POLL_HEAD_START_MS = 5;

/** A status-webhook-like body of about 600 bytes, distinct per index. */
function body(index: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      LockID: 'A1B2C3D4E5F6',
      EventType: 'status',
      Event: 'lock',
      Device: 'lock',
      Seq: index,
      User: { UserID: '6f1c2b7e-0000-4000-8000-000000000001', FirstName: 'Ada', LastName: 'Lovelace', PhoneNo: '+4400000000', Email: 'ada@example.test' },
      Padding: 'x'.repeat(300),
      Timestamp: 1_700_000_000_000 + index,
    }),
  );
}

export const capture: Benchmark = {
  name: 'capture',
  title: 'capture server: signed deliveries ingested with raw bytes (8 senders), long-poll wake-up latency',
  async run(ctx) {
    const server = await startCaptureServer();
    const client = new CaptureClient(server);
    const sender = new LoopbackClient(server.publicBaseUrl, CONCURRENCY);
    const apiKey = randomBytes(24).toString('hex');
    try {
      const post = async (inboxUrl: string, bytes: Buffer) => {
        const path = new URL(inboxUrl).pathname;
        await sender.send('POST', path, {
          headers: { 'content-type': 'application/json', 'x-signature': signatureHeader(apiKey, String(Date.now()), bytes) },
          body: bytes,
          expect: 200,
        });
      };

      const warm = await client.newInbox({ label: 'bench warm-up' });
      await runLoad({ total: 200, concurrency: CONCURRENCY, op: (i) => post(warm.url, body(i)) });

      const total = ctx.size(4000, 600);
      const inbox = await client.newInbox({ label: 'bench ingest' });
      const bodies = Array.from({ length: total }, (_, i) => body(i));
      const ingest = await runLoad({ total, concurrency: CONCURRENCY, op: (i) => post(inbox.url, bodies[i]!) });
      ctx.log(`capture ingest: ${total} in ${Math.round(ingest.elapsedMs)} ms`);

      // Every delivery kept, byte for byte.
      const kept = await inbox.deliveries();
      if (kept.length !== total) throw new BenchError(`capture kept ${kept.length} of ${total} deliveries`);
      const sent = new Set(bodies.map((b) => b.toString('base64')));
      const altered = kept.filter((d) => !sent.has(d.rawBody.toString('base64'))).length;
      if (altered > 0) throw new BenchError(`${altered} captured bodies differ from the bytes sent`);

      // A waiting test: long poll first, then the delivery.
      const polls = ctx.size(200, 50);
      const wake: number[] = [];
      for (let i = 0; i < polls; i++) {
        const box = await client.newInbox({ label: 'bench poll' });
        const waiting = box.waitFor(1, { timeoutMs: 5_000 });
        await sleep(POLL_HEAD_START_MS);
        const t0 = performance.now();
        await post(box.url, bodies[i % bodies.length]!);
        await waiting;
        wake.push(performance.now() - t0);
      }
      const w = summarize(wake);
      return [
        ...loopMetrics('capture.ingest', {
          count: total,
          elapsedMs: ingest.elapsedMs,
          latencies: ingest.latencies,
          rateUnit: 'deliveries/s',
          goals: { rate: atLeast(1000), p95: atMost(30), p99: atMost(250) },
        }),
        metric('capture.long-poll.p50', w.p50, 'ms', null),
        metric('capture.long-poll.p95', w.p95, 'ms', atMost(10)),
        metric('capture.long-poll.p99', w.p99, 'ms', atMost(50)),
      ];
    } finally {
      await sender.close();
      await server.close();
    }
  },
};
