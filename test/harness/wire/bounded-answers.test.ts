/**
 * Every read of an answer is bounded. A body of gigabytes (generated lazily on
 * loopback, never allocated) is read up to the cap and no further: the exchange
 * keeps the status, the headers and the first bytes, and the error says
 * "body larger than N MiB, not read". The bytes a server really sent show the
 * reader stopped; memory is checked as this process's growth, never time.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange, TargetProfile } from '../../../harness/contracts.js';
import { LockconfError } from '../../../harness/run/errors.js';
import { ANSWER_BODY_LIMIT, ANSWER_HEAD_BYTES, readBounded } from '../../../harness/wire/bounded-body.js';
import { CaptureClient } from '../../../harness/wire/capture/client.js';
import { CAPTURE_BODY_LIMIT, startCaptureServer } from '../../../harness/wire/capture/server.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { Redactor } from '../../../harness/wire/redact.js';
import { GiB, streamLazily } from '../../support/huge-body.js';

/** Growth of this process's memory allowed while a 4 GiB body is refused. */
const GROWTH_BOUND = 512 * 1024 ** 2;

let server: Server;
let base: string;
const sent = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const record = (n: number) => sent.set(path, n);
    if (path === '/oauth/access_token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      void streamLazily(res, 4 * GiB, '{"access_token":"').then(record);
    } else if (path === '/api/users/me') {
      res.writeHead(401, { 'content-type': 'application/json', 'content-length': String(4 * GiB) });
      void streamLazily(res, 4 * GiB, '{"error":"').then(record);
    } else if (path === '/just-under') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      void streamLazily(res, ANSWER_BODY_LIMIT).then(record);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

function client(log: Exchange[]): HttpClient {
  const profile = { authUrl: `${base}/oauth`, baseUrl: `${base}/api`, clientId: 'c', clientSecret: 'bounded-secret-1', apiKey: 'bounded-key-1' } as TargetProfile;
  return new HttpClient({ profile, redactor: new Redactor(), onExchange: (e) => log.push(e) });
}

async function rejection(p: Promise<unknown>): Promise<LockconfError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LockconfError);
  return err as LockconfError;
}

describe('the harness HTTP client reads at most 8 MiB of an answer', () => {
  it('a token endpoint streaming 4 GiB: ERR_ANSWER_TOO_LARGE, the exchange keeps status, headers and the first bytes', async () => {
    const log: Exchange[] = [];
    const rssBefore = process.memoryUsage().rss;
    const err = await rejection(client(log).request({ method: 'POST', url: `${base}/oauth/access_token`, form: { grant_type: 'refresh_token' } }));
    expect(err.code).toBe('ERR_ANSWER_TOO_LARGE');
    expect(err.message).toContain('answered 200 with a body larger than 8 MiB, not read');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(GROWTH_BOUND);
    expect(log).toHaveLength(1);
    expect(log[0]!.response).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    // The token the body began with is a secret, cut or not: redacted like any other.
    expect(log[0]!.response!.body).toMatch(/^\{"access_token":"‹access_token#[0-9a-f]+›… \[body larger than 8 MiB, not read\]$/);
    expect(log[0]!.response!.body).toContain('[body larger than 8 MiB, not read]');
    expect(log[0]!.error).toContain('body larger than 8 MiB, not read');
    await expect.poll(() => sent.get('/oauth/access_token')).toBeDefined();
    expect(sent.get('/oauth/access_token')).toBeLessThan(GiB);
  });

  it('an API answer that announces 4 GiB in Content-Length is not read past its first bytes', async () => {
    const log: Exchange[] = [];
    const err = await rejection(client(log).api('GET', '/users/me', { accessToken: 'x' }));
    expect(err.message).toMatch(/answered 401 with a body larger than 8 MiB, not read \(Content-Length: 4294967296\)/);
    expect(log[0]!.response!.status).toBe(401);
    await expect.poll(() => sent.get('/api/users/me')).toBeDefined();
    expect(sent.get('/api/users/me')).toBeLessThan(GiB);
  });

  it('a body of exactly the cap is read whole', async () => {
    const res = await client([]).request({ method: 'GET', url: `${base}/just-under` });
    expect(res.status).toBe(200);
    expect(res.text).toHaveLength(ANSWER_BODY_LIMIT);
  });

  it('readBounded keeps the first ANSWER_HEAD_BYTES of a body over its limit, and closes the stream', async () => {
    let destroyed = false;
    const chunks = async function* () {
      for (let i = 0; i < 1000; i++) yield Buffer.alloc(1024, 0x62);
    };
    const body = Object.assign(chunks(), { destroy: () => (destroyed = true) });
    const read = await readBounded(body, { limit: 10 * 1024 });
    expect(read).toMatchObject({ tooLarge: true, limit: 10 * 1024, declaredLength: null });
    expect(read.tooLarge && read.head.length).toBe(ANSWER_HEAD_BYTES);
    expect(destroyed).toBe(true);
  });
});

describe('the capture server reads at most 1 MiB of a webhook delivery', () => {
  it('a delivery POSTed with a 4 GiB body: answered 413, recorded with its first bytes, and the test waiting for it fails saying so', async () => {
    const capture = await startCaptureServer();
    try {
      const inboxes = new CaptureClient(capture);
      const inbox = await inboxes.newInbox({ label: 'huge' });
      const rssBefore = process.memoryUsage().rss;
      const outcome = await new Promise<{ status: number | null; sent: number }>((done) => {
        let status: number | null = null;
        const req = httpRequest(inbox.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          status = res.statusCode ?? null;
          res.resume();
        });
        req.on('error', () => {}); // the server closes the connection while the body is still being sent
        void streamLazily(req, 4 * GiB, '{"event":"').then((n) => done({ status, sent: n }));
      });
      expect(outcome.sent).toBeLessThan(GiB);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(GROWTH_BOUND);
      const err = await rejection(inbox.waitFor(1, { timeoutMs: 5_000 }));
      expect(err.code).toBe('ERR_ANSWER_TOO_LARGE');
      expect(err.message).toContain('body larger than 1 MiB, not read');
      const [kept] = await inboxes.allDeliveries();
      expect(kept).toMatchObject({ inbox: inbox.id, answeredStatus: 413, bodyTooLarge: { limitBytes: CAPTURE_BODY_LIMIT } });
      expect(kept!.rawBody.subarray(0, 10).toString()).toBe('{"event":"');
      expect(kept!.rawBody.length).toBeLessThanOrEqual(8 * 1024);
    } finally {
      await capture.close();
    }
  });
});
