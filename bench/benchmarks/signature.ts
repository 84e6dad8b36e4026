/**
 * verifySignature over the raw bytes of bodies of 200 B, 4 KiB and 64 KiB (the
 * capture server keeps bytes; suites verify every delivery).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { signatureHeader, verifySignature } from '../../harness/wire/signature.js';
import type { Benchmark } from '../benchmark.js';
import { atLeast, metric } from '../result.js';
import { BenchError } from '../safe-error.js';

interface Case {
  label: string;
  bytes: number;
  iterations: [full: number, quick: number];
  goal: number;
}

const CASES: Case[] = [
  { label: '200B', bytes: 200, iterations: [40_000, 20_000], goal: 40_000 },
  { label: '4KiB', bytes: 4 * 1024, iterations: [20_000, 10_000], goal: 30_000 },
  { label: '64KiB', bytes: 64 * 1024, iterations: [3_000, 1_500], goal: 4_000 },
];

/** JSON-looking bytes of exactly n bytes. */
function jsonBody(n: number): Buffer {
  const head = '{"LockID":"A1B2C3D4E5F6","EventType":"status","Padding":"';
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(Math.max(0, n - head.length - tail.length)) + tail);
}

export const signature: Benchmark = {
  name: 'signature',
  title: 'verifySignature (hex, within tolerance) over raw bodies of 200 B, 4 KiB, 64 KiB',
  async run(ctx) {
    const apiKey = randomBytes(24).toString('hex');
    const metrics = [];
    for (const c of CASES) {
      const bytes = jsonBody(c.bytes);
      const now = Date.now();
      const header = signatureHeader(apiKey, String(now), bytes);
      const verify = () => verifySignature({ header, body: bytes, apiKey, nowMs: now + 1000 });
      for (let i = 0; i < 200; i++) verify();
      const n = ctx.size(...c.iterations);
      let failed = 0;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) if (!verify().ok) failed++;
      const ms = performance.now() - t0;
      if (failed > 0) throw new BenchError(`${failed} verifications of a valid ${c.label} signature failed`);
      metrics.push(metric(`signature.verify-${c.label}`, (n * 1000) / ms, 'verifications/s', atLeast(c.goal)));
    }
    return metrics;
  },
};
