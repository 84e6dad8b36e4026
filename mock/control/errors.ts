/**
 * How the mock turns an error into an answer: a 4xx with a stable code for
 * anything the client got wrong (bad JSON, wrong content type, oversized body,
 * failed validation), 500 only for the mock's own bugs. Messages never echo
 * the request body, which may hold secrets.
 */
import type { FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { ControlError } from '../context.js';

export interface DescribedError {
  status: number;
  code: string;
  message: string;
}

const FASTIFY_CODES: Record<string, [string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'this content type is not accepted here'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'the content-length does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', 'the request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'the body is empty but declared as JSON'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'the body is not valid JSON'],
  FST_ERR_BAD_URL: ['bad_request', 'the URL is malformed'],
  FST_CSRF_MISSING_SECRET: ['csrf_failed', 'the CSRF cookie is missing'],
  FST_CSRF_INVALID_TOKEN: ['csrf_failed', 'the CSRF token is wrong'],
};

export function describeError(error: unknown): DescribedError {
  if (error instanceof ControlError) return { status: error.statusCode, code: error.code, message: error.message };
  if (error instanceof ZodError) return { status: 400, code: 'invalid_body', message: zodMessage(error) };
  const e = (error ?? {}) as { statusCode?: unknown; code?: unknown };
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const known = typeof e.code === 'string' ? FASTIFY_CODES[e.code] : undefined;
    if (known) return { status, code: known[0], message: known[1] };
    if (error instanceof SyntaxError) return { status: 400, code: 'invalid_json', message: 'the body is not valid JSON' };
    return { status, code: 'bad_request', message: 'the request could not be understood' };
  }
  return { status: 500, code: 'internal_error', message: 'internal error' };
}

/** "field: problem; field: problem" — names the fields, never their values. */
export function zodMessage(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}

export function sendJsonError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: code, message });
}
