/**
 * The grading part of the control protocol (an additive extension, documented in
 * the README): served under /_control, behind its x-control-token.
 *   GET    /grading[?clientId=…][&grading=ID]
 *                                  the recording (recording.ts), or of one grading only; 404 grading_off when the
 *                                  mock does not grade, 404 no_such_grading for a grading it does not know
 *   POST   /grading/start          {"closes"?: ID}: ends the grading in progress and starts the next; answers
 *                                  {"gradingId", "previous"}; 409 grading_superseded when `closes` is no longer in progress
 *   POST   /grading/mark           {"label": "…"}: a marker in the recording (probes judge what lies between two)
 *   POST   /grading/probe          {"kind": "api-401" | "refresh-refused" | "answer-201" | "answer-204" | "refresh-in-flight"}:
 *                                  the client's next API call is answered 401, or its next refresh is refused with 400
 *                                  (the token is revoked first), or its next successful API write (POST, PUT, DELETE) is
 *                                  answered 201 (same body) or 204 (no body), its new x-access-token kept, or its next
 *                                  refresh is held until another refresh arrives (at most 1.5 s: two in flight at once)
 *                                  {"kind": "api-401", "afterRefresh"?: true, "skip"?: N}: the 401 lands on the first API
 *                                  call after the client's next successful refresh, or lets N calls through first
 *                                  {"kind": "api-401", "status": 401 | 500 | 503}: the armed call is answered with that
 *                                  status instead (a server error: the token stays valid)
 *                                  {"kind": "token-error", "status"?: 302 | 400 | 500 | 503}: the client's next token
 *                                  request (any grant) is answered with that status (302: to /error; 400: an OAuth
 *                                  error body), its code or refresh token left unused
 *                                  {"kind": "answer", "status": 200-205, "body"?: "same" | "empty"}: the client's next
 *                                  successful API write is answered with that 2xx, its body kept or none (204 and 205:
 *                                  none), its new x-access-token kept
 *   DELETE /grading                forget the recording (and start a new grading)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ControlError } from '../context.js';
import { BODILESS_STATUSES, GradingSuperseded, PROBE_ANSWER_STATUSES, PROBE_KINDS, PROBE_REFUSAL_STATUSES, PROBE_TOKEN_ERROR_STATUSES, type GradingStore, type ProbeKind } from './store.js';

const StartBody = z.object({ closes: z.number().int().positive().optional() }).strict();
const GradingQuery = z.string().regex(/^[1-9][0-9]{0,9}$/, 'grading: a grading id (a positive whole number)');
const MarkBody = z.object({ label: z.string().min(1).max(100) });
const ProbeBody = z.object({
  kind: z.enum(PROBE_KINDS as [ProbeKind, ...ProbeKind[]]),
  endpoint: z.string().min(1).max(100).optional(),
  status: z.number().int().optional(),
  body: z.enum(['same', 'empty']).optional(),
  afterRefresh: z.boolean().optional(),
  skip: z.number().int().min(0).max(100).optional(),
}).refine((b) => b.kind !== 'answer' || b.status !== undefined, { message: 'an answer probe names its status', path: ['status'] })
  .refine((b) => b.status === undefined || b.kind !== 'answer' || PROBE_ANSWER_STATUSES.includes(b.status), { message: `an answer probe's status: one of ${PROBE_ANSWER_STATUSES.join(', ')}`, path: ['status'] })
  .refine((b) => b.status === undefined || b.kind !== 'api-401' || PROBE_REFUSAL_STATUSES.includes(b.status), { message: `an api-401 probe's status: one of ${PROBE_REFUSAL_STATUSES.join(', ')}`, path: ['status'] })
  .refine((b) => b.status === undefined || b.kind !== 'token-error' || PROBE_TOKEN_ERROR_STATUSES.includes(b.status), { message: `a token-error probe's status: one of ${PROBE_TOKEN_ERROR_STATUSES.join(', ')}`, path: ['status'] })
  .refine((b) => b.status === undefined || ['answer', 'api-401', 'token-error'].includes(b.kind), { message: 'only the answer, api-401 and token-error probes take a status', path: ['status'] });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ControlError(400, 'invalid_body', result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return result.data;
}

export function registerGradingControl(app: FastifyInstance, store: GradingStore | undefined, clock: { now(): number }): void {
  const active = (): GradingStore => {
    if (!store) throw new ControlError(404, 'grading_off', 'this mock does not grade its clients: start it with the --grade option of lockconf mock');
    return store;
  };

  app.get('/grading', async (request) => {
    const query = new URL(request.url, 'http://mock.invalid').searchParams;
    const clientId = query.get('clientId');
    const named = query.get('grading');
    const gradingId = named === null ? undefined : Number(parse(GradingQuery, named));
    const recording = active().snapshot(clientId ?? undefined, gradingId);
    if (!recording) throw new ControlError(404, 'no_such_grading', `grading ${named} is not held by this mock (never started, cleared, or forgotten)`);
    return recording;
  });

  app.post('/grading/start', async (request) => {
    const { closes } = parse(StartBody, request.body ?? {});
    const grading = active();
    try {
      return grading.startGrading(closes);
    } catch (err) {
      if (err instanceof GradingSuperseded) throw new ControlError(409, 'grading_superseded', `${err.message}: another grading ended it (a second conformance --client run, or POST /_control/grading/start)`);
      throw err;
    }
  });

  app.post('/grading/mark', async (request, reply) => {
    const { label } = parse(MarkBody, request.body);
    const grading = active();
    const tick = grading.tick();
    grading.add({ type: 'mark', at: clock.now(), startTick: tick, endTick: tick, clientId: null, label });
    if (label.endsWith(':end')) grading.disarm(); // a probe that did not fire must not hit a later request
    return reply.code(204).send();
  });

  app.post('/grading/probe', async (request, reply) => {
    const { kind, endpoint, status, body, afterRefresh, skip } = parse(ProbeBody, request.body);
    const refusal = (kind === 'api-401' || kind === 'token-error') && status !== undefined ? { status } : {};
    const answer = kind === 'answer' && status !== undefined ? { status, empty: body === 'empty' || BODILESS_STATUSES.includes(status) } : null;
    active().arm(kind, endpoint ?? null, answer, { ...(afterRefresh === undefined ? {} : { afterRefresh }), ...(skip === undefined ? {} : { skip }), ...refusal });
    return reply.code(204).send();
  });

  app.delete('/grading', async (_request, reply) => {
    active().clear();
    return reply.code(204).send();
  });
}
