/**
 * The capture server: how fast it takes in signed deliveries and keeps their
 * exact bytes (8 senders), against a bare fastify route that reads the raw body
 * and keeps it (the least a receiver can do), measured side by side in
 * alternating rounds; no delivery may be lost on either. Also how soon a test
 * waiting on an inbox (long poll) holds a delivery once it is sent (context).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { CaptureClient } from '../../harness/wire/capture/client.js';
import { startCaptureServer } from '../../harness/wire/capture/server.js';
import { signatureHeader } from '../../harness/wire/signature.js';
import type { Benchmark } from '../benchmark.js';
import { LoopbackClient } from '../http.js';
import { sideBySide } from '../compare.js';
import { runLoad } from '../load.js';
import { atLeast, compared, metric } from '../result.js';
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

/** The reference: one fastify route that reads the raw body as bytes, keeps it, answers 200. */
async function startBareReceiver(): Promise<{ url: string; kept: Buffer[]; close(): Promise<void> }> {
  const kept: Buffer[] = [];
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/in/:id', async (req, reply) => {
    kept.push(req.body as Buffer);
    return reply.code(200).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/in/bench`, kept, close: () => app.close() };
}

export const capture: Benchmark = {
  name: 'capture',
  title: 'capture server: signed deliveries ingested with raw bytes (8 senders), long-poll wake-up latency',
  async run(ctx) {
    const server = await startCaptureServer();
    const bare = await startBareReceiver();
    const client = new CaptureClient(server);
    const sender = new LoopbackClient(server.publicBaseUrl, CONCURRENCY);
    const bareSender = new LoopbackClient(new URL(bare.url).origin, CONCURRENCY);
    const apiKey = randomBytes(24).toString('hex');
    try {
      const headers = (bytes: Buffer) => ({ 'content-type': 'application/json', 'x-signature': signatureHeader(apiKey, String(Date.now()), bytes) });
      const post = async (inboxUrl: string, bytes: Buffer) => {
        await sender.send('POST', new URL(inboxUrl).pathname, { headers: headers(bytes), body: bytes, expect: 200 });
      };
      const postBare = async (bytes: Buffer) => {
        await bareSender.send('POST', new URL(bare.url).pathname, { headers: headers(bytes), body: bytes, expect: 200 });
      };

      const warm = await client.newInbox({ label: 'bench warm-up' });
      await runLoad({ total: 200, concurrency: CONCURRENCY, op: (i) => post(warm.url, body(i)) });
      await runLoad({ total: 200, concurrency: CONCURRENCY, op: (i) => postBare(body(i)) });
      bare.kept.length = 0;

      const rounds = ctx.size(4, 2);
      const perRound = ctx.size(1000, 300);
      const total = rounds * perRound;
      const inbox = await client.newInbox({ label: 'bench ingest' });
      const bodies = Array.from({ length: perRound }, (_, i) => body(i));
      const rates = await sideBySide({
        rounds,
        perRound,
        concurrency: CONCURRENCY,
        subject: (i) => post(inbox.url, bodies[i]!),
        reference: (i) => postBare(bodies[i]!),
      });
      ctx.log(`capture ingest: ${Math.round(rates.subject)} deliveries/s; bare fastify route ${Math.round(rates.reference)} deliveries/s`);

      // Every delivery kept, byte for byte, on both sides.
      const kept = await inbox.deliveries();
      if (kept.length !== total) throw new BenchError(`capture kept ${kept.length} of ${total} deliveries`);
      if (bare.kept.length !== total) throw new BenchError(`the bare route kept ${bare.kept.length} of ${total} deliveries`);
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
        compared('capture.ingest', { value: rates.subject, unit: 'deliveries/s' }, { value: rates.reference, unit: 'deliveries/s', what: 'bare fastify route' }, atLeast(0.9),
          `${total} deliveries each, all kept byte for byte`),
        metric('capture.long-poll.p50', w.p50, 'ms', null),
        metric('capture.long-poll.p95', w.p95, 'ms', null),
        metric('capture.long-poll.p99', w.p99, 'ms', null),
      ];
    } finally {
      await sender.close();
      await bareSender.close();
      await server.close();
      await bare.close();
    }
  },
};
