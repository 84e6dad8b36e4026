/**
 * The faults authz-answers-error and authz-empty-page (OAUTH-SIGN-IN-STEP): GET
 * /authorization answers a valid authorization request with an HTTP 500 error page, or
 * with HTTP 200 and an empty body, instead of the first step of the sign-in. An onRequest hook of the OAuth routes, so that the endpoint's own
 * module is untouched: found by mutation testing (a route that answered 404, 429 or
 * 500 to every valid request, or a sign-in page rendered empty, passed, since only "no
 * redirect to redirect_uri" was checked).
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.js';
import { errorPage } from '../pages/layout.js';
import { validateAuthorizationRequest } from './authorization-request.js';

/** The answer the fault on gives a valid authorization request; null with neither on (the mock's faults are fixed at start). */
function faultyAnswer(ctx: MockContext): { status: number; body: string } | null {
  if (ctx.faults.has('authz-answers-error')) return { status: 500, body: errorPage('Server error', 'The sign-in could not be started.') };
  if (ctx.faults.has('authz-empty-page')) return { status: 200, body: '' };
  return null;
}

/** With either fault on, an onRequest hook answers every valid GET /authorization with it; with neither, no hook. */
export function answerAuthorizationWithError(app: FastifyInstance, ctx: MockContext): void {
  const answer = faultyAnswer(ctx);
  if (!answer) return;
  app.addHook('onRequest', async (request, reply) => {
    const [path, query] = request.url.split('?');
    if (request.method !== 'GET' || !path!.endsWith('/authorization') || !validateAuthorizationRequest(ctx, new URLSearchParams(query ?? '')).ok) return undefined;
    return reply.code(answer.status).type('text/html; charset=utf-8').send(answer.body);
  });
}
