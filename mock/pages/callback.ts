/**
 * GET /callback: the demo application's redirect page (the mock's default
 * redirect_uri). It shows the outcome of an authorization without printing the
 * code, which is a secret.
 */
import type { FastifyInstance } from 'fastify';
import { html, page } from './layout.js';

export function registerCallbackPage(app: FastifyInstance): void {
  app.get('/callback', async (request, reply) => {
    const query = new URL(request.url, 'http://mock.invalid').searchParams;
    const code = query.get('code');
    const error = query.get('error');
    const state = query.get('state');
    const stateLine = state === null ? html`<p class="note">No state came back.</p>` : html`<p class="note">state: <code data-testid="state">${state}</code></p>`;
    let body;
    if (code) {
      body = html`<h1>Access granted</h1><p data-testid="outcome">approved</p>
<p>The application received an authorization code (${code.length} characters, not shown).</p>${stateLine}`;
    } else if (error) {
      body = html`<h1>Access not granted</h1><p data-testid="outcome">${error}</p>${stateLine}`;
    } else {
      body = html`<h1>Demo application</h1><p>This page receives the end of a sign-in. Nothing arrived.</p>`;
    }
    return reply.type('text/html; charset=utf-8').send(page('Demo application', body));
  });
}
