/**
 * The example application's "pages" variant (startExampleApp({ pages: true }),
 * or PAGES=1 npx tsx examples/app/server.ts): what a person uses, and what
 * lockconf's Chromium driver drives (`conformance --client --browser`).
 *   GET  /          not connected: a "Connect your locks" button (the connect page);
 *                   connected: the user's locks, a "Refresh the token" button, and a
 *                   form to register or delete a lock's webhook
 *   POST /connect   starts authorization (303 to the authorization endpoint)
 *   POST /refresh   refreshes the session's token now
 *   POST /watch     registers a lock webhook (form field lockId); POST /unwatch deletes it
 *   POST /status    asks the lock's status (form field lockId)
 *   POST /watch-user, /unwatch-user   registers / deletes the user webhook
 * Every POST is a form carrying the page's CSRF token (@fastify/csrf-protection,
 * bound to the session): a POST without it is refused with 403, so a driver
 * that does not read the page cannot press these buttons.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { LockClient, Session } from './client.js';

export interface PagesDeps {
  client: LockClient;
  sessionOf(request: FastifyRequest, reply: FastifyReply): Session;
  withTokens(reply: FastifyReply, action: () => Promise<FastifyReply>): Promise<FastifyReply>;
  /** Where and how the app's webhook receiver is registered. */
  webhook(): { url: string; header: string; token: string };
  page(title: string, body: string): string;
  escapeHtml(text: string): string;
}

const SESSION = /(?:^|;\s*)example_session=([A-Za-z0-9_-]+)/;

export function examplePages(deps: PagesDeps) {
  const { client, sessionOf, withTokens, page, escapeHtml } = deps;
  const html = (reply: FastifyReply, title: string, body: string) => reply.type('text/html; charset=utf-8').send(page(title, body));
  const form = (action: string, csrf: string, inner: string) =>
    `<form method="post" action="${action}"><input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">${inner}</form>`;

  return async function pages(app: FastifyInstance): Promise<void> {
    await app.register(fastifyFormbody);
    await app.register(fastifyCookie);
    await app.register(fastifyCsrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'example_csrf',
      cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true },
      csrfOpts: { hmacKey: randomBytes(32) },
      // A token is good for its session only.
      getUserInfo: (request) => SESSION.exec(request.headers.cookie ?? '')?.[1] ?? '',
    });
    const guarded = { preHandler: app.csrfProtection };

    app.get('/', async (request, reply) => {
      const session = sessionOf(request, reply);
      // The CSRF token is bound to the session cookie: a first visit gets both at once.
      const csrf = reply.generateCsrf({ userInfo: session.id });
      if (!session.tokens) return html(reply, 'Lock app', `<p>Your locks are not connected yet.</p>${form('/connect', csrf, '<button type="submit">Connect your locks</button>')}`);
      return withTokens(reply, async () => {
        const answer = await client.api(session, 'GET', '/users/locks/mine');
        if (answer.status !== 200) return reply.code(502).type('text/html; charset=utf-8').send(page('Lock app', `<p>The service answered ${answer.status}.</p>`));
        const locks = (Array.isArray(answer.body) ? answer.body : []) as Array<{ lockId?: unknown; lockName?: unknown }>;
        const options = locks
          .filter((l) => typeof l.lockId === 'string')
          .map((l) => `<option value="${escapeHtml(l.lockId as string)}">${escapeHtml(typeof l.lockName === 'string' ? l.lockName : (l.lockId as string))}</option>`)
          .join('');
        return html(reply, 'Lock app', `<p>Connected: ${locks.length} lock(s).</p>${client.pageScript()}`
          + form('/refresh', csrf, '<button type="submit" id="refresh">Refresh the token</button>')
          + form('/watch', csrf, `<label>Lock <select name="lockId">${options}</select></label> <button type="submit">Register webhook</button> <button type="submit" formaction="/status">Check the lock's status</button> <button type="submit" formaction="/unwatch">Delete webhook</button>`)
          + form('/watch-user', csrf, '<button type="submit">Watch my account</button> <button type="submit" formaction="/unwatch-user">Stop watching my account</button>'));
      });
    });

    app.post('/connect', guarded, async (request, reply) => reply.redirect(client.authorizationUrl(sessionOf(request, reply), request.headers.host), 303));

    app.post('/refresh', guarded, async (request, reply) => {
      const session = sessionOf(request, reply);
      return withTokens(reply, async () => {
        await client.refresh(session);
        return reply.redirect('/', 303);
      });
    });

    const lockIdOf = (request: FastifyRequest) => {
      const body = request.body as { lockId?: unknown } | undefined;
      return typeof body?.lockId === 'string' ? body.lockId : '';
    };

    app.post('/watch', guarded, async (request, reply) => {
      const session = sessionOf(request, reply);
      return withTokens(reply, async () => {
        const { url, header, token } = deps.webhook();
        const answer = await client.watchLock(session, lockIdOf(request), url, { header, token });
        if (answer.status >= 300) return reply.code(502).type('text/html; charset=utf-8').send(page('Lock app', `<p>The service answered ${answer.status}.</p><p><a href="/">Back</a></p>`));
        return reply.redirect('/', 303);
      });
    });

    const act = (path: string, call: (session: Session, request: FastifyRequest) => Promise<{ status: number }>) => {
      app.post(path, guarded, async (request, reply) => {
        const session = sessionOf(request, reply);
        return withTokens(reply, async () => {
          const answer = await call(session, request);
          if (answer.status >= 300) return reply.code(502).type('text/html; charset=utf-8').send(page('Lock app', `<p>The service answered ${answer.status}.</p><p><a href="/">Back</a></p>`));
          return reply.redirect('/', 303);
        });
      });
    };
    act('/unwatch', (session, request) => client.unwatchLock(session, lockIdOf(request)));
    act('/status', (session, request) => client.checkStatus(session, lockIdOf(request)));
    act('/watch-user', (session) => {
      const { url, header, token } = deps.webhook();
      return client.watchUser(session, url, { header, token });
    });
    act('/unwatch-user', (session) => client.unwatchUser(session));
  };
}
