/**
 * The capture server under hostile or careless use (finding 3 and 6): inbox
 * answers that could not be sent are refused up front, listings come in pages,
 * the store refuses (429) instead of dropping what it holds, stalled requests
 * are cut off.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { CaptureClient } from '../../../harness/wire/capture/client.js';
import { PAGE_BYTES, PAGE_LIMIT } from '../../../harness/wire/capture/pages.js';
import { startCaptureServer, type CaptureConnection } from '../../../harness/wire/capture/server.js';
import { stallBody } from '../../support/stall.js';

type Server = CaptureConnection & { close(): Promise<void> };
let server: Server;
let client: CaptureClient;

beforeAll(async () => {
  server = await startCaptureServer();
  client = new CaptureClient(server);
});
afterAll(async () => {
  await server?.close();
});

async function deliver(url: string, body: string | Buffer = '{}', method = 'POST') {
  const res = await request(url, { method: method as 'POST', body: method === 'HEAD' ? null : body, headers: { 'content-type': 'application/json' } });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

async function control(srv: Server, method: string, path: string, body?: unknown) {
  const res = await request(srv.controlUrl + path, {
    method: method as 'GET',
    headers: { 'x-capture-token': srv.token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : null,
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

describe('capture server: inbox answers are validated', () => {
  test.each([
    ['a Location with CR/LF', { location: 'http://127.0.0.1/x\r\nSet-Cookie: a=b' }],
    ['a Location with a bare LF', { location: 'http://127.0.0.1/x\nx' }],
    ['a Location with non-ASCII characters', { location: 'http://127.0.0.1/é' }],
    ['a 304 with a body', { status: 304, body: 'x' }],
    ['a 204 with a body', { status: 204, body: 'x' }],
    ['a 205 with a body', { status: 205, body: 'x' }],
    ['a 1xx status', { status: 103 }],
    ['a status past 599', { status: 600 }],
  ])('%s is refused with 400 and the inbox keeps answering', async (_what, response) => {
    const inbox = await client.newInbox();
    const res = await control(server, 'PUT', `/inboxes/${inbox.id}/response`, response);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('bad_request');
    expect((await deliver(inbox.url)).status).toBe(200);
    expect((await control(server, 'POST', '/inboxes', { response })).status).toBe(400);
  });

  test('a 304 without a body and a HEAD to an inbox with a body are answered cleanly', async () => {
    const inbox = await client.newInbox({ response: { status: 304 } });
    expect((await deliver(inbox.url)).status).toBe(304);
    await inbox.setResponse({ status: 200, body: 'hello' });
    expect(await deliver(inbox.url, '', 'HEAD')).toMatchObject({ status: 200, text: '' });
    expect(await deliver(inbox.url)).toMatchObject({ status: 200, text: 'hello' });
  });
});

describe('capture server: listings come in pages', () => {
  test(`more than ${PAGE_LIMIT} deliveries: the first page holds ${PAGE_LIMIT}, the client reads them all`, async () => {
    const inbox = await client.newInbox();
    const total = PAGE_LIMIT + 200;
    for (let i = 0; i < total; i += 50) await Promise.all(Array.from({ length: Math.min(50, total - i) }, (_, k) => deliver(inbox.url, `{"n":${i + k}}`)));
    const first = await control(server, 'GET', `/inboxes/${inbox.id}/deliveries?after=0`);
    expect(first.json.deliveries).toHaveLength(PAGE_LIMIT);
    expect(first.json.more).toBe(true);
    expect(first.json.lastSeq).toBe(first.json.deliveries.at(-1).seq);
    expect(await inbox.deliveries()).toHaveLength(total);
    expect((await control(server, 'GET', `/inboxes/${inbox.id}/deliveries?after=0&limit=10`)).json.deliveries).toHaveLength(10);
  });

  test('large bodies: one page holds at most about PAGE_BYTES, and the whole listing still arrives', async () => {
    const inbox = await client.newInbox();
    const mib = Buffer.alloc(1024 * 1024 - 64, 0x61);
    for (let i = 0; i < 12; i++) expect((await deliver(inbox.url, mib)).status).toBe(200);
    const first = await control(server, 'GET', `/inboxes/${inbox.id}/deliveries?after=0`);
    const bytes = first.json.deliveries.reduce((n: number, d: { rawBody: string }) => n + Buffer.from(d.rawBody, 'base64').length, 0);
    expect(bytes).toBeLessThanOrEqual(PAGE_BYTES);
    expect(first.json.more).toBe(true);
    expect(await inbox.deliveries()).toHaveLength(12);
  });
});

describe('capture server: a full store refuses, and loses nothing', () => {
  test('past the delivery, byte or inbox bound: 429 capture_full; what was kept stays; a deleted inbox frees room', async () => {
    const small = await startCaptureServer({ limits: { deliveries: 3, bytes: 1000, inboxes: 2 } });
    try {
      const c = new CaptureClient(small);
      const a = await c.newInbox();
      const b = await c.newInbox();
      const third = await control(small, 'POST', '/inboxes', {});
      expect(third).toMatchObject({ status: 429, json: { error: 'capture_full' } });
      expect((await deliver(a.url, Buffer.alloc(900, 0x61))).status).toBe(200);
      const tooBig = await deliver(a.url, Buffer.alloc(200, 0x61));
      expect(tooBig.status).toBe(429);
      expect(JSON.parse(tooBig.text)).toMatchObject({ error: 'capture_full' });
      expect((await deliver(b.url, '1')).status).toBe(200);
      expect((await deliver(b.url, '2')).status).toBe(200);
      expect((await deliver(b.url, '3')).status).toBe(429);
      expect((await a.deliveries()).map((d) => d.rawBody.length)).toEqual([900]);
      expect((await b.deliveries()).map((d) => d.bodyText)).toEqual(['1', '2']);
      // Deliveries to unknown inboxes never fill the store.
      for (let i = 0; i < 5; i++) expect((await deliver(`${small.publicBaseUrl}/inbox/nobody`)).status).toBe(404);
      expect((await control(small, 'DELETE', `/inboxes/${a.id}`)).status).toBe(204);
      const again = await c.newInbox();
      expect((await deliver(again.url, Buffer.alloc(800, 0x61))).status).toBe(200);
      expect((await b.deliveries()).map((d) => d.bodyText)).toEqual(['1', '2']);
    } finally {
      await small.close();
    }
  });
});

describe('capture server: client timeouts', () => {
  test('a request body that stalls is cut off once the request timeout passes', async () => {
    const quick = await startCaptureServer({ timeouts: { headersMs: 200, requestMs: 400 } });
    try {
      const inbox = await new CaptureClient(quick).newInbox();
      const outcome = await stallBody(quick.publicBaseUrl, new URL(inbox.url).pathname, 5_000);
      expect(outcome.closed).toBe(true);
      expect(outcome.afterMs).toBeLessThan(3_000);
    } finally {
      await quick.close();
    }
  });

  test('the default timeouts leave room for the longest long poll', async () => {
    const { CAPTURE_TIMEOUTS } = await import('../../../harness/wire/capture/timeouts.js');
    const { MAX_WAIT_MS } = await import('../../../harness/wire/capture/protocol.js');
    expect(CAPTURE_TIMEOUTS.idleMs).toBeGreaterThan(MAX_WAIT_MS);
  });
});
