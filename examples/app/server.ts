/**
 * The example application: a small web app on the Lock Access Service.
 *   GET  /connect    starts authorization (a new state, kept server-side)
 *   GET  /callback   the redirect_uri: checks state, exchanges the code
 *   GET  /           the page: the user's locks (an API call), or a Connect link
 *   GET  /refresh    refreshes the session's token now (a "refresh" button; lockconf's probes use it)
 *   POST /watch?lockId=…   registers a lock webhook to this app's /webhook
 *   POST /unwatch?lockId=… deletes that registration
 *   POST /watch-user, /unwatch-user   registers / deletes the user webhook (user events)
 *   POST /status?lockId=…  asks the lock's status (the service sends a status webhook)
 *   POST /webhook    the webhook receiver (examples/app/receiver.ts)
 * Sessions live in memory, named by an HttpOnly cookie.
 * With `pages: true` (PAGES=1) the page, refresh and webhook actions are real HTML pages
 * and CSRF-protected POST forms instead, behind a "Connect your locks" page (pages.ts).
 *
 * Run it against a grading mock (README, "Certifying your OAuth client"):
 *   npx tsx examples/app/server.ts [profile.json]   (default .lockconf/mock-target.json; PORT, default 3000; PAGES=1)
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { LockClient, NeedsAuthorization, RefreshInProgress, type ClientConfig, type Session } from './client.js';
import { webhookReceiver, type WebhookEvent } from './receiver.js';
import { examplePages } from './pages.js';

export interface ExampleAppOptions {
  config: ClientConfig;
  /** Faults of client-faults.ts (named, or `ID@dim=value`); none in a real application. */
  faults?: Iterable<string>;
  /** Legal variants of client-variants.ts (choices the spec leaves to the application). */
  variants?: Iterable<string>;
  host?: string;
  port?: number;
  /** The pages variant (pages.ts): a connect page, CSRF-protected POST forms for refresh and the webhook actions. */
  pages?: boolean;
}

