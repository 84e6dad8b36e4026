/**
 * The OAuth server at {auth_url} (the mock serves it under /oauth): the
 * authorization endpoint with its pages, and the token endpoint. Sets
 * ctx.tokens (access tokens for the API) and ctx.oauth (hooks for the control
 * protocol), and registers the reset of its own state.
 */
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.js';
import { describeError } from '../control/errors.js';
import { errorPage } from '../pages/layout.js';
import { createAccessTokens } from './access-tokens.js';
import { registerAuthorizationEndpoint } from './authorization-endpoint.js';
import { AuthorizationCodes } from './codes.js';
import { createOAuthControl } from './consent.js';
import { parseFormBody } from './form-body.js';
import { PendingAuthorizations } from './pending.js';
import { Grants } from './grants.js';
import { RefreshTokens } from './refresh-tokens.js';
import { SignInLimits } from './sign-in-limits.js';
import { SmsOutbox } from './sms-outbox.js';
import { answerMalformed, registerTokenEndpoint } from './token-endpoint.js';

export async function registerOAuth(app: FastifyInstance, ctx: MockContext): Promise<void> {
  const grants = new Grants();
  const tokens = createAccessTokens(ctx, grants);
  const codes = new AuthorizationCodes(ctx);
  const refresh = new RefreshTokens(ctx, grants);
  const pending = new PendingAuthorizations(ctx);
  const limits = new SignInLimits(ctx);
  const outbox = new SmsOutbox();
  ctx.tokens = tokens;
  ctx.smsOutbox = outbox;
  ctx.oauth = createOAuthControl(ctx, { codes, refresh });
  ctx.onReset.push(() => {
    tokens.reset();
    codes.clear();
    refresh.clear();
    pending.clear();
    limits.clear();
    outbox.clear();
    grants.clear();
  });
  // The fault cc-permitted-at-start: the permission is on from the start and after every reset.
  const permitAtStart = () => {
    if (ctx.faults.has('cc-permitted-at-start')) ctx.clientCredentialsEnabled.add(ctx.credentials.clientId);
  };
  permitAtStart();
  ctx.onReset.push(permitAtStart);

  // Faults form-values-not-decoded and TOKEN-BODY-URL-DECODED@grant=…: the values of a request (of that grant) are read as sent.
  const undecodedWhenBroken = (text: string) => {
    const form = parseFormBody(text);
    const grant = typeof form.grant_type === 'string' ? form.grant_type : null;
    const client = typeof form.client_id === 'string' ? (form.client_id === ctx.credentials.clientId ? 'profile' : 'second') : null;
    if (!ctx.faults.has('form-values-not-decoded') && !ctx.faults.breaks('TOKEN-BODY-URL-DECODED', { grant, client })) return form;
    return Object.fromEntries(text.split('&').filter(Boolean).map((pair) => [pair.split('=')[0]!, pair.slice(pair.indexOf('=') + 1)]));
  };
  await app.register(fastifyFormbody, { parser: ctx.faults.has('form-values-not-decoded') || ctx.faults.anySlice() ? undecodedWhenBroken : parseFormBody });
  // A coarse per-address bound on the pages (routes opt in with config.rateLimit; SIGN_IN_RATE);
  // the finer per-account and per-address lockouts are sign-in-limits.ts.
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => Object.assign(new Error(`Too many requests from this address. Try again in ${context.after}.`), { statusCode: 429, code: 'rate_limited' }),
  });
  app.setErrorHandler((error, request, reply) => {
    const described = describeError(error);
    if (described.status >= 500) request.log.error({ err: error }, 'OAuth route failed');
    // Anything the token endpoint cannot parse is a malformed request: 302 to /error.
    if ((request.routeOptions.config as { tokenEndpoint?: boolean } | undefined)?.tokenEndpoint && described.status < 500) {
      return answerMalformed(ctx, reply);
    }
    const rateLimited = described.status === 429;
    const title = described.code === 'csrf_failed' ? 'Form expired' : rateLimited ? 'Too many requests' : 'Request refused';
    const message = described.code === 'csrf_failed'
      ? 'This form could not be verified. Go back to the application and start the sign-in again.'
      : rateLimited ? (error as Error).message : described.message;
    return reply.code(described.status).type('text/html; charset=utf-8').send(errorPage(title, message));
  });

  // Only the sign-in pages use cookies (the CSRF cookie): registered in their own scope,
  // so the token endpoint, which reads and sets none, does not run the cookie hooks.
  await app.register(async (pages) => {
    await pages.register(fastifyCookie);
    // The CSRF token is bound to the pending request's ID (userInfo), so a form
    // only works for the sign-in it was served for, in the browser that got the cookie.
    await pages.register(fastifyCsrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'lockconf_csrf',
      cookieOpts: { path: app.prefix || '/', sameSite: 'strict', httpOnly: true },
      csrfOpts: { hmacKey: randomBytes(32) },
      getUserInfo: (request) => {
        const body = request.body as { request?: unknown } | undefined;
        return typeof body?.request === 'string' ? body.request : '';
      },
    });
    registerAuthorizationEndpoint(pages, ctx, { pending, codes, limits, csrfProtection: pages.csrfProtection });
  });
  registerTokenEndpoint(app, ctx, { tokens, codes, refresh, grants });
}
