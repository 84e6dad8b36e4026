/**
 * The delivery timeout counts only the time the mock's process could have heard the
 * answer: a stall of the whole process (a loaded machine) does not make a delivery to a
 * receiver that answered look timed out, and so lost (it is never retried).
 */
import { createServer, type Server } from 'node:http';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postOnce, responsiveTimeout } from '../../mock/webhooks/post-once.js';

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* the whole process stalls */ }
}

describe('the delivery timeout', () => {
  it('expires once its time has passed, and not after it is cancelled', async () => {
    await new Promise<void>((resolve) => responsiveTimeout(30, resolve));
    let fired = false;
    const cancel = responsiveTimeout(20, () => (fired = true));
    cancel();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(fired).toBe(false);
  });

  it('a stall of the whole process longer than the timeout does not lose an answered delivery', async () => {
    const pool = new Pool(new URL(url).origin);
    try {
      const attempt = postOnce({ url, body: '{}', headers: { 'content-type': 'application/json' }, dispatcher: pool, timeoutMs: 300, closing: new AbortController().signal });
      blockFor(700);
      const outcome = await attempt;
      expect(outcome.status).toBe(200);
      expect(outcome.errorKind).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('still gives up on a receiver that never answers', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(silent.address() as { port: number }).port}/`;
    const pool = new Pool(new URL(at).origin);
    try {
      const outcome = await postOnce({ url: at, body: '{}', headers: {}, dispatcher: pool, timeoutMs: 150, closing: new AbortController().signal });
      expect(outcome).toMatchObject({ status: null, errorKind: 'timeout' });
    } finally {
      await pool.destroy();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
