/**
 * A network failure reads as words. undici's codes (UND_ERR_*) never reach a
 * message a user sees; the operating system's codes follow the words, in
 * parentheses, as something to search for.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetProfile } from '../../../harness/contracts.js';
import { preflight } from '../../../harness/service/preflight.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { describeNetworkError, networkWordsIn, WORDED_CODES } from '../../../harness/wire/network-words.js';
import { assertReceiverReachable } from '../../../harness/receiver/reachability.js';
import { runErrorFrom } from '../../../harness/report/run-error.js';
import { Redactor } from '../../../harness/wire/redact.js';
import { freePort } from '../../support/net.js';

const err = (code: string, extra: object = {}) => Object.assign(new Error(`library says ${code}`), { code, ...extra });

describe('every known code reads as words', () => {
  it.each(WORDED_CODES.map((c) => [c]))('%s', (code) => {
    const words = describeNetworkError(err(code), { timeoutMs: 30_000 });
    expect(words).not.toMatch(/UND_ERR|library says/);
    expect(words.length).toBeGreaterThan(15);
  });

  it('a headers timeout says the connection was accepted and nothing came back, in seconds', () => {
    expect(describeNetworkError(err('UND_ERR_HEADERS_TIMEOUT'), { timeoutMs: 30_000 })).toBe('the target accepted the connection but sent no answer within 30 s');
  });

  it('an operating-system code stays in parentheses after the words', () => {
    expect(describeNetworkError(err('ECONNREFUSED'))).toBe('nothing listens at that address and port (connection refused) (ECONNREFUSED)');
  });

  it('a code found on the cause or inside an AggregateError (several addresses) is used', () => {
    expect(describeNetworkError(new Error('fetch failed', { cause: err('ENOTFOUND') }))).toContain('could not be resolved');
    expect(describeNetworkError(Object.assign(new AggregateError([err('ECONNREFUSED')]), {}))).toContain('nothing listens');
  });

  it('an undici code without words shows the message, not the code', () => {
    expect(describeNetworkError(err('UND_ERR_SOMETHING_NEW'))).toBe('library says UND_ERR_SOMETHING_NEW');
  });
});

describe('what a user sees from a target that accepts and never answers', () => {
  let silent: Server;
  let url: string;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    silent = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((ok) => silent.close(ok));
  });

  it('preflight: "the target accepted the connection but sent no answer", never UND_ERR_HEADERS_TIMEOUT', async () => {
    const profile = { authUrl: `${url}/oauth`, baseUrl: `${url}/api` } as TargetProfile;
    const e = await preflight(profile, { choice: { file: null, variables: ['LOCKCONF_AUTH_URL'] }, env: {}, timeoutMs: 200 }).then(() => null, (x: Error) => x);
    expect(e?.message).toContain('the target accepted the connection but sent no answer within 200 ms');
    expect(e?.message).not.toContain('UND_ERR');
  });

  it('the harness HTTP client: a refused connection and a silent server, in words', async () => {
    const http = new HttpClient({ profile: { clientSecret: 's1', apiKey: 'k1' } as TargetProfile, redactor: new Redactor() });
    const refused = await http.request({ method: 'GET', url: `http://127.0.0.1:${await freePort()}/` }).then(() => null, (x: Error) => x);
    expect(refused?.message).toContain('nothing listens at that address and port');
    const silentAnswer = await http.request({ method: 'GET', url, timeoutMs: 200 }).then(() => null, (x: Error) => x);
    expect(silentAnswer?.message).toMatch(/no answer within 200 ms/);
    expect(silentAnswer?.message).not.toContain('UND_ERR');
  });

  it('a webhook receiver that accepts and never answers: the same words', async () => {
    const e = await assertReceiverReachable(`${url}/hooks`, 200).then(() => null, (x: Error) => x);
    expect(e?.message).toContain('accepted the connection but sent no answer within 200 ms');
    expect(e?.message).not.toContain('UND_ERR');
  });
});

describe('the last line of defence: a message passed on as text', () => {
  it('an undici code or message in a run error becomes words', () => {
    expect(networkWordsIn('setup failed: UND_ERR_HEADERS_TIMEOUT')).toBe('setup failed: the target accepted the connection but sent no answer within the time allowed');
    expect(networkWordsIn('probe failed: HeadersTimeoutError: Headers Timeout Error')).toBe('probe failed: the target accepted the connection but sent no answer within the time allowed');
    expect(networkWordsIn('UND_ERR_SOMETHING_NEW')).toBe('the connection failed');
    expect(networkWordsIn('nothing to translate')).toBe('nothing to translate');
  });

  it('a run that global setup could not start says it in words', () => {
    const error = runErrorFrom([Object.assign(new Error('the client probes failed: Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' })]);
    expect(error.message).toContain('sent no answer');
    expect(error.message).not.toMatch(/UND_ERR|Headers Timeout Error/);
  });
});
