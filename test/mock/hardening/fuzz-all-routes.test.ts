/**
 * The fuzz pass of issue 13: at least 10,000 malformed requests over every route of
 * the mock and of the capture server (routes read from the servers themselves),
 * plus raw requests that break HTTP/1.1 framing. Every answer is below 500, both
 * servers still answer afterwards, and nothing crashes. Loopback only, a fixed
 * count and a fixed seed, eight requests in flight at a time.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureServer, type CaptureConnection } from '../../../harness/wire/capture/server.js';
import { CaptureClient } from '../../../harness/wire/capture/client.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { rawArb, requestArb, type FuzzRequest } from './fixtures/malformed.js';
import { routesOf } from './fixtures/route-list.js';

const REQUESTS = 10_000;
const RAW = 400;
const SEED = 1313;
const CONCURRENCY = 8;

/** The capture server's routes (its app is not exposed); kept in step with harness/wire/capture/server.ts. */
const CAPTURE_ROUTES: Array<[string, string]> = [
  ['POST', '/inbox/:id'], ['PUT', '/inbox/:id'], ['GET', '/inbox/:id'], ['POST', '/inbox/:id/*'],
  ['POST', '/_capture/inboxes'], ['PUT', '/_capture/inboxes/:id/response'], ['DELETE', '/_capture/inboxes/:id'],
  ['GET', '/_capture/inboxes/:id/deliveries'], ['GET', '/_capture/deliveries'],
];

let mock: RunningMock;
let capture: CaptureConnection & { close(): Promise<void> };
let inboxId: string;
const agent = new Agent({ connections: CONCURRENCY, headersTimeout: 15_000, bodyTimeout: 15_000 });

beforeAll(async () => {
  mock = await createMock({ deliveryTimeoutMs: 300 });
  capture = await startCaptureServer();
  inboxId = (await new CaptureClient(capture).newInbox({ label: 'fuzz' })).id;
});
afterAll(async () => {
  await agent.close();
  await mock?.close();
  await capture?.close();
});

interface Tally {
  statuses: Map<number, number>;
  serverErrors: string[];
  noAnswer: number;
}

async function send(base: string, r: FuzzRequest, tally: Tally): Promise<void> {
  try {
    const res = await request(base + r.path, { method: r.method as 'GET', headers: r.headers, body: r.body ?? null, dispatcher: agent });
    await res.body.dump();
    tally.statuses.set(res.statusCode, (tally.statuses.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode >= 500) tally.serverErrors.push(`${r.method} ${r.path.slice(0, 120)} → ${res.statusCode}`);
  } catch {
    // The server closed the connection (an oversized or undecodable request): not an answer, not a crash.
    tally.noAnswer += 1;
  }
}

async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** Writes raw bytes, reads until the server closes or 2 s pass; the status code of the answer, if any. */
function rawExchange(url: string, bytes: string): Promise<number | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(m ? Number(m[1]) : null);
    };
    const timer = setTimeout(done, 2_000);
    socket.on('data', (c) => {
      answer += c.toString('latin1');
      if (/^HTTP\/1\.1 \d{3}/.test(answer)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => socket.write(bytes, 'latin1'));
  });
}

describe('Fuzz: every route of the mock and the capture server', () => {
  it(`${REQUESTS} malformed requests and ${RAW} broken HTTP framings: no 5xx, no crash, both servers still answer`, async () => {
    const mockRoutes = routesOf(mock.app);
    expect(mockRoutes.length).toBeGreaterThan(15);
    const user = mock.ctx.world.users[2]!;
    const access = (await mock.ctx.tokens.issue({ userId: user.userId, clientId: mock.profile.clientId })).token;
    const mockArb = requestArb(mockRoutes, {
      headers: {
        'x-api-key': [mock.profile.apiKey, 'wrong'],
        'x-access-token': [access, 'eyJ.bad.jwt'],
        'x-control-token': [mock.profile.controlToken!, 'wrong'],
      },
      params: [...mock.ctx.world.locks.map((l) => l.lockId), mock.profile.clientId, 'user'],
    });
    const captureArb = requestArb(CAPTURE_ROUTES, {
      headers: { 'x-capture-token': [capture.token, 'wrong'] },
      params: [inboxId],
    });
    const half = REQUESTS / 2;
    const work: Array<[string, FuzzRequest]> = [
      ...fc.sample(mockArb, { numRuns: half, seed: SEED }).map((r) => [mock.url, r] as [string, FuzzRequest]),
      ...fc.sample(captureArb, { numRuns: half, seed: SEED + 1 }).map((r) => [capture.publicBaseUrl, r] as [string, FuzzRequest]),
    ];
    const tally: Tally = { statuses: new Map(), serverErrors: [], noAnswer: 0 };
    const started = performance.now();
    await pool(work, ([base, r]) => send(base, r, tally));

    const rawPaths = [...mockRoutes.map(([, p]) => p), ...CAPTURE_ROUTES.map(([, p]) => p)].map((p) => p.replace(/:[A-Za-z]+|\*/g, 'x'));
    const raws = fc.sample(rawArb(rawPaths), { numRuns: RAW, seed: SEED + 2 });
    const rawStatuses: Array<number | null> = [];
    await pool(raws.map((bytes, i) => [i % 2 === 0 ? mock.url : capture.publicBaseUrl, bytes] as const), async ([base, bytes]) => {
      rawStatuses.push(await rawExchange(base, bytes));
    });
    const seconds = (performance.now() - started) / 1000;

    const answered = [...tally.statuses.values()].reduce((a, b) => a + b, 0);
    console.info(`fuzz: ${answered + tally.noAnswer} requests + ${RAW} raw in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(tally.statuses))}; closed without answer ${tally.noAnswer}`);
    expect(tally.serverErrors).toEqual([]);
    expect(rawStatuses.filter((s) => s !== null && s >= 500)).toEqual([]);
    expect(answered + tally.noAnswer).toBe(REQUESTS);
    // Closing without an answer is for oversized bodies only: rare.
    expect(tally.noAnswer).toBeLessThan(REQUESTS / 50);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Both servers still serve.
    const health = await request(`${mock.url}/_control/clock`, { headers: { 'x-control-token': mock.profile.controlToken! }, dispatcher: agent });
    expect(health.statusCode).toBe(200);
    await health.body.dump();
    const inbox = await new CaptureClient(capture).newInbox();
    expect(inbox.id).toBeTruthy();
  }, 180_000);
});
