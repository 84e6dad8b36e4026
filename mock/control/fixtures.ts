/** GET /_control/fixtures: the world's users and locks, in the contract's field names (no passwords). */
import type { Fixtures } from '../../harness/contracts.js';
import { guestsOf, type World } from '../world.js';

export function fixturesOf(world: World): Fixtures {
  return {
    users: world.users.map((u) => ({ userId: u.userId, firstName: u.firstName, lastName: u.lastName, email: u.email, phoneNo: u.phoneNo })),
    locks: world.locks.map((l) => ({
      lockId: l.lockId,
      name: l.name,
      ownerUserId: l.ownerUserId,
      keypad: l.keypad,
      doorSensor: l.doorSensor,
      builtInKeypad: l.builtInKeypad,
      bridgeId: l.bridgeId,
      guestUserIds: guestsOf(l),
    })),
  };
}
