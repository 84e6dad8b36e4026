/**
 * GET /users/me and GET /users/locks/mine. The spec does not show these bodies; the
 * mock answers the caller's profile, and an object keyed by lock ID of the locks the
 * caller is a member of. The application's own account (client_credentials token,
 * no user) has no profile fields and no locks.
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.js';
import type { MockLock, MockUser } from '../world.js';
import { callerOf } from './authentication.js';
import { ApiError } from './errors.js';
import { API_SCHEMAS } from '../docs/api-schemas.js';
import { documented } from '../docs/common-schemas.js';

export interface LockSummary {
  lockId: string;
  name: string;
  state: MockLock['state'];
  accessLevel: 'user' | 'superuser';
  keypad: boolean;
  doorSensor: boolean;
  builtInKeypad: boolean;
}

/** The caller's user record, or null for the application's own account; 401 when the token names a user that no longer exists. */
export function callerUser(ctx: MockContext, userId: string | null): MockUser | null {
  if (userId === null) return null;
  const user = ctx.world.users.find((u) => u.userId === userId);
  if (!user) throw new ApiError(401, 'invalid_token', 'the access token names an unknown user; the user must authorize again');
  return user;
}

export function registerUserRoutes(app: FastifyInstance, ctx: MockContext): void {
  // Freedom API-RESPONSE-BODIES=plain-text: both answer 200 text/plain "ok" ("Response bodies … not shown").
  const plainText = () => ctx.freedoms.chooses('API-RESPONSE-BODIES', 'plain-text');

  app.get('/users/me', documented(API_SCHEMAS.usersMe), async (request, reply) => {
    const { claims } = callerOf(request);
    const user = callerUser(ctx, claims.userId);
    if (plainText()) return reply.type('text/plain').send('ok');
    if (!user) return { userId: null, clientId: claims.clientId, accountType: 'application' };
    // Never the password: the profile is what an application may show.
    return { userId: user.userId, firstName: user.firstName, lastName: user.lastName, email: user.email, phoneNo: user.phoneNo };
  });

  app.get('/users/locks/mine', documented(API_SCHEMAS.locksMine), async (request, reply) => {
    const { claims } = callerOf(request);
    const user = callerUser(ctx, claims.userId);
    if (plainText()) return reply.type('text/plain').send('ok');
    const locks: Record<string, LockSummary> = {};
    if (!user) return locks;
    for (const lock of ctx.world.locks) {
      const accessLevel = lock.members.get(user.userId);
      if (!accessLevel) continue;
      locks[lock.lockId] = {
        lockId: lock.lockId, name: lock.name, state: lock.state, accessLevel,
        keypad: lock.keypad, doorSensor: lock.doorSensor, builtInKeypad: lock.builtInKeypad,
      };
    }
    return locks;
  });
}
