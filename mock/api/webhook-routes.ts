/**
 * The four webhook endpoints (spec: POST {base_url}/webhook/:lockID, POST /webhook/user,
 * DELETE /webhook/:lockID/:clientID, DELETE /webhook/user). The spec does not show their
 * answers; the mock answers:
 *   register  200 {lockId|userId, clientID, url, method, header, notificationTypes} (never the token)
 *   delete    200 {deleted: true, ...}
 *   unknown lock, or caller not a member   404 {"error":"lock_not_found"}
 *   nothing to delete                      404 {"error":"webhook_not_found"}
 *   body not a JSON object, or a field wrong 422 {"error":"invalid_registration","field":...}
 *   malformed JSON                         400 {"error":"invalid_json"}
 *   more registrations than the mock holds 429 {"error":"too_many_registrations"}
 * The static /webhook/user routes win over the parametric ones (fastify's router).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MockContext } from '../context.js';
import type { Registration, WebhookRegistry } from '../webhooks/registry.js';
import { absentFields, firstProblem, lockRegistrationSchema, userRegistrationSchema, type RegistrationBody } from '../webhooks/registration-schema.js';
import { lockSlot, roleOn } from '../world.js';
import { callerOf } from './authentication.js';
import { ApiError } from './errors.js';
import { memberLock } from './member-lock.js';
import { callerUser } from './users.js';
import { API_SCHEMAS } from '../docs/api-schemas.js';
import { documented } from '../docs/common-schemas.js';

type Schema = typeof lockRegistrationSchema | typeof userRegistrationSchema;

function parseRegistration(ctx: MockContext, schema: Schema, body: unknown): RegistrationBody {
  if (body === undefined) throw new ApiError(422, 'invalid_registration', 'a JSON registration body is required', '(body)');
  const result = schema.safeParse(body);
  if (!result.success) {
    const problem = firstProblem(result.error, body);
    throw new ApiError(422, 'invalid_registration', problem.message, problem.field);
  }
  if (result.data.clientID !== ctx.credentials.clientId) {
    throw new ApiError(422, 'invalid_registration', 'clientID must be the client_id of the credential making the call', 'clientID');
  }
  return result.data;
}

function ensureRoom(registry: WebhookRegistry): void {
  if (registry.isFull()) throw new ApiError(429, 'too_many_registrations', 'the mock holds no more webhook registrations; delete some first');
}

/** What the registration answers: everything but the token, which is the application's secret. */
function describe(registration: Registration): Record<string, unknown> {
  return {
    ...(registration.lockId !== null ? { lockId: registration.lockId } : { userId: registration.userId }),
    clientID: registration.clientId,
    url: registration.url,
    method: registration.method,
    header: registration.header,
    notificationTypes: registration.notificationTypes,
  };
}

export function registerWebhookRoutes(app: FastifyInstance, ctx: MockContext, registry: WebhookRegistry): void {
  // The emptyWebhookAnswers variant: 201 (registered) or 204 (deleted) with no body. Freedom
  // WEBHOOK-ENDPOINT-ANSWERS=accepted-202: 202 with no body ("Response bodies and status codes … not shown").
  const answer = (reply: FastifyReply, status: 201 | 204, body: Record<string, unknown>) =>
    ctx.freedoms.chooses('WEBHOOK-ENDPOINT-ANSWERS', 'accepted-202') ? reply.code(202).send()
      : ctx.options.emptyWebhookAnswers ? reply.code(status).send() : body;

  app.post('/webhook/user', documented(API_SCHEMAS.registerUser), async (request, reply) => {
    const { claims } = callerOf(request);
    callerUser(ctx, claims.userId);
    const body = parseRegistration(ctx, userRegistrationSchema, request.body);
    if (ctx.faults.has('user-register-refused')) throw new ApiError(400, 'invalid_registration', 'registration refused');
    ensureRoom(registry);
    const input = { ...body, userId: claims.userId, clientId: body.clientID };
    // Slice fault: a registration that left out that optional field is answered as registered but not kept.
    if (ctx.faults.breaks('WEBHOOK-USER-REGISTER', { 'registration-fields': absentFields(request.body) })) return answer(reply, 201, describe({ ...input, id: '', lockId: null, createdAtMs: 0 }));
    return answer(reply, 201, describe(registry.registerUser(input)));
  });

  app.post<{ Params: { lockID: string } }>('/webhook/:lockID', documented(API_SCHEMAS.registerLock), async (request, reply) => {
    const { claims } = callerOf(request);
    const lock = memberLock(ctx, request.params.lockID, callerUser(ctx, claims.userId));
    const body = parseRegistration(ctx, lockRegistrationSchema, request.body);
    if (ctx.faults.has('lock-register-refused')) throw new ApiError(400, 'invalid_registration', 'registration refused');
    ensureRoom(registry);
    const input = { ...body, userId: claims.userId, clientId: body.clientID };
    // Slice fault: a registration that left out that optional field is answered as registered but not kept.
    if (ctx.faults.breaks('WEBHOOK-LOCK-REGISTER', { 'registration-fields': absentFields(request.body) })) return answer(reply, 201, describe({ ...input, id: '', lockId: lock.lockId, createdAtMs: 0 }));
    return answer(reply, 201, describe(registry.registerLock(lock.lockId, input, { lock: lockSlot(ctx.world, lock.lockId), role: roleOn(lock, claims.userId) })));
  });

  app.delete('/webhook/user', documented(API_SCHEMAS.deleteUser), async (request, reply) => {
    const { claims } = callerOf(request);
    callerUser(ctx, claims.userId);
    if (!registry.deleteUser(claims.userId, claims.clientId)) {
      throw new ApiError(404, 'webhook_not_found', 'the caller has no user webhook registration');
    }
    return answer(reply, 204, { deleted: true, userId: claims.userId });
  });

  app.delete<{ Params: { lockID: string; clientID: string } }>('/webhook/:lockID/:clientID', documented(API_SCHEMAS.deleteLock), async (request, reply) => {
    const { claims } = callerOf(request);
    const lock = memberLock(ctx, request.params.lockID, callerUser(ctx, claims.userId));
    if (!registry.deleteLock(lock.lockId, claims.userId, request.params.clientID, { lock: lockSlot(ctx.world, lock.lockId), role: roleOn(lock, claims.userId) })) {
      throw new ApiError(404, 'webhook_not_found', 'the caller has no webhook registration on this lock for this clientID', 'clientID');
    }
    return answer(reply, 204, { deleted: true, lockId: lock.lockId, clientID: request.params.clientID });
  });
}
