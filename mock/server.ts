/**
 * createMock(): the reference Lock Access Service on one fastify server.
 *   {url}/oauth     the OAuth server ({auth_url})
 *   {url}/api       the API ({base_url})
 *   {url}/_control  the control protocol (unless options.control === false)
 *   {url}/error     the page the token endpoint redirects malformed requests to
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext, MockOptions } from './context.js';
import type { TargetProfile } from '../harness/contracts.js';

export interface RunningMock {
  url: string;
  profile: TargetProfile;
  ctx: MockContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function createMock(_options: MockOptions = {}): Promise<RunningMock> {
  throw new Error('createMock: not built yet');
}
