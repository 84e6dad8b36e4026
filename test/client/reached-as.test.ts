/**
 * The reached-as probe (harness/client/probes/reached-as.ts): the application reached
 * under another loopback name for the same address. The HTTP driver dials the configured
 * address and names the other one in Host only; an application that refuses a Host it does
 * not know leaves the slice not tested, with its answer as the reason.
 */
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { otherName, reachedAsProbe } from '../../harness/client/probes/reached-as.js';
import { startExampleApp } from '../../examples/app/server.js';

/** An application that answers its connect URL with 421 to any Host but its own; the Hosts it saw. */
async function strictApp(): Promise<{ url: string; hosts: string[]; close(): Promise<void> }> {
  const app = Fastify();
  const hosts: string[] = [];
  let own = '';
  app.get('/connect', async (request, reply) => {
    hosts.push(request.headers.host ?? '');
    return request.headers.host === own ? reply.redirect('http://127.0.0.1:9/authorization', 302) : reply.code(421).send('unknown host');
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  own = new URL(address).host;
  return { url: address, hosts, close: () => app.close() };
}

describe('the reached-as probe', () => {
  it('names the other loopback name for the same address, and none for a host name', () => {
    expect(otherName('http://127.0.0.1:3000/connect?x=1')).toEqual({ url: 'http://localhost:3000/connect?x=1', origin: 'http://localhost:3000', address: 'http://127.0.0.1:3000' });
    expect(otherName('http://localhost:3000/connect')?.url).toBe('http://127.0.0.1:3000/connect');
    expect(otherName('http://app.example:3000/connect')).toBeNull();
  });

  it('dials the configured address with the other name in Host; a refused name is not run, with the answer as the reason', async () => {
    const app = await strictApp();
    try {
      const port = new URL(app.url).port;
      const report = await reachedAsProbe({ authUrl: 'http://127.0.0.1:9', connectUrl: `${app.url}/connect`, controlUrl: 'http://127.0.0.1:9/_control', controlToken: 't', userId: 'u' });
      expect(app.hosts).toEqual([`localhost:${port}`]);
      expect(report).toEqual({ ran: false, why: expect.stringContaining(`answered 421 to its connect URL reached as localhost:${port}`) });
    } finally {
      await app.close();
    }
  });

  it('is refused by the example application\'s legal variant host-allow-list (400 to a Host it does not know), which still serves its own name', async () => {
    const config = { authUrl: 'http://127.0.0.1:9', baseUrl: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 'not-a-secret', apiKey: 'not-a-key', redirectUri: 'http://127.0.0.1:9/callback' };
    const app = await startExampleApp({ config, variants: ['host-allow-list'] });
    try {
      const port = new URL(app.url).port;
      const report = await reachedAsProbe({ authUrl: config.authUrl, connectUrl: `${app.url}/connect`, controlUrl: 'http://127.0.0.1:9/_control', controlToken: 't', userId: 'u' });
      expect(report).toEqual({ ran: false, why: expect.stringContaining(`answered 400 to its connect URL reached as localhost:${port}`) });
      const own = await app.app.inject({ method: 'GET', url: '/connect', headers: { host: new URL(app.url).host } });
      expect(own.statusCode).toBe(302);
    } finally {
      await app.close();
    }
  });
});
