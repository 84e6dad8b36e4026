/**
 * The people and devices the mock serves: the fixtures of the control protocol
 * (GET /_control/fixtures) plus the mutable device state events report.
 * The first user owns both locks; the second is a guest on the first lock.
 * Beyond that minimum, the world holds a few more fixture sets of the same shape
 * (an owner of two locks, a guest on the first, a bridge of their own), so tests that
 * need their own lock and users can run side by side (docs/control-protocol-extensions.md).
 */
import { randomBytes, randomUUID } from 'node:crypto';

export interface MockUser {
  userId: string; // lower-case UUID
  firstName: string;
  lastName: string;
  email: string;
  phoneNo: string;
  /** Sign-in password for the mock's real pages. */
  password: string;
}

export type LockState = 'lock' | 'unlock' | 'unlatch';

export interface MockLock {
  lockId: string; // 32 hex characters, upper case unless the lower-case variant is on
  name: string;
  ownerUserId: string;
  keypad: boolean;
  doorSensor: boolean;
  builtInKeypad: boolean;
  bridgeId: string;
  keypadSerialNumber: string;
  state: LockState;
  /** userId → access level on this lock. */
  members: Map<string, 'user' | 'superuser'>;
}

export interface World {
  users: MockUser[];
  locks: MockLock[];
}

function hexId(lowerCase: boolean): string {
  const id = randomBytes(16).toString('hex');
  return lowerCase ? id : id.toUpperCase();
}

export function createWorld(options: { lowerCaseLockIds?: boolean } = {}): World {
  const lower = options.lowerCaseLockIds ?? false;
  const users: MockUser[] = [
    { userId: randomUUID(), firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test', phoneNo: '+15550100001', password: 'analytical-engine' },
    { userId: randomUUID(), firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test', phoneNo: '+15550100002', password: 'compiler-1952' },
    { userId: randomUUID(), firstName: 'Alan', lastName: 'Turing', email: 'alan@example.test', phoneNo: '+15550100003', password: 'bombe-1939' },
  ];
  const [owner, guest] = users as [MockUser, MockUser, MockUser];
  const bridgeId = hexId(lower);
  const locks: MockLock[] = [
    {
      lockId: hexId(lower), name: 'Front Door', ownerUserId: owner.userId, keypad: true, doorSensor: true,
      builtInKeypad: false, bridgeId, keypadSerialNumber: 'KP-' + randomBytes(4).toString('hex').toUpperCase(),
      state: 'lock', members: new Map([[owner.userId, 'superuser'], [guest.userId, 'user']]),
    },
    {
      lockId: hexId(lower), name: 'Back Door', ownerUserId: owner.userId, keypad: false, doorSensor: false,
      builtInKeypad: true, bridgeId, keypadSerialNumber: 'KP-' + randomBytes(4).toString('hex').toUpperCase(),
      state: 'lock', members: new Map([[owner.userId, 'superuser']]),
    },
  ];
  for (let set = 1; set <= EXTRA_FIXTURE_SETS; set++) addFixtureSet(users, locks, set, lower);
  return { users, locks };
}

/**
 * How many fixture sets the world holds beyond the minimum: the harness leases one
 * per concurrent test and hands each out once between resets (harness/run/gate.ts), and
 * a reset waits for every leased test to end; more sets than a full run's leased tests
 * (59) means none waits for one.
 */
export const EXTRA_FIXTURE_SETS = 64;

/** Users and locks of one more set, appended after the minimum (whose positions do not change). */
function addFixtureSet(users: MockUser[], locks: MockLock[], set: number, lower: boolean): void {
  const owner: MockUser = { userId: randomUUID(), firstName: 'Owner', lastName: `Set ${set}`, email: `owner${set}@example.test`, phoneNo: `+1555020${String(set).padStart(4, '0')}`, password: `owner-set-${set}` };
  const guest: MockUser = { userId: randomUUID(), firstName: 'Guest', lastName: `Set ${set}`, email: `guest${set}@example.test`, phoneNo: `+1555030${String(set).padStart(4, '0')}`, password: `guest-set-${set}` };
  users.push(owner, guest);
  const bridgeId = hexId(lower);
  const serial = () => 'KP-' + randomBytes(4).toString('hex').toUpperCase();
  locks.push(
    {
      lockId: hexId(lower), name: `Front Door ${set}`, ownerUserId: owner.userId, keypad: true, doorSensor: true,
      builtInKeypad: false, bridgeId, keypadSerialNumber: serial(),
      state: 'lock', members: new Map([[owner.userId, 'superuser'], [guest.userId, 'user']]),
    },
    {
      lockId: hexId(lower), name: `Back Door ${set}`, ownerUserId: owner.userId, keypad: false, doorSensor: false,
      builtInKeypad: true, bridgeId, keypadSerialNumber: serial(),
      state: 'lock', members: new Map([[owner.userId, 'superuser']]),
    },
  );
}

/** The users with guest (not owner) access to a lock, in the order they were added. */
export function guestsOf(lock: MockLock): string[] {
  return [...lock.members].filter(([userId, level]) => level === 'user' && userId !== lock.ownerUserId).map(([userId]) => userId);
}

/** A fresh copy of the world's initial state, used by POST /_control/reset. */
export function snapshotWorld(world: World): () => void {
  const saved = world.locks.map((lock) => ({ lock, name: lock.name, state: lock.state, members: new Map(lock.members) }));
  return () => {
    for (const s of saved) {
      s.lock.name = s.name;
      s.lock.state = s.state;
      s.lock.members = new Map(s.members);
    }
  };
}

/**
 * A lock's place in its fixture set, as the slice faults of dimension `lock` name it: every
 * set holds two locks of the same owner, the first (keypad, door sensor) and the second
 * (built-in keypad); null for a lock outside the world.
 */
export function lockSlot(world: World, lockId: string): 'first' | 'second' | null {
  const index = world.locks.findIndex((l) => l.lockId === lockId);
  return index < 0 ? null : index % 2 === 0 ? 'first' : 'second';
}

/** The role of a user on a lock, as the slice faults of dimension `role` name it. */
export function roleOn(lock: MockLock, userId: string | null): 'owner' | 'guest' | null {
  if (userId === null || !lock.members.has(userId)) return null;
  return lock.ownerUserId === userId ? 'owner' : 'guest';
}
