/**
 * User objects as webhook payloads carry them (spec: User object): UserID, FirstName,
 * LastName, PhoneNo, Email, imageInfo; and the fixed markers that stand in for a user
 * on manual, door and master PIN events.
 */
import type { MockUser, World } from '../world.js';

export interface ImageVariant {
  width: number;
  height: number;
  format: string;
  url: string;
  secure_url: string;
}
export interface ImageInfo {
  original: ImageVariant;
  thumbnail: ImageVariant;
}

export interface UserObject {
  UserID: string;
  FirstName: string;
  LastName: string;
  PhoneNo: string;
  Email: string;
  imageInfo: ImageInfo | 'n/a';
  UserType?: string;
  AccessType?: string;
}

/** The marker on manual events: manualunlock for unlock and unlatch, manuallock for lock. */
export type ManualMarker = 'manualunlock' | 'manuallock';
export const DOOR_MARKER = 'DoorStateChanged';

export const MASTER_PIN_USER: UserObject = Object.freeze({
  UserID: 'masterpin',
  FirstName: 'Master',
  LastName: 'PIN',
  PhoneNo: 'n/a',
  Email: 'n/a',
  imageInfo: 'n/a',
}) as UserObject;

function variant(user: MockUser, name: string, size: number): ImageVariant {
  const path = `images.example.test/users/${user.userId}/${name}.jpg`;
  return { width: size, height: size, format: 'jpg', url: `http://${path}`, secure_url: `https://${path}` };
}

/**
 * Both imageInfo shapes occur in the spec, so the fixtures show both: users at even
 * positions of the world have a picture, the others "n/a".
 */
export function imageInfoOf(world: World, user: MockUser): ImageInfo | 'n/a' {
  const index = world.users.findIndex((u) => u.userId === user.userId);
  if (index % 2 !== 0) return 'n/a';
  return { original: variant(user, 'original', 640), thumbnail: variant(user, 'thumbnail', 128) };
}

export function userObject(world: World, user: MockUser): UserObject {
  return {
    UserID: user.userId,
    FirstName: user.firstName,
    LastName: user.lastName,
    PhoneNo: user.phoneNo,
    Email: user.email,
    imageInfo: imageInfoOf(world, user),
  };
}
