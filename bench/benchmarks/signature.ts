/**
 * verifySignature over the raw bytes of bodies of 200 B, 4 KiB and 64 KiB (the
 * capture server keeps bytes; suites verify every delivery), against the least a
 * verifier can do: split the header, HMAC-SHA256 of "t." + body, a timing-safe
 * compare with the hex v. Both loops run in alternating rounds.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { signatureHeader, verifySignature } from '../../harness/wire/signature.js';
import type { Benchmark } from '../benchmark.js';
import { sideBySideSync } from '../compare.js';
import { atLeast, compared, type Metric } from '../result.js';
import { BenchError } from '../safe-error.js';

interface Case {
  label: string;
  bytes: number;
  iterations: [full: number, quick: number];
}

const CASES: Case[] = [
  { label: '200B', bytes: 200, iterations: [1_000, 500] },
  { label: '4KiB', bytes: 4 * 1024, iterations: [500, 250] },
  { label: '64KiB', bytes: 64 * 1024, iterations: [60, 30] },
];
/** Many short rounds: the fastest of each side is the one nothing interrupted. */
const ROUNDS: [full: number, quick: number] = [40, 16];

/** JSON-looking bytes of exactly n bytes. */
function jsonBody(n: number): Buffer {
  const head = '{"LockID":"A1B2C3D4E5F6","EventType":"status","Padding":"';
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(Math.max(0, n - head.length - tail.length)) + tail);
}

/** The reference: parse t and v, HMAC, timing-safe compare. No freshness check, no diagnosis. */
function bareVerify(header: string, body: Buffer, apiKey: string): boolean {
  let t = '';
  let v = '';
  for (const element of header.split(',')) {
    const eq = element.indexOf('=');
    const key = element.slice(0, eq).trim();
    if (key === 't') t = element.slice(eq + 1).trim();
    else if (key === 'v') v = element.slice(eq + 1).trim();
  }
  const expected = createHmac('sha256', apiKey).update(`${t}.`).update(body).digest();
  const given = Buffer.from(v, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const signature: Benchmark = {
  name: 'signature',
  title: 'verifySignature (hex, within tolerance) over raw bodies of 200 B, 4 KiB, 64 KiB, against a bare parse + HMAC + compare',
  async run(ctx) {
    const apiKey = randomBytes(24).toString('hex');
    const metrics: Metric[] = [];
    for (const c of CASES) {
      const bytes = jsonBody(c.bytes);
      const now = Date.now();
      const header = signatureHeader(apiKey, String(now), bytes);
      let failed = 0;
      const verify = () => {
        if (!verifySignature({ header, body: bytes, apiKey, nowMs: now + 1000 }).ok) failed++;
      };
      const bare = () => {
        if (!bareVerify(header, bytes, apiKey)) failed++;
      };
      for (let i = 0; i < 200; i++) {
        verify();
        bare();
      }
      const rates = sideBySideSync({ rounds: ctx.size(...ROUNDS), perRound: ctx.size(...c.iterations), subject: verify, reference: bare });
      if (failed > 0) throw new BenchError(`${failed} verifications of a valid ${c.label} signature failed`);
      metrics.push(compared(`signature.verify-${c.label}`,
        { value: rates.subject, unit: 'verifications/s' }, { value: rates.reference, unit: 'verifications/s', what: 'bare parse + HMAC + compare' }, atLeast(0.8)));
    }
    return metrics;
  },
};
