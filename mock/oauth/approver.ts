/**
 * The user who approved a code, as the slice dimension `approver` names them: the
 * owner of a lock, or a guest on one (spec: "token for one of the application's
 * users"). Used by the slice fault OAUTH-CODE-EXCHANGE@approver, which issues the
 * token for the approver's partner on a lock instead.
 */
import type { World } from '../world.js';

/** owner when the user owns a lock of the world, guest otherwise. */
export function approverRole(world: World, userId: string): 'owner' | 'guest' {
  return world.locks.some((l) => l.ownerUserId === userId) ? 'owner' : 'guest';
}

/** The slice dimension `actor` of a token: the application's own account (no user), or its user's role. */
export function actorOf(world: World, userId: string | null): 'owner' | 'guest' | 'application' {
  return userId === null ? 'application' : approverRole(world, userId);
}

/** Another member of a lock the user belongs to (their fixture set's partner); else the next user of the world. */
export function partnerOf(world: World, userId: string): string {
  for (const lock of world.locks) {
    if (!lock.members.has(userId)) continue;
    const other = [...lock.members.keys()].find((id) => id !== userId);
    if (other) return other;
  }
  const i = world.users.findIndex((u) => u.userId === userId);
  return world.users[(i + 1) % world.users.length]?.userId ?? userId;
}
