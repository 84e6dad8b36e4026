/**
 * GET /error: where the token endpoint sends malformed requests (spec: Errors,
 * "HTTP 302 to /error"). A page a person can read.
 */
import type { FastifyInstance } from 'fastify';
import { html, page } from './layout.js';

export function registerErrorPage(app: FastifyInstance): void {
  app.get('/error', async (_request, reply) => {
    const body = html`<h1>Something went wrong</h1>
<p>The request to the token endpoint could not be understood. Token requests are a
<code>POST</code> with <code>Content-Type: application/x-www-form-urlencoded</code> carrying
<code>client_id</code>, <code>client_secret</code> and <code>grant_type</code> in the body.</p>
<p class="note">With curl, quote the whole body so the shell does not split it at <code>&amp;</code>.</p>`;
    return reply.type('text/html; charset=utf-8').send(page('Error', body));
  });
}
