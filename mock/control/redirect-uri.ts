/**
 * The registered redirect URI through the control interface (an additive
 * extension, docs/control-protocol-extensions.md): so an application can start
 * first, on a port of its choosing, and register its callback once the mock runs.
 *   GET /redirect-uri                          {"redirectUri": "…"}: the one registered now
 *   PUT /redirect-uri {"redirectUri": "…"}     replaces it (an absolute http(s) URL without
 *                                              a fragment); answers the same shape
 * The login redirect URI (`npm run login`) stays registered beside it; a reset
 * keeps the registration (it is the client's, like its credentials).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ControlError, type MockContext } from '../context.js';
import { zodMessage } from './errors.js';

export const RedirectUriBody = z.strictObject({
  redirectUri: z.url({ protocol: /^https?$/ }).max(2048).refine((u) => !u.includes('#'), 'must not carry a fragment (RFC 6749 §3.1.2)'),
});

export function registerRedirectUriControl(app: FastifyInstance, ctx: MockContext): void {
  app.get('/redirect-uri', async () => ({ redirectUri: ctx.credentials.redirectUri }));

  app.put('/redirect-uri', async (request) => {
    const parsed = RedirectUriBody.safeParse(request.body);
    if (!parsed.success) throw new ControlError(400, 'invalid_body', zodMessage(parsed.error));
    ctx.credentials.redirectUri = parsed.data.redirectUri;
    return { redirectUri: ctx.credentials.redirectUri };
  });
}
