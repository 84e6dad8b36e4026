/**
 * The example application mounts the example webhook receiver at /webhook: a
 * delivery it cannot verify is refused there and never reaches its event list.
 */
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleApp, type ExampleApp } from '../../examples/app/server.js';

const API_KEY = 'example-api-key-for-the-webhook-test';
let app: ExampleApp;

beforeAll(async () => {
  app = await startExampleApp({
    config: {
      authUrl: 'http://127.0.0.1:9/oauth',
      baseUrl: 'http://127.0.0.1:9/api',
      clientId: 'example-client',
      clientSecret: 'example-client-secret',
      apiKey: API_KEY,
      redirectUri: 'http://127.0.0.1:9/callback',
    },
  });
});
afterAll(async () => app.close());

function post(body: string, signature: string | null) {
  return request(`${app.url}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}), 'x-example-app': 'not-the-registered-token' },
    body,
  });
}

describe('Example application: its webhook receiver', () => {
  it('refuses a delivery signed with another key, and an unsigned one; neither is kept', async () => {
    const body = JSON.stringify({ LockID: 'A1B2', EventType: 'status', Event: 'lock', Device: 'lock', User: { UserID: 'u' } });
    const t = String(Date.now());
    const forged = createHmac('sha256', 'another-key').update(`${t}.${body}`).digest('hex');
    const refusedForged = await post(body, `t=${t},v=${forged}`);
    await refusedForged.body.dump();
    expect(refusedForged.statusCode).toBeGreaterThanOrEqual(400);
    const refusedUnsigned = await post(body, null);
    await refusedUnsigned.body.dump();
    expect(refusedUnsigned.statusCode).toBeGreaterThanOrEqual(400);
    const events = await request(`${app.url}/events`);
    expect(await events.body.json()).toEqual([]);
  });
});
