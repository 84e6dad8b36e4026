/**
 * JSON Schema pieces the mock's route schemas share. The schemas document the
 * routes (GET /docs); they do not validate: the handlers keep their own checks and
 * answers (mock/docs/openapi.ts installs a validator that accepts everything), so
 * describing a route never changes what it answers.
 */
import type { z } from 'zod';
import { z as zod } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema (the request side: before transforms), without the $schema key. */
export function fromZod(schema: z.ZodType, extra: JsonSchema = {}): JsonSchema {
  const { $schema: _ignored, ...rest } = zod.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return { ...rest, ...extra };
}

/** A JSON response: its description and schema. */
export function jsonResponse(description: string, schema: JsonSchema): JsonSchema {
  return { description, content: { 'application/json': { schema } } };
}

/** A response without a body (204, 302). */
export function emptyResponse(description: string, headers: JsonSchema = {}): JsonSchema {
  return { description, type: 'null', ...(Object.keys(headers).length ? { headers } : {}) };
}

/** An HTML page. */
export function htmlResponse(description: string): JsonSchema {
  return { description, content: { 'text/html': { schema: { type: 'string' } } } };
}

/** The API's and the control protocol's error body. */
export const errorBody: JsonSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'A stable code (invalid_token, lock_not_found, invalid_registration, …).' },
    message: { type: 'string', description: 'What was wrong, naming the field or header; never a secret.' },
    field: { type: 'string', description: 'The request field at fault, where there is one (API only).' },
  },
  examples: [{ error: 'invalid_token', message: 'x-access-token is invalid or expired; the user must authorize again' }],
};

export function errorResponse(description: string): JsonSchema {
  return jsonResponse(description, errorBody);
}

/** A lower-case UUID (user IDs, event IDs). */
export const uuid: JsonSchema = { type: 'string', format: 'uuid' };
/** A lock ID: 32 hex characters. */
export const lockId: JsonSchema = { type: 'string', pattern: '^[0-9A-Fa-f]{32}$', examples: ['3F2A9C0B5D7E41A6B8C9D0E1F2A3B4C5'] };

/** Accepts every input unchanged: the handlers validate, with their own clear 4xx. */
const documentationOnly = () => (data: unknown) => ({ value: data });
/** The same bytes fastify sends without a schema (a response schema never drops a field). */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/**
 * Route options that attach a schema for the OpenAPI document only: whatever scope
 * the route is mounted in, the schema neither validates nor serializes.
 */
export function documented<S extends object>(schema: S): { schema: S; validatorCompiler: typeof documentationOnly; serializerCompiler: typeof plainJson } {
  return { schema, validatorCompiler: documentationOnly, serializerCompiler: plainJson };
}
