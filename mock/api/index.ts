/** The API at {base_url}: headers and rotation, users, remote operation, webhooks. */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.js';

/** Registers every API route on `app` (already scoped under /api) and sets ctx.events. */
export async function registerApi(_app: FastifyInstance, _ctx: MockContext): Promise<void> {
  throw new Error('registerApi: not built yet');
}
