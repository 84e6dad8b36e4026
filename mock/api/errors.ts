/**
 * The API's error answers: always a 4xx JSON body `{"error": code, "message": text}`.
 * Messages name the field or header at fault and never echo a secret.
 */
import type { FastifyError, FastifyInstance } from 'fastify';

/** An error a route or hook throws to answer with a given 4xx. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiErrorBody {
  error: string;
  message: string;
  field?: string;
}

/** Fastify's own 4xx errors (bad JSON, wrong media type, too large) in the API's shape. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_TYPE: 'invalid_request',
};

export function toErrorBody(err: unknown): { status: number; body: ApiErrorBody } {
  if (err instanceof ApiError) {
    const body: ApiErrorBody = { error: err.code, message: err.message };
    if (err.field !== undefined) body.field = err.field;
    return { status: err.statusCode, body };
  }
  const fe = err as Partial<FastifyError>;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code = (fe.code && FASTIFY_CODES[fe.code]) ?? 'invalid_request';
    // Fastify's messages describe the request (never its contents), so they are safe to pass on.
    return { status, body: { error: code, message: fe.message ?? 'invalid request' } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'the mock failed to handle this request' } };
}

/** JSON error answers for every error and unknown route in this scope. */
export function installErrorHandlers(app: FastifyInstance, onInternal: (err: unknown) => void): void {
  app.setErrorHandler((err, _request, reply) => {
    const { status, body } = toErrorBody(err);
    if (status >= 500) onInternal(err);
    return reply.code(status).type('application/json').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.code(404).send({ error: 'not_found', message: `no API route ${request.method} ${request.url.split('?')[0]}` });
  });
}
