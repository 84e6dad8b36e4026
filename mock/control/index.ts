/**
 * The test control protocol at /_control (control-protocol.md): fixtures,
 * acting as the user at consent, the clock, events, refresh-token revocation,
 * the client_credentials permission and reset. Every request carries
 * x-control-token; every body is validated; errors are {"error","message"}.
 * Extensions (control-protocol-extensions.md): the run lease (POST and DELETE
 * /lease, unless the mock runs with `lease: false`) and the `resets` count in
 * GET /fixtures, the registered redirect URI (GET and PUT /redirect-uri), and the
 * sign-in screens' test account and SMS codes (GET /sign-in/account, /sign-in/sms).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ControlError, type MockContext } from '../context.js';
import { sameSecret } from '../secret-compare.js';
import { describeError, sendJsonError, zodMessage } from './errors.js';
import { answeredFixtures } from './fixture-extras.js';
import { registeredClient } from '../oauth/other-clients.js';
import { registerGradingControl } from '../grading/control-routes.js';
import { registerRedirectUriControl } from './redirect-uri.js';
import { registerSignInControl } from './sign-in.js';
import { ClientCredentialsBody, ClockBody, ConsentBody, EventBody, LeaseBody, MAX_CLOCK_OFFSET_MS, RevokeBody } from './schemas.js';
import { RunCoordination } from './run-lease.js';
import { CONTROL_SCHEMAS } from '../docs/control-schemas.js';
import { documented } from '../docs/common-schemas.js';

function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ControlError(400, 'invalid_body', zodMessage(result.error));
  return result.data;
}

/** Constant time, length not leaked (secret-compare.ts). */
function tokenMatches(given: unknown, expected: string): boolean {
  return sameSecret(given, expected);
}

export async function registerControl(app: FastifyInstance, ctx: MockContext): Promise<void> {
  // JSON in, nothing else (415); an empty body counts as no body, so `POST /reset` needs none.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ControlError(400, 'invalid_json', 'the body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!tokenMatches(request.headers['x-control-token'], ctx.credentials.controlToken)) {
      return sendJsonError(reply, 401, 'unauthorized', 'missing or wrong x-control-token');
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const described = describeError(error);
    if (described.status >= 500) request.log.error({ err: error }, 'control route failed');
    return sendJsonError(reply, described.status, described.code, described.message);
  });

  app.setNotFoundHandler((_request, reply) => sendJsonError(reply, 404, 'not_found', 'no such control endpoint'));

  const runs = new RunCoordination();
  app.get('/fixtures', documented(CONTROL_SCHEMAS.fixtures), async () => ({ ...answeredFixtures(ctx), resets: runs.resets }));

  if (ctx.options.lease !== false) {
    app.post('/lease', documented(CONTROL_SCHEMAS.lease), async (request, reply) => {
      const body = parse(LeaseBody, request.body);
      const arriving = runs.held()?.runId !== body.runId;
      const answer = runs.take(body.runId, body.ttlMs);
      if (answer.taken && arriving && ctx.options.developmentServer) {
        ctx.log(`a conformance run (${body.runId}) took this mock: its resets wipe the webhook registrations, tokens and sign-ins made on it; restart the mock, or keep one for runs on another --port`);
      }
      if (!answer.taken) {
        return reply.code(409).send({
          error: 'lease_held',
          message: `another run holds the target: ${answer.heldBy} (until ${new Date(answer.expiresAt).toISOString()})`,
          heldBy: answer.heldBy,
          expiresAt: new Date(answer.expiresAt).toISOString(),
        });
      }
      return { runId: answer.lease.runId, expiresAt: new Date(answer.lease.expiresAt).toISOString() };
    });

    app.delete('/lease/:runId', documented(CONTROL_SCHEMAS.releaseLease), async (request, reply) => {
      const { runId } = request.params as { runId: string };
      const answer = runs.release(runId);
      if (!answer.released) {
        return reply.code(409).send({
          error: 'lease_held',
          message: `the lease is held by another run: ${answer.heldBy}`,
          heldBy: answer.heldBy,
          expiresAt: new Date(answer.expiresAt).toISOString(),
        });
      }
      return reply.code(204).send();
    });
  }

  app.post('/consent', documented(CONTROL_SCHEMAS.consent), async (request, reply) => {
    const body = parse(ConsentBody, request.body);
    if (!ctx.oauth) throw new ControlError(422, 'consent_unavailable', 'the OAuth side is not running');
    const outcome = ctx.oauth.consent(body.authorizationUrl, body.userId, body.decision);
    // The location carries an authorization code: no cache may keep it.
    reply.header('cache-control', 'no-store');
    if (outcome.status === 200) return reply.code(200).send({ location: outcome.location, redirectStatus: outcome.redirectStatus });
    return reply.code(outcome.status).send({ location: null, error: outcome.error, message: outcome.message });
  });

  app.get('/clock', documented(CONTROL_SCHEMAS.getClock), async () => ({ now: ctx.clock.now() }));

  app.post('/clock', documented(CONTROL_SCHEMAS.postClock), async (request) => {
    const body = parse(ClockBody, request.body);
    if ('advanceMs' in body && ctx.clock.offsetMs + body.advanceMs > MAX_CLOCK_OFFSET_MS) {
      throw new ControlError(422, 'clock_out_of_range', `the clock may run at most ${MAX_CLOCK_OFFSET_MS} ms (a thousand years) ahead of real time; reset it first`);
    }
    const now = 'reset' in body ? ctx.clock.reset() : ctx.clock.advance(body.advanceMs);
    return { now };
  });

  app.post('/events', documented(CONTROL_SCHEMAS.events), async (request) => {
    const body = parse(EventBody, request.body);
    return ctx.events.emit(body);
  });

  app.post('/refresh-tokens/revoke', documented(CONTROL_SCHEMAS.revoke), async (request, reply) => {
    const body = parse(RevokeBody, request.body);
    if (!ctx.oauth) throw new ControlError(422, 'revoke_unavailable', 'the OAuth side is not running');
    if (!ctx.oauth.revokeRefreshToken(body.refreshToken)) throw new ControlError(404, 'unknown_refresh_token', 'no such refresh token');
    return reply.code(204).send();
  });

  app.post('/client-credentials', documented(CONTROL_SCHEMAS.clientCredentials), async (request, reply) => {
    const body = parse(ClientCredentialsBody, request.body);
    if (registeredClient(ctx, body.clientId) === null) throw new ControlError(404, 'unknown_client', 'no such client');
    if (body.enabled) ctx.clientCredentialsEnabled.add(body.clientId);
    else if (!ctx.faults.has('cc-withdraw-ignored')) ctx.clientCredentialsEnabled.delete(body.clientId);
    return reply.code(204).send();
  });

  registerGradingControl(app, ctx.grading, ctx.clock);
  registerRedirectUriControl(app, ctx);
  registerSignInControl(app, ctx);

  app.post('/reset', documented(CONTROL_SCHEMAS.reset), async (_request, reply) => {
    // Every module restores its own initial state; the clock is left where it is.
    for (const reset of ctx.onReset) reset();
    runs.countReset();
    return reply.code(204).send();
  });
}
