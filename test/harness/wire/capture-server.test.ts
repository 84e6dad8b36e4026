import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { CaptureClient } from '../../../harness/wire/capture/client.js';
import { startCaptureServer, type CaptureConnection } from '../../../harness/wire/capture/server.js';
import { LockconfError } from '../../../harness/run/errors.js';

let server: CaptureConnection & { close(): Promise<void> };
let client: CaptureClient;

beforeAll(async () => {
  server = await startCaptureServer();
  client = new CaptureClient(server, { label: 'unit' });
});
afterAll(async () => {
  await server?.close();
});

/** What the target would do: one HTTP request to the inbox URL. */
async function deliver(url: string, opts: { method?: string; body?: Buffer | string; headers?: Record<string, string> } = {}) {
  const res = await request(url, { method: (opts.method ?? 'POST') as 'POST', body: opts.body ?? null, headers: opts.headers ?? {} });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

async function control(method: string, path: string, opts: { body?: string; token?: string | null; contentType?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token !== null) headers['x-capture-token'] = opts.token ?? server.token;
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await request(server.controlUrl + path, { method: method as 'GET', headers, body: opts.body ?? null });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined, contentType: String(res.headers['content-type'] ?? '') };
}

describe('capture server: recording', () => {
  test('keeps the exact bytes of any content type, invalid UTF-8 included, with lower-case headers', async () => {
    const inbox = await client.newInbox({ label: 'Raw Bytes!' });
    expect(inbox.url).toBe(`${server.publicBaseUrl}/inbox/${inbox.id}`);
    expect(inbox.id).toMatch(/^unit-raw-bytes-[0-9a-f]{12}$/);
    const bytes = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xe2, 0x82, 0x22, 0x7d, 0x00, 0x0a]);
    const json = Buffer.from('{ "a" :  1 ,\n "é": "🔐" }', 'utf8');
    expect((await deliver(inbox.url, { body: bytes, headers: { 'Content-Type': 'application/octet-stream', 'X-Custom-Header': 'tok en' } })).status).toBe(200);
    expect((await deliver(inbox.url, { body: json, headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect((await deliver(inbox.url, { body: 'not json', headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect((await deliver(inbox.url, { body: 'plain', headers: { 'content-type': 'weird/type; charset=latin1' } })).status).toBe(200);
    expect((await deliver(`${inbox.url}?q=1`, { method: 'PUT', body: 'no type' })).status).toBe(200);
    expect((await deliver(inbox.url, { body: 'broken type', headers: { 'content-type': ';;; not a media type' } })).status).toBe(200);
    expect((await deliver(inbox.url, { body: '', headers: { 'content-type': 'application/json' } })).status).toBe(200);

    const got = await inbox.waitFor(7);
    expect(got.map((d) => d.rawBody.equals(bytes))).toEqual([true, false, false, false, false, false, false]);
    expect(got[5]).toMatchObject({ bodyText: 'broken type', headers: expect.objectContaining({ 'content-type': ';;; not a media type' }) });
    expect(got[6]!.rawBody).toHaveLength(0);
    expect(got[0]!.headers['x-custom-header']).toBe('tok en');
    expect(got[0]!.headers['content-type']).toBe('application/octet-stream');
    expect(got[1]!.rawBody.equals(json)).toBe(true);
    expect(got[1]!.json).toEqual({ a: 1, é: '🔐' });
    expect(got[2]!.json).toBeUndefined();
    expect(got[2]!.bodyText).toBe('not json');
    expect(got[3]!.bodyText).toBe('plain');
    expect(got[4]).toMatchObject({ method: 'PUT', url: `/inbox/${inbox.id}?q=1`, bodyText: 'no type', inbox: inbox.id, answeredStatus: 200 });
    expect(got.map((d) => d.seq)).toEqual([...got.map((d) => d.seq)].sort((a, b) => a - b));
    for (const d of got) expect(d.receivedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  test('a body over 1 MiB is refused with 413', async () => {
    const inbox = await client.newInbox();
    const res = await deliver(inbox.url, { body: Buffer.alloc(1024 * 1024 + 1, 0x61), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
  });

  test('a delivery to an unknown inbox is answered 404 and still recorded', async () => {
    const before = await client.allDeliveries();
    const after = before.at(-1)?.seq ?? 0;
    const res = await deliver(`${server.publicBaseUrl}/inbox/nobody-here`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'unknown_inbox' });
    const seen = await client.allDeliveries(after);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ inbox: 'nobody-here', answeredStatus: 404, bodyText: '{}' });
  });
});

describe('capture server: configured answers', () => {
  test('status and body, set at creation and changed later', async () => {
    const inbox = await client.newInbox({ response: { status: 503, body: 'busy' } });
    const first = await deliver(inbox.url, { body: 'a' });
    expect(first).toMatchObject({ status: 503, text: 'busy' });
    await inbox.setResponse({ status: 204 });
    expect((await deliver(inbox.url, { body: 'b' })).status).toBe(204);
    const got = await inbox.waitFor(2);
    expect(got.map((d) => d.answeredStatus)).toEqual([503, 204]);
  });

  test('a redirect to another inbox: 302 with its Location, and the other inbox records only what follows it', async () => {
    const target = await client.newInbox({ label: 'redirect target' });
    const inbox = await client.newInbox({ response: { location: target.url } });
    const res = await deliver(inbox.url, { body: '{"x":1}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(target.url);
    expect(await target.collectFor(50)).toHaveLength(0);
    await deliver(String(res.headers.location), { body: '{"x":1}' });
    expect((await target.waitFor(1))[0]!.bodyText).toBe('{"x":1}');
    expect((await inbox.deliveries())[0]!.answeredStatus).toBe(302);
  });

  test('a delay holds the answer, but the delivery is visible at once', async () => {
    const inbox = await client.newInbox({ response: { delayMs: 250, status: 200 } });
    const t0 = performance.now();
    const answer = deliver(inbox.url, { body: 'slow' });
    const [d] = await inbox.waitFor(1, { timeoutMs: 2000 });
    expect(d!.bodyText).toBe('slow');
    expect((await answer).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240);
  });

  test('a sender that gives up while the answer is held is recorded (closedBeforeAnswerAt), and the hold ends', async () => {
    const inbox = await client.newInbox({ response: { delayMs: 30_000, status: 200 } });
    const sent = Date.now();
    const given = request(inbox.url, { method: 'POST', body: 'impatient', signal: AbortSignal.timeout(150) }).catch((err: Error) => err.name);
    await inbox.waitFor(1, { timeoutMs: 2000 });
    expect(await given).toMatch(/Abort|Timeout/);
    let [d] = await inbox.deliveries();
    for (let i = 0; i < 50 && d!.closedBeforeAnswerAt === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
      [d] = await inbox.deliveries();
    }
    expect(d!.closedBeforeAnswerAt! - sent).toBeGreaterThanOrEqual(100);
    expect(d!.closedBeforeAnswerAt! - sent).toBeLessThan(5_000);
    // A sender that waits the hold out gets its answer and no such mark.
    const held = await client.newInbox({ response: { delayMs: 100 } });
    expect((await deliver(held.url, { body: 'patient' })).status).toBe(200);
    expect((await held.deliveries())[0]!.closedBeforeAnswerAt).toBeUndefined();
  });
});

describe('capture client: waiting', () => {
  test('waitFor long-polls until n deliveries arrive', async () => {
    const inbox = await client.newInbox();
    const waiting = inbox.waitFor(2, { timeoutMs: 5000 });
    await deliver(inbox.url, { body: '1' });
    setTimeout(() => void deliver(inbox.url, { body: '2' }), 30);
    expect((await waiting).map((d) => d.bodyText)).toEqual(['1', '2']);
  });

  test('waitFor with a predicate skips what does not match', async () => {
    const inbox = await client.newInbox();
    const waiting = inbox.waitFor(1, { predicate: (d) => d.json?.Event === 'lock', timeoutMs: 5000 });
    await deliver(inbox.url, { body: '{"Event":"unlock"}' });
    setTimeout(() => void deliver(inbox.url, { body: '{"Event":"lock"}' }), 30);
    const got = await waiting;
    expect(got).toHaveLength(1);
    expect(got[0]!.json).toEqual({ Event: 'lock' });
  });

  test('two registrations on one inbox: each delivery told apart by its own header and token, whatever the arrival order', async () => {
    const owner = { header: 'x-lockconf-hook-aaaaaa', token: 'hook-owner' };
    const guest = { header: 'x-lockconf-hook-bbbbbb', token: 'hook-guest' };
    const sentFor = (reg: typeof owner) => (d: { headers: Record<string, string> }) => d.headers[reg.header] === reg.token;
    for (const order of [[owner, guest], [guest, owner]]) {
      const inbox = await client.newInbox({ label: 'shared' });
      const waits = [owner, guest].map((reg) => inbox.waitFor(1, { predicate: sentFor(reg), timeoutMs: 5000 }));
      for (const reg of order) await deliver(inbox.url, { body: '{"EventType":"status"}', headers: { [reg.header]: reg.token, 'content-type': 'application/json' } });
      const [toOwner, toGuest] = await Promise.all(waits);
      expect(toOwner![0]!.headers[owner.header]).toBe('hook-owner');
      expect(toGuest![0]!.headers[guest.header]).toBe('hook-guest');
      // Every delivery the inbox holds, counted per registration (never "what came after the last one handed out").
      const all = await inbox.deliveries();
      expect([all.filter(sentFor(owner)).length, all.filter(sentFor(guest)).length]).toEqual([1, 1]);
    }
  });

  test('waitFor times out with ERR_DELIVERY_TIMEOUT saying how many arrived', async () => {
    const inbox = await client.newInbox();
    await deliver(inbox.url, { body: '{"Event":"unlock"}' });
    const err = await inbox.waitFor(2, { predicate: () => true, timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockconfError);
    expect((err as LockconfError).code).toBe('ERR_DELIVERY_TIMEOUT');
    expect((err as LockconfError).message).toMatch(/1 arrived/);
    const plain = await inbox.waitFor(3, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((plain as LockconfError).message).toMatch(/waited 100 ms for 3 deliveries; 1 arrived/);
  });

  test('collectFor returns what was not handed out yet: duplicates after waitFor, everything on a fresh inbox', async () => {
    const inbox = await client.newInbox();
    await deliver(inbox.url, { body: 'one' });
    await inbox.waitFor(1);
    await deliver(inbox.url, { body: 'duplicate' });
    const more = await inbox.collectFor(100);
    expect(more.map((d) => d.bodyText)).toEqual(['duplicate']);
    expect(await inbox.collectFor(50)).toEqual([]);

    const fresh = await client.newInbox();
    await deliver(fresh.url, { body: 'early' });
    expect((await fresh.collectFor(50)).map((d) => d.bodyText)).toEqual(['early']);
  });
});

describe('capture server: control API input', () => {
  test('missing or wrong token → 401 JSON', async () => {
    expect((await control('POST', '/inboxes', { body: '{}', token: null })).status).toBe(401);
    const wrong = await control('POST', '/inboxes', { body: '{}', token: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: 'unauthorized' });
    expect(JSON.stringify(wrong.json)).not.toContain(server.token);
  });

  test('bad input → 4xx JSON, never 5xx', async () => {
    const inbox = await client.newInbox();
    const cases: Array<[string, string, string | undefined, number]> = [
      ['POST', '/inboxes', '{not json', 400],
      ['POST', '/inboxes', '[1,2]', 400],
      ['POST', '/inboxes', '{"response":{"status":700}}', 400],
      ['POST', '/inboxes', '{"response":{"status":101}}', 400],
      ['POST', '/inboxes', '{"response":{"delayMs":-1}}', 400],
      ['POST', '/inboxes', '{"surprise":true}', 400],
      ['PUT', `/inboxes/${inbox.id}/response`, '{"location":"not a url"}', 400],
      ['PUT', `/inboxes/${inbox.id}/response`, '{"status":"200"}', 400],
      ['PUT', `/inboxes/${inbox.id}/response`, '"text"', 400],
      ['PUT', '/inboxes/unknown/response', '{}', 404],
      ['GET', '/inboxes/unknown/deliveries', undefined, 404],
      ['GET', `/inboxes/${inbox.id}/deliveries?min=-1`, undefined, 400],
      ['GET', `/inboxes/${inbox.id}/deliveries?timeoutMs=abc`, undefined, 400],
      ['GET', `/inboxes/${inbox.id}/deliveries?timeoutMs=999999`, undefined, 400],
      ['DELETE', '/inboxes/unknown', undefined, 404],
      ['GET', '/nothing', undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await control(method, path, body === undefined ? {} : { body });
      expect({ method, path, body, status: res.status }).toEqual({ method, path, body, status });
      expect(res.contentType).toMatch(/application\/json/);
      expect(res.json).toHaveProperty('error');
    }
    const text = await control('POST', '/inboxes', { body: 'label=x', contentType: 'text/plain' });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
  });

  test('an inbox can be deleted; later deliveries to it are answered 404', async () => {
    const inbox = await client.newInbox();
    expect((await control('DELETE', `/inboxes/${inbox.id}`)).status).toBe(204);
    expect((await deliver(inbox.url, { body: 'x' })).status).toBe(404);
  });

  test('the client turns control errors into ERR_CAPTURE', async () => {
    const inbox = await client.newInbox();
    const err = await inbox.setResponse({ status: 42 }).catch((e: unknown) => e);
    expect((err as LockconfError).code).toBe('ERR_CAPTURE');
    expect((err as LockconfError).message).toMatch(/400/);
  });
});

describe('capture server: public URL and shutdown', () => {
  test('inbox URLs follow publicUrl; close() releases a pending long poll at once', async () => {
    const other = await startCaptureServer({ listen: '127.0.0.1:0', publicUrl: 'https://tunnel.example.test/' });
    try {
      expect(other.publicBaseUrl).toBe('https://tunnel.example.test');
      expect(other.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_capture$/);
      const c = new CaptureClient(other);
      const inbox = await c.newInbox();
      expect(inbox.url).toBe(`https://tunnel.example.test/inbox/${inbox.id}`);
      const pending = inbox.collectFor(30_000).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 30));
      const t0 = performance.now();
      await other.close();
      await pending;
      expect(performance.now() - t0).toBeLessThan(5000);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});

describe('capture client: collectFor waits the window', () => {
  test('collectFor(200) takes about 200 ms, held by the server rather than by polling', async () => {
    const inbox = await client.newInbox();
    const t0 = performance.now();
    setTimeout(() => void deliver(inbox.url, { body: 'late' }), 50);
    const got = await inbox.collectFor(200);
    const took = performance.now() - t0;
    expect(got.map((d) => d.bodyText)).toEqual(['late']);
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(2000);
  });
});
