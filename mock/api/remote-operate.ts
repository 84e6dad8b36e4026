/**
 * PUT /remoteoperate/:lockId/status: a status check (spec: Other endpoints named). The
 * spec does not show method or bodies; the mock answers {"lockId","state"} and sends a
 * status webhook to every listener of the lock.
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.js';
import type { LockEventService } from '../events/event-service.js';
import { callerOf } from './authentication.js';
import { memberLock } from './member-lock.js';
import { callerUser } from './users.js';
import { ApiError } from './errors.js';
import { API_SCHEMAS } from '../docs/api-schemas.js';
import { documented } from '../docs/common-schemas.js';

export function registerRemoteOperateRoutes(app: FastifyInstance, ctx: MockContext, events: LockEventService): void {
  app.put<{ Params: { lockId: string } }>('/remoteoperate/:lockId/status', documented(API_SCHEMAS.statusCheck), async (request) => {
    const { claims } = callerOf(request);
    const user = callerUser(ctx, claims.userId);
    const lock = memberLock(ctx, request.params.lockId, user);
    if (!user) throw new ApiError(404, 'lock_not_found', 'no lock with this ID among the caller\'s locks', 'lockID');
    events.emitStatus(lock, user);
    return { lockId: lock.lockId, state: lock.state };
  });
}