export interface ExampleApp {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

const COOKIE = 'example_session';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export async function startExampleApp(opts: ExampleAppOptions): Promise<ExampleApp> {
  const client = new LockClient(opts.config, opts.faults ?? [], opts.variants ?? []);
  const sessions = new Map<string, Session>();
  const webhookToken = randomBytes(16).toString('hex');
  const app = Fastify({ logger: false });

  function sessionOf(request: FastifyRequest, reply: FastifyReply): Session {
    const id = /(?:^|;\s*)example_session=([A-Za-z0-9_-]+)/.exec(request.headers.cookie ?? '')?.[1];
    const known = id ? sessions.get(id) : undefined;
    if (known) return known;
    const session: Session = { id: randomBytes(18).toString('base64url'), state: null, tokens: null };
    sessions.set(session.id, session);
    reply.header('set-cookie', `${COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax`);
    return session;
  }

  /** Runs an action that needs the user's tokens; without valid ones the user authorizes again. */
  async function withTokens(reply: FastifyReply, action: () => Promise<FastifyReply>): Promise<FastifyReply> {
    try {
      return await action();
    } catch (err) {
      // The variant refuses-concurrent-refresh: a second refresh while one runs is answered 409, the user still signed in.
      if (err instanceof RefreshInProgress) return reply.code(409).type('text/html; charset=utf-8').send(page('Lock app', '<p>Your connection is being refreshed. Try again in a moment.</p><p><a href="/">Back</a></p>'));
      if (!(err instanceof NeedsAuthorization)) throw err;
      // The variant shows a "Reconnect" link and lets the user choose; the default sends the browser to authorization at once.
      if (client.variant('reconnect-button-on-401')) return reply.code(200).type('text/html; charset=utf-8').send(page('Lock app', '<p>Your connection to your locks has ended.</p><p><a href="/connect">Reconnect</a></p>'));
      return reply.redirect('/connect', 302);
    }
  }

  // The variant refuses a Host it does not know, before any route: its own name only (the one the grading mock calls its webhook at too).
  if (client.variant('host-allow-list')) {
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers.host !== new URL(url).host) return reply.code(400).type('text/plain; charset=utf-8').send('Bad Request: unknown host');
    });
  }

  app.get('/connect', async (request, reply) => reply.redirect(client.authorizationUrl(sessionOf(request, reply), request.headers.host), 302));

  app.get('/callback', async (request, reply) => {
    const session = sessionOf(request, reply);
    const outcome = await client.handleCallback(session, new URL(request.url, 'http://app.invalid').searchParams);
    if (outcome === 'connected') return reply.redirect('/', 302);
    const text = outcome === 'denied' ? 'You cancelled the connection.' : 'This sign-in could not be verified. Start again.';
    return reply.code(outcome === 'denied' ? 200 : 400).type('text/html; charset=utf-8').send(page('Not connected', `<p>${text}</p><p><a href="/connect">Connect</a></p>`));
  });

  if (opts.pages) {
    await app.register(examplePages({
      client, sessionOf, withTokens, page, escapeHtml,
      webhook: () => ({ url: `${url}/webhook`, header: 'x-example-app', token: webhookToken }),
    }));
  } else {
    app.get('/', async (request, reply) => {
      const session = sessionOf(request, reply);
      if (!session.tokens) return reply.type('text/html; charset=utf-8').send(page('Lock app', '<p><a href="/connect">Connect your locks</a></p>'));
      return withTokens(reply, async () => {
        const answer = await client.api(session, 'GET', '/users/locks/mine');
        if (answer.status !== 200) return reply.code(502).type('text/html; charset=utf-8').send(page('Lock app', `<p>The service answered ${answer.status}.</p>`));
        const count = Array.isArray(answer.body) ? answer.body.length : 0;
        return reply.type('text/html; charset=utf-8').send(page('Lock app', `<p>Connected: ${count} lock(s).</p><p><a href="/refresh">Refresh the token</a></p>${client.pageScript()}`));
      });
    });

    app.get('/refresh', async (request, reply) => {
      const session = sessionOf(request, reply);
      return withTokens(reply, async () => {
        await client.refresh(session);
        return reply.redirect('/', 302);
      });
    });

    const lockIdOf = (request: FastifyRequest) => new URL(request.url, 'http://app.invalid').searchParams.get('lockId') ?? '';

    app.post('/watch', async (request, reply) => {
      const session = sessionOf(request, reply);
      return withTokens(reply, async () => {
        const answer = await client.watchLock(session, lockIdOf(request), `${url}/webhook`, { header: 'x-example-app', token: webhookToken });
        return reply.code(answer.status < 300 ? 200 : 502).send({ status: answer.status });
      });
    });

    app.post('/unwatch', async (request, reply) => {
      const session = sessionOf(request, reply);
      return withTokens(reply, async () => {
        const answer = await client.unwatchLock(session, lockIdOf(request));
        return reply.code(answer.status < 300 ? 200 : 502).send({ status: answer.status });
      });
    });

    const act = (path: string, call: (session: Session, request: FastifyRequest) => Promise<{ status: number }>) => {
      app.post(path, async (request, reply) => {
        const session = sessionOf(request, reply);
        return withTokens(reply, async () => {
          const answer = await call(session, request);
          return reply.code(answer.status < 300 ? 200 : 502).send({ status: answer.status });
        });
      });
    };
    act('/watch-user', (session) => client.watchUser(session, `${url}/webhook`, { header: 'x-example-app', token: webhookToken }));
    act('/unwatch-user', (session) => client.unwatchUser(session));
    act('/status', (session, request) => client.checkStatus(session, lockIdOf(request)));
  }

  // ── Webhook receiver ─────────────────────────────────────────────────────
  // The deliveries of the registrations made above: verified over their raw bytes with
  // the API key, the timestamp within 5 minutes, the registration's header and token.
  const events: WebhookEvent[] = [];
  await app.register(webhookReceiver({
    apiKey: opts.config.apiKey,
    header: 'x-example-app',
    token: webhookToken,
    path: '/webhook',
    onEvent: (event) => {
      events.push(event);
      if (events.length > 100) events.shift();
    },
  }));
  app.get('/events', async () => events);

  const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const url = address.replace('[::1]', '127.0.0.1');
  return { url, app, close: () => app.close() };
}

async function main(): Promise<void> {
  const file = resolve(process.argv[2] ?? '.lockconf/mock-target.json');
  const profile = JSON.parse(await readFile(file, 'utf8')) as ClientConfig;
  const port = Number(process.env.PORT ?? 3000);
  const { authUrl, baseUrl, clientId, clientSecret, apiKey, redirectUri } = profile;
  const pages = process.env.PAGES === '1';
  const running = await startExampleApp({ config: { authUrl, baseUrl, clientId, clientSecret, apiKey, redirectUri }, port, pages });
  process.stdout.write(`example app on ${running.url} (connect: ${running.url}${pages ? '/' : '/connect'}; redirect_uri must be ${running.url}/callback)\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((err: unknown) => {
    process.stderr.write(`example app: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
