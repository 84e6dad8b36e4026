/**
 * The Redactor over what a test leaves behind: a 64 KiB exchange log with 50
 * secrets registered (tokens, codes, keys in their raw, URL-encoded and JSON
 * forms) and JWTs it was not told about.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SecretKind } from '../../harness/contracts.js';
import { Redactor } from '../../harness/wire/redact.js';
import type { Benchmark } from '../benchmark.js';
import { atLeast, metric } from '../result.js';
import { BenchError } from '../safe-error.js';

const KINDS: SecretKind[] = ['access_token', 'refresh_token', 'code', 'client_secret', 'api_key', 'webhook_token'];
const TEXT_BYTES = 64 * 1024;

function jwtLike(): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: randomBytes(8).toString('hex'), iat: 1 })}.${randomBytes(32).toString('base64url')}`;
}

/** An exchange-log-like text of 64 KiB with secrets in several forms, and unregistered JWTs. */
function logText(secrets: string[]): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < TEXT_BYTES; i++) {
    const s = secrets[i % secrets.length]!;
    const line =
      i % 5 === 0
        ? `POST /oauth/access_token grant_type=refresh_token&refresh_token=${encodeURIComponent(s)}&client_id=bench\n`
        : i % 5 === 1
          ? `{"access_token":${JSON.stringify(s)},"expires_in":10368000,"note":"ordinary words between the secrets"}\n`
          : i % 5 === 2
            ? `x-access-token: ${jwtLike()}\n`
            : `GET /api/users/me 200 in 2 ms; nothing secret on this line, only prose of a plain exchange log ${i}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('').slice(0, TEXT_BYTES);
}

export const redact: Benchmark = {
  name: 'redact',
  title: 'Redactor.redact() over a 64 KiB exchange log, 50 secrets registered',
  async run(ctx) {
    const redactor = new Redactor();
    const secrets = Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? jwtLike() : `${randomBytes(32).toString('base64url')}+/=`));
    secrets.forEach((s, i) => redactor.add(s, KINDS[i % KINDS.length]!));
    const text = logText(secrets);

    const first = redactor.redact(text);
    const leaked = secrets.filter((s) => first.includes(s) || first.includes(encodeURIComponent(s))).length;
    if (leaked > 0) throw new BenchError(`${leaked} registered secrets survived redaction`);
    for (let i = 0; i < 10; i++) redactor.redact(text);

    const n = ctx.size(300, 100);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) redactor.redact(text);
    const ms = performance.now() - t0;
    const perSecond = (n * 1000) / ms;
    // The goal is a throughput the issue sets (one pass over the text, not one per secret).
    return [
      metric('redact.64KiB-50-secrets', perSecond, 'texts/s', null),
      metric('redact.throughput', (perSecond * TEXT_BYTES) / (1024 * 1024), 'MiB/s', atLeast(50)),
    ];
  },
};
