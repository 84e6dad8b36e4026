/**
 * Request bodies of the API. Every API call carries content-type: application/json
 * (spec: Request headers for API calls), including calls without a body (GET,
 * DELETE, the status check), so an empty JSON body is accepted as "no body" instead
 * of fastify's default 400. Malformed JSON and prototype-poisoning keys are 400s.
 */
import type { FastifyInstance } from 'fastify';

/** Registration bodies are a few hundred bytes; anything near this limit is abuse. */
export const API_BODY_LIMIT = 64 * 1024;

export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: API_BODY_LIMIT }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim().length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: API_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
}
