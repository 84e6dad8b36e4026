/**
 * The capture server's other doors (harness/wire/capture/doors.ts): the same inboxes at
 * another loopback host or port, each delivery recorded with the address it reached.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { CaptureClient } from '../../../harness/wire/capture/client.js';
import { startCaptureServer, type CaptureConnection } from '../../../harness/wire/capture/server.js';
import { DOORS } from '../../../harness/wire/capture/doors.js';

let server: CaptureConnection & { close(): Promise<void> };
let client: CaptureClient;

beforeAll(async () => {
  server = await startCaptureServer({ doors: true });
  client = new CaptureClient(server, { label: 'doors' });
});
afterAll(async () => {
  await server?.close();
});

describe('capture server: other doors', () => {
  test.each(Object.keys(DOORS) as Array<keyof typeof DOORS>)('%s: a delivery through the door lands in the same inbox, recorded with the address it reached', async (name) => {
    const inbox = await client.newInbox({ label: name });
    const door = inbox.doorUrl!(name);
    // Every door opens on this machine; a CI box without IPv6 loopback leaves that one missing, with the reason.
    if ('missing' in door) {
      expect(name, door.missing).toBe('ipv6-literal');
      return;
    }
    const u = new URL(door.url);
    expect(u.pathname).toBe(`/inbox/${inbox.id}`);
    if (name === 'other-loopback') expect(u.hostname).toBe('127.0.0.2');
    if (name === 'ipv6-literal') expect(u.hostname).toBe('[::1]');
    if (name === 'port-4-digits') expect(u.port).toMatch(/^\d{4}$/);
    const res = await request(`${door.url}/deeper?x=1`, { method: 'POST', body: '{}' });
    await res.body.text();
    expect(res.statusCode).toBe(200);
    const [d] = await inbox.waitFor(1, { timeoutMs: 5000 });
    expect(d!.url).toBe(`/inbox/${inbox.id}/deeper?x=1`);
    expect(d!.receivedOn).toBe(u.host);
  });

  test('the main address records its own host and port; the control API is not served at a door', async () => {
    const inbox = await client.newInbox();
    await (await request(inbox.url, { method: 'POST', body: 'x' })).body.text();
    const [d] = await inbox.waitFor(1, { timeoutMs: 5000 });
    expect(d!.receivedOn).toBe(new URL(inbox.url).host);
    const door = inbox.doorUrl!('other-loopback');
    if ('missing' in door) throw new Error(door.missing);
    const res = await request(`${new URL(door.url).origin}/_capture/inboxes`, { method: 'POST', headers: { 'x-capture-token': server.token, 'content-type': 'application/json' }, body: '{}' });
    await res.body.text();
    expect(res.statusCode).toBe(404);
  });

  test('behind a publicUrl no door opens: each is missing, with the reason', async () => {
    const other = await startCaptureServer({ publicUrl: 'https://tunnel.example.test', doors: true });
    try {
      const inbox = await new CaptureClient(other).newInbox();
      const door = inbox.doorUrl!('port-4-digits');
      expect('missing' in door && door.missing).toMatch(/capture\.publicUrl/);
    } finally {
      await other.close();
    }
  });

  test('without doors asked for, an inbox says none was opened', async () => {
    const plain = await startCaptureServer();
    try {
      const door = (await new CaptureClient(plain).newInbox()).doorUrl!('other-loopback');
      expect('missing' in door && door.missing).toMatch(/no other door/);
    } finally {
      await plain.close();
    }
  });
});
